"""Start a local cloud for a test, and the helpers a test uses on it.

Nothing of the local cloud nor of the client is imported before a cloud is
started (pytest loads the plugin in every run of an environment that has
occli installed).

Speed: the first cloud of a process with given seeded settings (services,
passwords, compute hosts, the seed profile) is migrated and seeded as usual (its users'
passwords hashed at a low scrypt cost: these clouds are throwaway and their
passwords are public), and its database saved as a *template*
(``LocalCloud.save_template``). Every later cloud copies the template file
(~1 MB) into a new data directory and skips migrations and seeds, writing
nothing, then binds a free loopback port: a few milliseconds, see
benchmarks/testing_start.py. A test's cloud is not durable
(``Config.durable=False``: SQLite never fsyncs), its data dir going at its
stop.
"""

import atexit
import codecs
import collections
import contextlib
import functools
import inspect
import os
import queue
import shutil
import tempfile
import threading

#: Config fields read on every use, not at seed time: they do not need a
#: template of their own.
RUNTIME_SETTINGS = frozenset(
    (
        "build_time",
        "token_ttl",
        "region",
        "faults",
        "threads",
        "quota_instances",
        "quota_cores",
        "quota_ram",
        "max_servers_per_request",
        "live_migration_time",
        "reclaim_instance_interval",
        "shelved_offload_time",
        "allow_resize_to_same_host",
        "max_object_size",
        "object_quota_bytes",
        "object_quota_count",
        "durable",
    )
)
#: scrypt cost of the seeded users' hashes in a template (a cloud made for
#: a test needs no strong hashes; each login then costs microseconds)
TEMPLATE_SCRYPT = {"n": 16, "r": 1, "p": 1}

#: waitress worker threads of a test's cloud unless ``threads`` is given
TEST_THREADS = 4

_templates: dict = {}
_template_keys: dict = {}
_templates_lock = threading.Lock()
_template_dir: str | None = None

#: one line of the access log: ``path`` and ``query`` unescaped
LoggedRequest = collections.namedtuple(
    "LoggedRequest", "method path query status seconds request_id"
)


def _service_classes(services):
    from occli.localcloud import cloud as lc

    if services is None:
        return lc.default_services()
    names = [s for s in services if isinstance(s, str)]
    if names and len(names) != len(services):
        raise TypeError("services: give names or classes, not both")
    if names:
        if "identity" not in names:
            names.append("identity")
        return lc.service_classes(names)
    return list(services)


def _template_key(names, settings):
    """The key of the template for services ``names`` and ``settings``: the
    names and every seeded Config field (defaults included, so that a
    setting given at its default shares the template), memoised per given
    seeded settings (building a Config took most of a millisecond)."""
    given = (
        names,
        tuple(sorted((k, repr(v)) for k, v in settings.items() if k not in RUNTIME_SETTINGS)),
    )
    key = _template_keys.get(given)
    if key is None:
        import dataclasses

        from occli.localcloud.cloud import Config

        config = dataclasses.asdict(Config(data_dir="", **settings))
        seeded = tuple(
            sorted(
                (k, repr(v))
                for k, v in config.items()
                if k not in RUNTIME_SETTINGS and k not in ("data_dir", "host", "port")
            )
        )
        key = _template_keys.setdefault(given, (names, seeded))
    return key


def _template_path(classes, settings):
    """The template database for ``classes`` and the seeded ``settings``,
    built on first use (once per process)."""
    global _template_dir
    key = _template_key(tuple("%s.%s" % (c.__module__, c.__qualname__) for c in classes), settings)
    with _templates_lock:
        path = _templates.get(key)
        if path is not None and os.path.exists(path):
            return path
        if _template_dir is None or not os.path.isdir(_template_dir):
            _template_dir = tempfile.mkdtemp(prefix="occli-testing-")
            atexit.register(_remove_templates, _template_dir, os.getpid())
        path = os.path.join(_template_dir, "template-%d.db" % len(_templates))
        _build_template(path, classes, settings)
        _templates[key] = path
        return path


def _remove_templates(path, pid):
    if os.getpid() == pid:  # not in a forked child
        shutil.rmtree(path, ignore_errors=True)


