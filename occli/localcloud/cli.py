"""``occli-localcloud``: run, start, stop, inspect and reset the local cloud."""

import argparse
import contextlib
import errno
import logging
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import platformdirs

from occli.localcloud.cloud import DATA_FILES
from occli.localcloud.cloud import SEED_PROFILES
from occli.localcloud.cloud import SERVICE_NAMES
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import make_private_dir
from occli.localcloud.cloud import open_private

# what the ``localcloud`` extra installs: waitress serves, jsonschema checks
# Nova's request bodies, re2 runs users' regular expressions in linear time
LOCALCLOUD_MODULES = ("waitress", "jsonschema", "re2")

PID_FILE = "localcloud.pid"
LOG_FILE = "localcloud.log"
ENDPOINT_FILE = "endpoint"
CLOUDS_FILE = "clouds.yaml"
START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0
ADMIN_PASSWORD_ENV = "OCCLI_LOCALCLOUD_ADMIN_PASSWORD"
DEMO_PASSWORD_ENV = "OCCLI_LOCALCLOUD_DEMO_PASSWORD"
EXIT_NOT_RUNNING = 3


class CLIError(Exception):
    """A failure reported as ``error: <message>`` with exit status 1."""


def default_data_dir():
    """``$OCCLI_LOCALCLOUD_DIR`` or ``<user data dir>/occli/localcloud``."""
    env = os.environ.get("OCCLI_LOCALCLOUD_DIR")
    if env:
        return env
    return os.path.join(platformdirs.user_data_dir("occli"), "localcloud")