#: stopped clouds' data dirs moved into the template dir, to be removed
_removals: "queue.Queue[str]" = queue.Queue()
_remover_pid: int | None = None
#: more data dirs than this waiting: a stop removes its own at once
REMOVAL_BACKLOG = 16


def _remove_data_dir(path):
    """Remove a stopped cloud's data dir ``path``: renamed at once into the
    process's template dir (0700, removed at exit with all it holds) and
    removed there by a thread of its own, or removed here when that cannot
    be or too many wait. Removing a directory tree costs milliseconds of
    the disk's time (3-14 ms on a loaded machine, more than the rest of a
    test's cloud), a rename tens of microseconds."""
    global _remover_pid
    parent = _template_dir
    if parent is not None and _removals.qsize() < REMOVAL_BACKLOG:
        moved = os.path.join(parent, "stopped-" + os.path.basename(path))
        try:
            os.rename(path, moved)
        except OSError:
            pass
        else:
            with _templates_lock:
                if _remover_pid != os.getpid():  # none yet, or forked
                    _remover_pid = os.getpid()
                    threading.Thread(
                        target=_remover, daemon=True, name="occli-testing-remover"
                    ).start()
            _removals.put(moved)
            return
    shutil.rmtree(path, ignore_errors=True)


def _remover():
    while True:
        shutil.rmtree(_removals.get(), ignore_errors=True)


def _build_template(path, classes, settings):
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.identity import passwords

    data_dir = tempfile.mkdtemp(prefix="template-", dir=os.path.dirname(path))
    saved = dict(passwords.SCRYPT)
    cheaper = {k: min(v, saved[k]) for k, v in TEMPLATE_SCRYPT.items()}
    passwords.SCRYPT.update(cheaper)
    try:
        cloud = LocalCloud(Config(data_dir=data_dir, port=0, **settings), services=classes)
    finally:
        passwords.SCRYPT.update(saved)
    try:
        cloud.save_template(path)
    finally:
        cloud.close()
        shutil.rmtree(data_dir, ignore_errors=True)


def start_local_cloud(services=None, **settings):
    """Start a fresh local cloud on a free loopback port: a
    :class:`CloudFixture` (stop it with ``stop()``, or use it as a context
    manager).

    ``services``: names (``["identity", "image"]``; identity is always
    added) or service classes; default all. ``settings`` are
    :class:`~occli.localcloud.cloud.Config` fields (``compute_hosts``,
    ``build_time`` — 0 unless given —, ``quota_instances``, ``faults``,
    ``threads`` — 4 unless given —, ``seed="devstack"`` for what DevStack
    seeds, …). The process environment is not
    changed: see :meth:`CloudFixture.patch_environ`.
    """
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.server import BackgroundServer

    settings.setdefault("build_time", 0)
    # its data dir goes at stop: a commit or checkpoint need not fsync
    settings.setdefault("durable", False)
    # a test's clients send a request or two at a time; fewer worker
    # threads start and stop sooner (the service's default is 8)
    settings.setdefault("threads", TEST_THREADS)
    for fixed in ("data_dir", "host", "port"):
        if fixed in settings:
            raise TypeError("%s is chosen by occli.testing" % fixed)
    classes = _service_classes(services)
    template = _template_path(classes, settings)
    data_dir = tempfile.mkdtemp(prefix="occli-testcloud-")
    cloud = server = None
    try:
        config = Config(data_dir=data_dir, host="127.0.0.1", port=0, **settings)
        cloud = LocalCloud(config, services=classes, template=template)
        server = BackgroundServer(cloud, host="127.0.0.1", port=0).start()
        return CloudFixture(cloud, server)
    except BaseException:
        if server is not None:
            server.stop()
        if cloud is not None:
            cloud.close()
        shutil.rmtree(data_dir, ignore_errors=True)
        raise