def _fault_spec(value):
    from occli.localcloud.faults import validate_spec

    try:
        validate_spec(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _services(value):
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = set(names) - set(SERVICE_NAMES)
    if unknown:
        raise argparse.ArgumentTypeError(
            "unknown services %s (known: %s)"
            % (", ".join(sorted(unknown)), ", ".join(SERVICE_NAMES))
        )
    if "identity" not in names:
        names.insert(0, "identity")
    return names


def _port(value):
    port = int(value)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("port must be between 0 and 65535")
    return port


def _directory(value):
    # absolute: the background cloud runs in its data directory
    return os.path.abspath(value)


def _workers(value):
    workers = int(value)
    if not 1 <= workers <= 64:
        raise argparse.ArgumentTypeError("workers must be between 1 and 64")
    return workers


# Config fields that ``serve`` and ``start`` take as options of the same name
# (``--build-time`` sets build_time), in --help order: (field, type, metavar,
# help); a bool one is a flag.  _config passes them to Config, and _child_argv
# passes them on to the background cloud.
_SETTINGS = (
    ("host", str, None, "address to listen on (default: %(default)s)"),
    ("port", _port, None, "port to listen on, 0 for a free one (default: %(default)s)"),
    (
        "workers",
        _workers,
        "N",
        "worker processes serving requests (default: %(default)s; more use more cores)",
    ),
    ("compute_hosts", int, "N", "number of fake compute hosts (default: %(default)s)"),
    ("build_time", float, "SECONDS", "seconds a server stays in BUILD (default: %(default)s)"),
    (
        "live_migration_time",
        float,
        "SECONDS",
        "seconds a live migration stays running, 0 for as long as a build (default: %(default)s)",
    ),
    (
        "reclaim_instance_interval",
        float,
        "SECONDS",
        "above 0, a deleted server is SOFT_DELETED (restore, force delete) for"
        " this long, as nova's option (default: %(default)s)",
    ),
    (
        "shelved_offload_time",
        float,
        "SECONDS",
        "nova's option: 0 offloads a shelved server at once, -1 never (default: %(default)s)",
    ),
    (
        "allow_resize_to_same_host",
        bool,
        None,
        "nova's option: a resize may stay on the server's host (by default it"
        " moves to another one, as nova's scheduler does)",
    ),
    (
        "enable_force_upload",
        bool,
        None,
        "cinder's option: an in-use volume may be uploaded to an image with force"
        " (by default force is ignored, as in cinder)",
    ),
    (
        "max_object_size",
        int,
        "BYTES",
        "the largest Swift object, as Swift's max_file_size (default: %(default)s)",
    ),
    (
        "object_quota_bytes",
        int,
        "BYTES",
        "bytes each Swift account may store unless the admin sets its"
        " X-Account-Quota-Bytes, -1 for unlimited (default: %(default)s)",
    ),
    (
        "object_quota_count",
        int,
        "N",
        "objects each Swift account may hold unless the admin sets its"
        " X-Account-Quota-Count, -1 for unlimited (default: %(default)s)",
    ),
    ("token_ttl", int, "SECONDS", "token lifetime (default: %(default)s)"),
    (
        "lockout_failure_attempts",
        int,
        "N",
        "failed password logins that lock a user, as keystone's"
        " [security_compliance] option (default: never)",
    ),
    (
        "lockout_duration",
        int,
        "SECONDS",
        "how long such a user stays locked (default: %(default)s)",
    ),
    (
        "quota_instances",
        int,
        "N",
        "nova's default instances quota per project, -1 for unlimited (default: %(default)s)",
    ),
    (
        "quota_cores",
        int,
        "N",
        "nova's default cores quota per project, -1 for unlimited (default: %(default)s)",
    ),
    (
        "quota_ram",
        int,
        "MB",
        "nova's default RAM quota per project, -1 for unlimited (default: %(default)s)",
    ),
    ("max_servers_per_request", int, "N", "servers one create may make (default: %(default)s)"),
    (
        "heat_environment_dir",
        _directory,
        "DIR",
        "heat's environment_dir: its *.yaml and *.json environments are the"
        " global one every stack's environment is layered over",
    ),
    (
        "heat_simulated_agent",
        bool,
        None,
        "act as every ACTIVE server's in-server agent (os-collect-config):"
        " signal its software deployments, so stacks finish without a VM",
    ),
    (
        "heat_agent_rules",
        os.path.abspath,
        "FILE",
        "the simulated agent's results per deployment (YAML: pattern ->"
        " deploy_status_code, deploy_stdout, deploy_stderr, outputs, delay)",
    ),
)


def build_parser():
    defaults = Config(data_dir="")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--data-dir",
        default=None,
        help="data directory (default: $OCCLI_LOCALCLOUD_DIR or %s)"
        % os.path.join(platformdirs.user_data_dir("occli"), "localcloud"),
    )

    runtime = argparse.ArgumentParser(add_help=False)
    for field, kind, metavar, text in _SETTINGS:
        option = "--" + field.replace("_", "-")
        if kind is bool:
            runtime.add_argument(
                option, action="store_true", default=getattr(defaults, field), help=text
            )
        else:
            runtime.add_argument(
                option, type=kind, default=getattr(defaults, field), metavar=metavar, help=text
            )
    runtime.add_argument(
        "--admin-password",
        default=os.environ.get(ADMIN_PASSWORD_ENV, defaults.admin_password),
        help="password of user admin (env %s)" % ADMIN_PASSWORD_ENV,
    )
    runtime.add_argument(
        "--demo-password",
        default=os.environ.get(DEMO_PASSWORD_ENV, defaults.demo_password),
        help="password of user demo (env %s)" % DEMO_PASSWORD_ENV,
    )
    runtime.add_argument(
        "--services",
        type=_services,
        default=None,
        metavar="NAME,...",
        help="run only these services (default: all of %s;"
        " identity is always needed)" % ",".join(SERVICE_NAMES),
    )
    runtime.add_argument(
        "--seed",
        choices=SEED_PROFILES,
        default=defaults.seed,
        help="what a new data directory is seeded with: occli's default, or"
        " what DevStack's stack.sh creates (default: %(default)s)",
    )
    runtime.add_argument(
        "--heat-plugin-dir",
        dest="heat_plugin_dirs",
        action="append",
        default=[],
        type=_directory,
        metavar="DIR",
        help="heat's plugin_dirs: a directory whose modules add resource types (repeatable)",
    )
    runtime.add_argument(
        "--fault",
        action="append",
        default=[],
        type=_fault_spec,
        metavar="METHOD:PATHREGEX:COUNT:KIND[:ARG]",
        help="inject a fault (repeatable); KIND is status, delay, close or malformed",
    )

    parser = argparse.ArgumentParser(
        prog="occli-localcloud",
        description="A local OpenStack cloud (Keystone, Nova, Glance, Neutron,"
        " Cinder, Heat and Swift APIs) for trying and testing occli.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub.add_parser("serve", parents=[common, runtime], help="run in the foreground").set_defaults(
        func=cmd_serve
    )
    sub.add_parser("start", parents=[common, runtime], help="run in the background").set_defaults(
        func=cmd_start
    )
    sub.add_parser("stop", parents=[common], help="stop the background cloud").set_defaults(
        func=cmd_stop
    )
    sub.add_parser(
        "status", parents=[common], help="is it running? (exit 0 yes, 3 no)"
    ).set_defaults(func=cmd_status)
    sub.add_parser(
        "reset", parents=[common], help="delete all data (only while stopped)"
    ).set_defaults(func=cmd_reset)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    args.data_dir = os.path.abspath(args.data_dir or default_data_dir())
    if args.func in (cmd_serve, cmd_start):
        missing = missing_requirements()
        if missing:
            print(
                "error: occli-localcloud needs the localcloud extra (missing:"
                " %s); install it with: pip install 'occli[localcloud]'" % ", ".join(missing),
                file=sys.stderr,
            )
            return 1
    try:
        return args.func(args)
    except CLIError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def missing_requirements():
    """The localcloud extra's modules that cannot be imported here."""
    import importlib.util

    return [name for name in LOCALCLOUD_MODULES if importlib.util.find_spec(name) is None]


# -- process bookkeeping -------------------------------------------------------


def _path(args, name):
    return os.path.join(args.data_dir, name)


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except (FileNotFoundError, NotADirectoryError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = _read("/proc/%d/stat" % pid)
    if stat is not None:
        return stat.rsplit(")", 1)[-1].split()[0] != "Z"
    return True


def _looks_like_localcloud(pid):
    cmdline = _read("/proc/%d/cmdline" % pid)
    if cmdline is None:
        return True
    return "occli.localcloud" in cmdline or "occli-localcloud" in cmdline


def running_pid(data_dir):
    """The pid of the local cloud serving ``data_dir``, or None."""
    text = _read(os.path.join(data_dir, PID_FILE))
    try:
        pid = int(text)
    except (TypeError, ValueError):
        return None
    if pid > 0 and _alive(pid) and _looks_like_localcloud(pid):
        return pid
    return None


def _remove(path):
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _port_in_use(host, port):
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CLIError("cannot resolve host %s: %s" % (host, exc)) from None
    family, socktype, proto, _, sockaddr = infos[0]
    with socket.socket(family, socktype, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(sockaddr)
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return True
            raise CLIError("cannot listen on %s:%d: %s" % (host, port, exc)) from None
    return False


def _answers(url):
    try:
        with urllib.request.urlopen(url + "/v3", timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _config(args):
    return Config(
        data_dir=args.data_dir,
        admin_password=args.admin_password,
        demo_password=args.demo_password,
        faults=list(args.fault),
        heat_plugin_dirs=list(args.heat_plugin_dirs),
        seed=args.seed,
        **{field: getattr(args, field) for field, *_ in _SETTINGS},
    )


def _use_lines(args):
    clouds = _path(args, CLOUDS_FILE)
    return ["export OS_CLIENT_CONFIG_FILE=%s; export OS_CLOUD=local" % shlex.quote(clouds)]


# -- commands ------------------------------------------------------------------


def cmd_serve(args):
    """Run in the foreground until SIGINT/SIGTERM."""
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.cloud import service_classes
    from occli.localcloud.server import serve

    other = running_pid(args.data_dir)
    if other is not None and other != os.getpid():
        raise CLIError("a local cloud is already running for %s (pid %d)" % (args.data_dir, other))
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    services = service_classes(args.services) if args.services else None
    cloud = LocalCloud(_config(args), services=services)
    pid_path = _path(args, PID_FILE)

    def ready(url):
        with open_private(pid_path, "w") as f:
            f.write("%d\n" % os.getpid())
        print(
            "Local cloud listening on %s (pid %d, data in %s)" % (url, os.getpid(), args.data_dir),
            flush=True,
        )
        print("\n".join(_use_lines(args)), flush=True)

    try:
        serve(cloud, args.host, args.port, on_ready=ready)
    except OSError as exc:
        cloud.close()
        if exc.errno == errno.EADDRINUSE:
            raise CLIError("port %d on %s is already in use" % (args.port, args.host)) from None
        raise CLIError("cannot listen on %s:%d: %s" % (args.host, args.port, exc)) from None
    finally:
        if _read(pid_path) == str(os.getpid()):
            _remove(pid_path)
    return 0


def _child_argv(args):
    argv = [sys.executable, "-m", "occli.localcloud", "serve", "--data-dir", args.data_dir]
    for field, kind, _, _ in _SETTINGS:
        option, value = "--" + field.replace("_", "-"), getattr(args, field)
        if value is None:
            continue  # unset (e.g. no lockout): the child's default is the same
        if kind is not bool:
            argv += [option, str(value)]
        elif value:
            argv.append(option)
    if args.services:
        argv += ["--services", ",".join(args.services)]
    argv += ["--seed", args.seed]
    for spec in args.fault:
        argv += ["--fault", spec]
    for directory in args.heat_plugin_dirs:
        argv += ["--heat-plugin-dir", directory]
    return argv


def _child_env(args):
    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    env[ADMIN_PASSWORD_ENV] = args.admin_password
    env[DEMO_PASSWORD_ENV] = args.demo_password
    env["OCCLI_LOCALCLOUD_DIR"] = args.data_dir
    return env


def _log_tail(path, lines=15):
    text = _read(path) or ""
    return "\n".join(text.splitlines()[-lines:])


def cmd_start(args):
    """Start ``serve`` detached and wait until it answers."""
    pid = running_pid(args.data_dir)
    if pid is not None:
        url = _read(_path(args, ENDPOINT_FILE)) or "?"
        raise CLIError("a local cloud is already running at %s (pid %d)" % (url, pid))
    if args.port and _port_in_use(args.host, args.port):
        raise CLIError(
            "port %d on %s is already in use (choose another with"
            " --port, or --port 0 for a free one)" % (args.port, args.host)
        )
    make_private_dir(args.data_dir)
    for name in (ENDPOINT_FILE, PID_FILE):
        _remove(_path(args, name))
    log_path = _path(args, LOG_FILE)
    with open_private(log_path, "ab") as log:
        proc = subprocess.Popen(
            _child_argv(args),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=_child_env(args),
            cwd=args.data_dir,
            start_new_session=True,
            close_fds=True,
        )
    with open_private(_path(args, PID_FILE), "w") as f:
        f.write("%d\n" % proc.pid)

    deadline = time.monotonic() + START_TIMEOUT
    url = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _remove(_path(args, PID_FILE))
            raise CLIError(
                "the local cloud exited during start-up"
                " (status %d); log %s:\n%s" % (proc.returncode, log_path, _log_tail(log_path))
            )
        url = _read(_path(args, ENDPOINT_FILE))
        if url and _answers(url):
            break
        time.sleep(0.1)
    else:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        _remove(_path(args, PID_FILE))
        raise CLIError(
            "the local cloud did not come up within %d seconds; see %s" % (START_TIMEOUT, log_path)
        )

    port = url.rsplit(":", 1)[-1]
    print("Local cloud running at %s (pid %d)" % (url, proc.pid))
    print("Port: %s" % port)
    print("Data directory: %s" % args.data_dir)
    print("Log: %s" % log_path)
    print("Credentials (domain Default):")
    print("  cloud local:       user demo,  password %s, project demo" % args.demo_password)
    print("  cloud local-admin: user admin, password %s, project admin" % args.admin_password)
    print("  (local-alt, local-system-admin; and DevStack's names: devstack,")
    print("  devstack-admin, devstack-alt, devstack-system-admin)")
    print("To use it:")
    for line in _use_lines(args):
        print("  " + line)
    return 0


def cmd_stop(args):
    """SIGTERM the background cloud and wait for it to exit."""
    pid_path = _path(args, PID_FILE)
    pid = running_pid(args.data_dir)
    if pid is None:
        _remove(pid_path)
        print("The local cloud is not running (data dir %s)." % args.data_dir)
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        print(
            "pid %d did not stop within %d seconds; killing it" % (pid, STOP_TIMEOUT),
            file=sys.stderr,
        )
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.05)
    _remove(pid_path)
    _remove(_path(args, ENDPOINT_FILE))
    print("Stopped the local cloud (pid %d)." % pid)
    return 0


def cmd_status(args):
    """Exit 0 and print the URL if running, else exit 3."""
    pid = running_pid(args.data_dir)
    if pid is None:
        print("The local cloud is not running (data dir %s)." % args.data_dir)
        return EXIT_NOT_RUNNING
    url = _read(_path(args, ENDPOINT_FILE)) or "(starting)"
    print("The local cloud is running at %s (pid %d, data dir %s)." % (url, pid, args.data_dir))
    return 0


def cmd_reset(args):
    """Delete everything in the data dir; refuses while running."""
    pid = running_pid(args.data_dir)
    if pid is not None:
        raise CLIError(
            "the local cloud is running (pid %d); run 'occli-localcloud stop' first" % pid
        )
    if not os.path.isdir(args.data_dir):
        print("Nothing to reset: %s does not exist." % args.data_dir)
        return 0
    entries = os.listdir(args.data_dir)
    if "cloud.db" not in entries and set(entries) - set(DATA_FILES):
        raise CLIError(
            "%s does not look like a local cloud data directory; not deleting it" % args.data_dir
        )
    for name in entries:
        path = os.path.join(args.data_dir, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    print("Reset the local cloud: emptied %s." % args.data_dir)
    return 0