class CloudFixture:
    """A local cloud started for a test, and what a test does with it.

    Attributes: ``url`` (root URL, e.g. ``http://127.0.0.1:40123``),
    ``auth_url`` (``url + "/v3"``), ``data_dir``, ``clouds_yaml`` (path of
    its clouds.yaml: clouds ``local`` — user ``demo``, member of project
    ``demo`` —, ``local-admin`` — user ``admin`` —, and any other user the
    local cloud seeds, each also under DevStack's name: ``devstack``,
    ``devstack-admin``, ``devstack-alt``, ``devstack-system-admin``),
    ``cloud`` (the
    :class:`~occli.localcloud.cloud.LocalCloud`), ``config`` (its
    ``Config``), ``faults`` (its fault injector).
    """

    def __init__(self, cloud, server):
        self.cloud = cloud
        self.server = server
        self.config = cloud.config
        self.url = server.url
        self.auth_url = server.url + "/v3"
        self.data_dir = cloud.config.data_dir
        self.clouds_yaml = cloud.clouds_yaml_path
        self.cache_dir = os.path.join(self.data_dir, "occli-cache")
        self.secure_yaml = os.path.join(self.data_dir, "secure.yaml")
        with open(os.open(self.secure_yaml, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            # an empty secure file, so no secure.yaml of the user's is merged
            f.write("clouds: {}\n")
        self._clouds = None
        self._stopped = False
        self._initial_build_time = cloud.config.build_time

    def __repr__(self):
        return "<CloudFixture %s (%s)>" % (self.url, self.data_dir)

    # -- lifecycle ----------------------------------------------------------

    def stop(self):
        """Stop serving, close the database and remove the data dir."""
        if self._stopped:
            return
        self._stopped = True
        try:
            self.server.stop()
        finally:
            self.cloud.close()
            _remove_data_dir(self.data_dir)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def reset(self):
        """Clear the fault rules and put the build time back to what the
        cloud started with (``local_cloud_module`` does it after each
        test); the data stays."""
        self.cloud.faults.clear()
        self.config.build_time = self._initial_build_time

    # -- clients ------------------------------------------------------------

    def cloud_entry(self, cloud="local"):
        """The ``clouds.yaml`` entry ``cloud`` (a dict with ``auth``)."""
        if self._clouds is None:
            # what was just written to clouds.yaml, not parsed again
            self._clouds = self.cloud.client_config["clouds"]
        try:
            return self._clouds[cloud]
        except KeyError:
            raise ValueError(
                "no cloud %r in %s (clouds: %s)"
                % (cloud, self.clouds_yaml, ", ".join(self._clouds))
            ) from None

    def environ(self, cloud="local"):
        """The variables that point a client at cloud ``cloud``:
        ``OS_CLOUD`` and ``OS_CLIENT_CONFIG_FILE`` (for clients that read
        clouds.yaml), the same user as plain ``OS_AUTH_URL``,
        ``OS_USERNAME``, … (for those that do not), an empty
        ``OS_CLIENT_SECURE_FILE``, and occli's ``OCCLI_CACHE_DIR`` and
        ``OCCLI_LOCALCLOUD_DIR`` inside the data dir."""
        entry = self.cloud_entry(cloud)
        env = {
            "OS_CLOUD": cloud,
            "OS_CLIENT_CONFIG_FILE": self.clouds_yaml,
            "OS_CLIENT_SECURE_FILE": self.secure_yaml,
            "OCCLI_CACHE_DIR": self.cache_dir,
            "OCCLI_LOCALCLOUD_DIR": self.data_dir,
        }
        for key, value in entry["auth"].items():
            env["OS_" + key.upper()] = str(value)
        env["OS_REGION_NAME"] = entry.get("region_name", self.config.region)
        env["OS_INTERFACE"] = entry.get("interface", "public")
        env["OS_IDENTITY_API_VERSION"] = str(entry.get("identity_api_version", 3))
        return env

    def _full_env(self, cloud):
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        env.update(self.environ(cloud))
        return env

    @property
    def env(self):
        """A whole environment for a subprocess, as user ``demo`` (cloud
        ``local``): this process's environment without its ``OS_*``
        variables, plus :meth:`environ`. ``subprocess.run(argv,
        env=local_cloud.env)``."""
        return self._full_env("local")

    @property
    def admin_env(self):
        """:attr:`env` for user ``admin`` (cloud ``local-admin``)."""
        return self._full_env("local-admin")

    @contextlib.contextmanager
    def patch_environ(self, cloud="local"):
        """Within the block, ``os.environ`` has :meth:`environ` and no other
        ``OS_*`` variable (none of the real clouds a developer has
        configured can be reached by mistake): ``Client()``,
        ``Client(cloud="local")``, ``openstack.connect()``, ``occli`` and
        ``openstack`` subprocesses all find this cloud. Restored after."""
        saved: dict[str, str | None] = {k: v for k, v in os.environ.items() if k.startswith("OS_")}
        new = self.environ(cloud)
        for key in ("OCCLI_CACHE_DIR", "OCCLI_LOCALCLOUD_DIR"):
            saved[key] = os.environ.get(key)
        for key in list(os.environ):
            if key.startswith("OS_"):
                del os.environ[key]
        os.environ.update(new)
        try:
            yield self
        finally:
            for key in list(os.environ):
                if key.startswith("OS_"):
                    del os.environ[key]
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def session(self, cloud="local"):
        """A keystoneauth1 ``Session`` for cloud ``cloud``'s user (a
        ``devstack*`` cloud's unversioned ``auth_url`` is discovered, as
        DevStack's clouds.yaml has clients do)."""
        from keystoneauth1 import session as ks_session
        from keystoneauth1.identity import generic
        from keystoneauth1.identity import v3

        auth = dict(self.cloud_entry(cloud)["auth"])
        plugin = v3.Password if auth["auth_url"].endswith("/v3") else generic.Password
        return ks_session.Session(auth=plugin(**auth))

    def client(self, cloud="local", **kwargs):
        """An ``occli.Client`` for cloud ``cloud`` (default ``local``: user
        ``demo``, a member of project ``demo``); ``kwargs`` go to
        ``Client`` (``compute_api_version``, …). Independent of the
        environment."""
        from occli.client import Client

        entry = self.cloud_entry(cloud)
        kwargs.setdefault("region_name", entry.get("region_name", self.config.region))
        return Client(session=self.session(cloud), **kwargs)

    def admin_client(self, **kwargs):
        """:meth:`client` for user ``admin`` (cloud ``local-admin``)."""
        return self.client("local-admin", **kwargs)

    def openstack_connection(self, cloud="local", **kwargs):
        """An openstacksdk ``Connection`` to cloud ``cloud`` read from this
        cloud's clouds.yaml only (needs openstacksdk installed)."""
        from openstack import connection
        from openstack.config import loader

        config = loader.OpenStackConfig(
            config_files=[self.clouds_yaml], secure_files=[], vendor_files=[], load_envvars=False
        )
        return connection.Connection(config=config.get_one(cloud=cloud), **kwargs)

    # -- faults, timing, requests -------------------------------------------

    @property
    def faults(self):
        """The fault injector (``add(rule)``, ``rules()``, ``remove(id)``,
        ``clear()``); rules are described in the local cloud's docs."""
        return self.cloud.faults

    def add_fault(self, path, kind="status", method="*", count=1, **arg):
        """Make the next ``count`` requests whose path matches the RE2
        regex ``path`` (and ``method``, ``*`` for any) fail: ``kind``
        ``status`` (``status=503`` by default), ``delay``
        (``seconds=1``), ``close`` or ``malformed``. Returns the rule
        (with its ``id``)."""
        return self.cloud.faults.add(dict(arg, path=path, kind=kind, method=method, count=count))

    @property
    def build_time(self):
        """Seconds an operation (a build, a reboot, …) takes; 0 (the
        default here) completes it on the next read. Settable."""
        return self.config.build_time

    @build_time.setter
    def build_time(self, seconds):
        self.config.build_time = float(seconds)

    def mark(self):
        """A position in the access log, for :meth:`requests` ``since``."""
        try:
            with open(self.cloud.access_log_path, encoding="utf-8") as f:
                return sum(1 for _ in f)
        except FileNotFoundError:
            return 0

    def requests(self, since=0):
        """The requests the cloud answered (after :meth:`mark` ``since``),
        oldest first, as :class:`LoggedRequest` (``method``, ``path``,
        ``query`` — unescaped, secret values shown as ``***`` —, ``status``
        — 0 for a dropped connection —, ``seconds``, ``request_id``)."""
        try:
            with open(self.cloud.access_log_path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return []
        return [_parse_log_line(line) for line in lines[since:] if line]

    # -- seeding and state ----------------------------------------------------

    def seed_image(self, name, visibility="public", owner="admin", **fields):
        """Add an active image ``name`` (owned by project ``owner``; public
        by default) straight into the database; ``fields`` are those of
        ``occli.localcloud.image.images.create_image`` (``disk_format``,
        ``size``, ``min_disk``, ``min_ram``, ``properties``, ``image_id``,
        ``status``, …). Returns the image (Glance's shape)."""
        fields.setdefault("size", 1024)
        return self.cloud.seed_image(name, owner=owner, visibility=visibility, **fields)

    def seed_flavor(
        self,
        name,
        ram=512,
        vcpus=1,
        disk=1,
        flavor_id=None,
        ephemeral=0,
        swap=0,
        is_public=True,
        extra_specs=None,
        description=None,
    ):
        """Add a flavor straight into the database (no admin API call),
        through the local Nova's flavor rules; returns its id (the next free
        number unless ``flavor_id``)."""
        return self.cloud.seed_flavor(
            name,
            ram=ram,
            vcpus=vcpus,
            disk=disk,
            flavor_id=flavor_id,
            ephemeral=ephemeral,
            swap=swap,
            is_public=is_public,
            extra_specs=extra_specs,
            description=description,
        )

    def seed_hosts(self, count):
        """Make sure compute hosts ``host1`` … ``host<count>`` exist (each
        with its nova-compute service and hypervisor node); returns the
        compute host names."""
        return self.cloud.seed_hosts(count)

    def advance_server(self, server_id, seconds=None):
        """Move server ``server_id`` along its pending operation (a build,
        reboot, resize, …): to its end (``seconds`` None), or as if
        ``seconds`` more had passed since it started. Returns the server's
        ``(vm_state, task_state)`` afterwards."""
        return self.cloud.advance_server(server_id, seconds)


def _unescape(text):
    # the access log escapes a backslash, a space and unprintable
    # characters as Python escapes (\\, \x20, \xNN, \uNNNN, \UNNNNNNNN)
    if "\\" not in text:
        return text
    return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")


def _parse_log_line(line):
    method, target, status, seconds, request_id = line.split(" ")
    path, _, query = target.partition("?")
    return LoggedRequest(
        _unescape(method),
        _unescape(path),
        _unescape(query),
        int(status),
        float(seconds),
        request_id,
    )


class local_cloud(contextlib.ContextDecorator):
    """A fresh local cloud for a block or a test, without pytest.

    ``with local_cloud(compute_hosts=5) as cloud:`` starts one (arguments
    as :func:`start_local_cloud`), points the environment at it
    (:meth:`CloudFixture.patch_environ`) and stops it after. As a decorator
    of a function, or of every ``test*`` method of a class
    (``unittest.TestCase``), it passes the cloud as an extra last
    positional argument, as ``unittest.mock.patch`` does::

        class ServerTests(unittest.TestCase):
            @local_cloud()
            def test_boot(self, cloud):
                client = cloud.client()
    """

    def __init__(self, services=None, environ=True, **settings):
        self.services = services
        self.environ = environ
        self.settings = settings
        self._stack = []

    def __enter__(self):
        fixture = start_local_cloud(self.services, **dict(self.settings))
        stack = contextlib.ExitStack()
        stack.callback(fixture.stop)
        if self.environ:
            stack.enter_context(fixture.patch_environ())
        self._stack.append(stack)
        return fixture

    def __exit__(self, *exc):
        self._stack.pop().close()
        return False

    def __call__(self, func):
        if inspect.isclass(func):
            for name, attr in list(vars(func).items()):
                if name.startswith("test") and callable(attr):
                    setattr(func, name, self._copy()(attr))
            return func

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self._copy() as fixture:
                return func(*args, fixture, **kwargs)

        # the cloud is not the caller's to give (nor a pytest fixture)
        signature = inspect.signature(func)
        params = list(signature.parameters.values())
        if params and params[-1].kind in (
            params[-1].POSITIONAL_ONLY,
            params[-1].POSITIONAL_OR_KEYWORD,
        ):
            # typeshed's functools._Wrapped declares no __signature__, which
            # inspect.signature (and so pytest) reads on any function
            wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
                parameters=params[:-1]
            )
        return wrapper

    def _copy(self):
        return local_cloud(self.services, self.environ, **self.settings)
