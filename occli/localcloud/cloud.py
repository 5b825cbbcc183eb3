"""LocalCloud: the configuration, store and services of one local cloud."""

import dataclasses
import logging
import os
import re
import shutil
import sqlite3
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote_plus

import yaml

from occli.localcloud import app as wsgi_app
from occli.localcloud import registry
from occli.localcloud.store import Store

LOG = logging.getLogger("occli.localcloud")


@dataclasses.dataclass
class Config:
    data_dir: str
    host: str = "127.0.0.1"
    port: int = 8775
    compute_hosts: int = 3
    build_time: float = 2.0
    # seconds a live migration stays running (0: as long as a build); a
    # long one can be aborted or forced to complete
    live_migration_time: float = 0.0
    token_ttl: int = 3600
    # keystone's [security_compliance] lockout_failure_attempts: failed
    # password logins in a row that lock a user (None: never, keystone's
    # default) for lockout_duration seconds (None: until an admin updates it)
    lockout_failure_attempts: int | None = None
    lockout_duration: int | None = 1800
    # threads (per process, besides ``threads``) serving the slow routes
    # (password hashing, Heat's template validation): at most this many run
    # at once, and a flood of them never takes a thread from token holders
    slow_threads: int = 2
    admin_password: str = dataclasses.field(default="admin-secret", repr=False)
    demo_password: str = dataclasses.field(default="demo-secret", repr=False)
    alt_password: str = dataclasses.field(default="alt-secret", repr=False)
    region: str = "RegionOne"
    faults: list = dataclasses.field(default_factory=list)
    threads: int = 8
    # processes serving (serve --workers N); each has ``threads`` threads
    workers: int = 1
    # nova's [quota] instances, cores and ram per project (-1: unlimited),
    # nova's defaults; an admin's quota set or default class overrides them
    quota_instances: int = 10
    quota_cores: int = 20
    quota_ram: int = 51200
    # servers one create may make (its chunks of servers.CREATE_CHUNK each
    # hold the write lock a few ms; 1000 servers take ~0.2 s in all)
    max_servers_per_request: int = 1000
    # nova's [DEFAULT] reclaim_instance_interval (seconds): above 0 a
    # deleted server is SOFT_DELETED (restorable) until reclaimed
    reclaim_instance_interval: float = 0.0
    # nova's [DEFAULT] shelved_offload_time: 0 (nova's default) offloads a
    # shelved server at once, -1 never (no periodic task here: >0 is -1)
    shelved_offload_time: float = 0.0
    # nova's [DEFAULT] allow_resize_to_same_host: False (nova's default)
    # makes a resize move to another host (NoValidHost when none fits)
    allow_resize_to_same_host: bool = False
    # cinder's [DEFAULT] enable_force_upload: False (cinder's default)
    # ignores os-volume_upload_image's force, so an in-use volume is refused
    enable_force_upload: bool = False
    # Swift's [swift-constraints] max_file_size: the largest object (bytes
    # are streamed to a file, never held whole); the HTTP server refuses
    # larger bodies before buffering them
    max_object_size: int = 5 * 1024**3 + 2
    # each Swift account's quotas where its X-Account-Quota-Bytes /
    # -Count (set by the admin, Swift's reseller) say nothing: bytes
    # stored and objects (-1: unlimited, Swift's default; a laptop's
    # disk is not a cluster's)
    object_quota_bytes: int = 1024**3
    object_quota_count: int = 100000
    # heat's plugin_dirs: directories whose modules add resource types
    # (each module's available_resource_mapping()/resource_mapping())
    heat_plugin_dirs: list = dataclasses.field(default_factory=list)
    # heat's environment_dir: its *.yaml/*.json files are the global
    # environment every stack's environment is layered over
    heat_environment_dir: str | None = None
    # Heat's engine: worker threads stepping stack actions (heat's
    # num_engine_workers), seconds between two checks of a stack's running
    # resources, and heat's enable_stack_abandon / enable_stack_adopt
    # (off in heat; on here, as an operator enables them for tests)
    heat_engine_workers: int = 4
    heat_engine_tick: float = 0.05
    heat_enable_stack_abandon: bool = True
    heat_enable_stack_adopt: bool = True
    # Heat's default_deployment_signal_transport and
    # default_software_config_transport, set to transports this cloud serves
    heat_default_deployment_signal_transport: str = "TEMP_URL_SIGNAL"
    heat_default_software_config_transport: str = "POLL_TEMP_URL"
    # the simulated in-server agent (orchestration.engine.agent) signals the
    # deployments of every ACTIVE server (a server's metadata key
    # "occli-simulated-agent": "true"/"false" overrides it per server);
    # heat_agent_rules: a YAML/JSON file of per-deployment results
    heat_simulated_agent: bool = False
    heat_agent_rules: str | None = None
    # whether a server may opt into the agent through its metadata when
    # heat_simulated_agent is off (the agent then reads each in-progress
    # deployment's server from Nova every tick); False: with the switch
    # off, no agent runs and nothing polls Nova in the background
    heat_agent_opt_in: bool = True
    # False: the database is never fsynced (SQLite's synchronous=OFF), for
    # a throwaway cloud whose data dir goes with it (occli.testing's); a
    # crash of the machine may then lose or corrupt it
    durable: bool = True
    # what the first start seeds (SEED_PROFILES): "default" (occli's
    # projects, images and a shared private network) or "devstack" (what
    # DevStack's stack.sh leaves with its default local.conf)
    seed: str = "default"


# the registered services' names, in creation order (occli.localcloud.registry)
SERVICE_NAMES = registry.names()
# the seed profiles (Config.seed)
SEED_PROFILES = ("default", "devstack")
# Every file the local cloud writes in its data directory (the directory is
# 0700 and these 0600, whatever they were before: tokens, hashes and the
# passwords in clouds.yaml are in them)
DATA_FILES = (
    "cloud.db",
    "cloud.db-wal",
    "cloud.db-shm",
    "access.log",
    "clouds.yaml",
    "endpoint",
    "localcloud.pid",
    "localcloud.log",
)
# access-log query parameters whose values are secrets (temp URL signatures,
# tokens, …): logged as ***
_SECRET_PARAM = re.compile(r"sig|token|secret|passw|credential|key$", re.I)
# what the access log escapes: backslash, space (the field separator) and
# anything not printable (control characters, NUL, line separators, lone
# surrogates) so a request cannot forge or split log lines
_LOG_UNSAFE = re.compile(r"[\\\s]|[^\x21-\x7e]")


def service_classes(names: Iterable[str] | None = None) -> list[type]:
    """The classes of the registered services ``names`` (default: all), in
    creation order. Each is imported on first use, so a subset needs only
    its own modules."""
    known = registry.names()
    wanted = known if names is None else tuple(names)
    unknown = set(wanted) - set(known)
    if unknown:
        raise ValueError(
            "unknown services: %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(known))
        )
    return registry.creation_order(
        [registry.service_class(name) for name in known if name in wanted]
    )


def default_services() -> list[type]:
    """The service classes of a full local cloud, in creation order."""
    return service_classes()


def with_requirements(classes):
    """``classes`` and, before the first class needing them, the services
    a class names in its ``requires`` (compute needs network) that are
    not among them."""
    names = {cls.name for cls in classes}
    result = []
    for cls in classes:
        missing = [n for n in getattr(cls, "requires", ()) if n not in names]
        if missing:
            result += service_classes(missing)
            names.update(missing)
        result.append(cls)
    return result


def migration_components(svc) -> list[tuple[str, list]]:
    """``svc.migrations()``: its ``(component, steps)`` pairs, applied in
    order (one shape for every service; see ``Service.migrations``).

    Anything else (a bare list of steps, a dict) is a TypeError, so a
    service cannot skip naming its components.
    """
    components = []
    for pair in svc.migrations():
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
            raise TypeError(
                "%s.migrations() must return (component, steps) pairs, not %r"
                % (type(svc).__name__, pair)
            )
        components.append((pair[0], list(pair[1])))
    return components


class LocalCloud:
    """Holds everything one running local cloud needs.

    Services are created in the registry's order
    (:mod:`occli.localcloud.registry`); then each one's migrations are
    applied (see :func:`migration_components`) and each one may seed data
    through ``seed(db)``. ``services``
    (a list of classes taking the cloud) replaces :func:`default_services`,
    e.g. to test some services without the others. The fault-injection
    admin API (``/localcloud``) is always mounted. Services are reachable as
    attributes named after ``svc.name`` (``cloud.identity``,
    ``cloud.compute``, …); a registered service not mounted is ``None``.

    ``template`` (the path of a database written by :meth:`save_template`)
    is copied as the database of a data directory that has none; when the
    copy is at every component's latest migration it is used as it is:
    no migration, no seed (``occli.testing`` starts a cloud per test so).
    A cloud starting up replaces the fault rules in the database with
    ``config.faults``.

    ``attach``: open a database another LocalCloud already migrated and
    seeded (a worker process of ``serve --workers N``): no migration, no
    seed, the fault rules left as they are.
    """

    #: the identity service, which authenticates requests: an attribute
    #: set in __init__, as every service's is
    identity: Any

    def __init__(self, config, services=None, template=None, attach=False):
        from occli.localcloud import faults

        if config.seed not in SEED_PROFILES:
            raise ValueError(
                "unknown seed profile %s (known: %s)" % (config.seed, ", ".join(SEED_PROFILES))
            )
        self.config = config
        make_private_dir(config.data_dir)
        db_path = os.path.join(config.data_dir, "cloud.db")
        copied = template is not None and not os.path.exists(db_path)
        if copied:
            _copy_template(template, db_path)
        self.store = Store(db_path, durable=config.durable)
        self.faults = faults.FaultInjector(self.store)
        self._log_lock = threading.Lock()
        #: what :meth:`write_client_config` last wrote to clouds.yaml (a
        #: dict; None before), for who would parse it again (occli.testing)
        self.client_config: dict | None = None
        classes = with_requirements(default_services() if services is None else services)
        self.service_classes = classes
        self.services = [cls(self) for cls in classes]
        self.services.append(faults.AdminService(self))
        for name in registry.names():
            setattr(self, name, None)
        for svc in self.services:
            setattr(self, svc.name.replace("-", "").replace("_", ""), svc)
        if not attach and not (copied and self._migrated()):
            for svc in self.services:
                for component, steps in migration_components(svc):
                    self.store.migrate(component, steps)
            with self.store.transaction() as db:
                for svc in self.services:
                    seed = getattr(svc, "seed", None)
                    if seed:
                        seed(db)
        if not attach:
            self.faults.reset(config.faults)
        self.wsgi = wsgi_app.Application(self, self.services)

    def _migrated(self):
        """Whether every component of every service is at its latest
        migration (a template copy made by this code is). Asked on the
        connection the store opened (opening another one parses the whole
        schema again: most of a millisecond), in one query."""
        versions = self.store.versions()
        return all(
            versions.get(component, 0) == len(steps)
            for svc in self.services
            for component, steps in migration_components(svc)
        )

    def save_template(self, path):
        """Write a consistent copy of this cloud's database to ``path``
        (0600; SQLite's backup API, so the cloud may be serving meanwhile).

        ``LocalCloud(config, services, template=path)`` then starts from
        that copy instead of migrating and seeding (milliseconds instead of
        the scrypt hashes of the seeded users): same ``services`` and the
        same seeded settings (passwords, ``compute_hosts``) as this cloud.
        """
        tmp = "%s.%d.tmp" % (path, os.getpid())
        os.close(os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600))
        try:
            source = sqlite3.connect(self.store.path)
            target = sqlite3.connect(tmp)
            if not self.config.durable:
                target.execute("PRAGMA synchronous=OFF")
            try:
                source.backup(target)
            finally:
                target.close()
                source.close()
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    @property
    def access_log_path(self):
        return os.path.join(self.config.data_dir, "access.log")

    @property
    def clouds_yaml_path(self):
        return os.path.join(self.config.data_dir, "clouds.yaml")

    @property
    def endpoint_path(self):
        return os.path.join(self.config.data_dir, "endpoint")

    def authenticate(self, req):
        """Validate X-Auth-Token, returning a Context, or raise 401.

        A call Heat's engine makes in process carries its stack's trust id
        in the environ (``engine.clients.TRUST_KEY``; no HTTP request can
        set an environ key that is not a header), resolved by Keystone as a
        token scoped to that trust; a stack stored before Heat's trusts
        carries its delegated Context instead.
        """
        trusted = req.environ.get("occli.trust")
        if isinstance(trusted, str):
            from occli.localcloud.identity import stack_trusts

            return wsgi_app.Context(**stack_trusts.trust_context(req.db, trusted))
        if isinstance(trusted, wsgi_app.Context):
            return trusted
        return self.identity.context_from_request(req)

    def write_client_config(self, url):
        """Write ``clouds.yaml`` (mode 0600) and ``endpoint`` for ``url``.

        ``url`` is the root URL clients use, e.g. ``http://127.0.0.1:8775``.
        """
        cfg = self.config
        # the second project's user: devstack's alt_demo in its profile
        alt = "alt_demo" if cfg.seed == "devstack" else "alt"
        clouds = {
            "local": _cloud_entry(url, "demo", cfg.demo_password, "demo", cfg.region),
            "local-admin": _cloud_entry(url, "admin", cfg.admin_password, "admin", cfg.region),
            "local-alt": _cloud_entry(url, alt, cfg.alt_password, alt, cfg.region),
            # the admin's system scope, as devstack's devstack-system-admin
            "local-system-admin": _system_entry(url, "admin", cfg.admin_password, cfg.region),
            # the names and shapes devstack's write_clouds_yaml writes
            "devstack": _devstack_entry(url, "demo", cfg.demo_password, "demo", cfg.region),
            "devstack-admin": _devstack_entry(
                url, "admin", cfg.admin_password, "admin", cfg.region
            ),
            "devstack-alt": _devstack_entry(url, alt, cfg.alt_password, alt, cfg.region),
            "devstack-system-admin": _devstack_entry(
                url, "admin", cfg.admin_password, None, cfg.region
            ),
        }
        # devstack's section for openstacksdk's functional tests: the image
        # they boot (its DEFAULT_IMAGE_NAME, the seeded cirros)
        from occli.localcloud.image import images

        seeded = images.DEVSTACK_IMAGES if cfg.seed == "devstack" else images.SEED_IMAGES
        functional = {"image_name": seeded[0][0]}
        self.client_config = {"clouds": clouds, "functional": functional}
        # libyaml's dumper when there is one: the same text, ~6x faster
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        _write_private(
            self.clouds_yaml_path, yaml.dump(self.client_config, Dumper=dumper, sort_keys=False)
        )
        _write_private(self.endpoint_path, url + "\n")

    def log_request(self, req, status, seconds):
        """Append one access-log line (format in doc/localcloud-internals.md)."""
        line = "%s %s%s %d %.4f %s\n" % (
            _log_text(req.method),
            _log_text(req.path),
            "?" + _log_query(req.query_string) if req.query_string else "",
            status,
            seconds,
            req.request_id,
        )
        # one os.write of the line, without a file object's buffers (its
        # set-up was most of this method's cost on every request)
        data = line.encode("utf-8")
        with self._log_lock:
            fd = os.open(self.access_log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.fchmod(fd, 0o600)
                os.write(fd, data)
            finally:
                os.close(fd)

    def log_exception(self, req):
        LOG.exception("unhandled error in %s %s (%s)", req.method, req.path, req.request_id)

    def close(self):
        """Stop what services run (Heat's engine threads), then release the
        database connections."""
        for svc in self.services:
            close = getattr(svc, "close", None)
            if close is not None:
                close()
        self.store.close()

    # -- seeding and advancing (occli.testing): the services' rules, no request

    def seed_image(
        self, name: str, owner: str = "admin", visibility: str = "public", **fields: Any
    ) -> dict:
        """Add image ``name`` through Glance's rules, owned by project
        ``owner`` (a project name, else taken as an id); ``fields`` are
        those of :func:`occli.localcloud.image.images.create_image`. Returns
        the image (Glance's view)."""
        from occli.localcloud.identity import projects
        from occli.localcloud.image import images

        with self.store.transaction() as db:
            owner_id = projects.project_id(db, owner) or owner
            return images.create_image(db, name, owner_id, visibility=visibility, **fields)

    def seed_flavor(
        self,
        name: str,
        ram: int = 512,
        vcpus: int = 1,
        disk: int = 1,
        flavor_id: str | None = None,
        ephemeral: int = 0,
        swap: int = 0,
        is_public: bool = True,
        extra_specs: dict[str, str] | None = None,
        description: str | None = None,
    ) -> str:
        """Add a flavor through Nova's flavor rules (the next free number
        as its id unless ``flavor_id``), with ``extra_specs``; returns its
        id."""
        from occli.localcloud.compute import flavors

        with self.store.transaction() as db:
            row = flavors.create(
                db,
                name,
                ram,
                vcpus,
                disk,
                flavor_id=flavors.next_number(db) if flavor_id is None else flavor_id,
                ephemeral=ephemeral,
                swap=swap,
                is_public=is_public,
                description=description,
            )
            if extra_specs:
                flavors.set_extra_specs(db, row, extra_specs)
        return row["id"]

    def seed_hosts(self, count: int) -> list[str]:
        """Make sure compute hosts ``host1`` … ``host<count>`` exist, each
        with its nova-compute service and hypervisor node; returns every
        compute host's name."""
        from occli.localcloud.compute import hosts

        with self.store.transaction() as db:
            hosts.seed(db, count)
            return hosts.compute_hosts(db)

    def advance_server(
        self, server_id: str, seconds: float | None = None
    ) -> tuple[str, str | None]:
        """Move live server ``server_id`` along its pending operation (a
        build, reboot, resize, …): to its end (``seconds`` None), or as if
        ``seconds`` more had passed since it started, the whole operation
        taking ``config.build_time``. Returns its ``(vm_state,
        task_state)`` afterwards; LookupError if there is no such server."""
        import types

        from occli.localcloud.compute import server_rows
        from occli.localcloud.compute import states

        if seconds is not None:
            with self.store.transaction() as db:
                server_rows.hurry(db, server_id, seconds)
        build_time = self.config.build_time if seconds is not None else 0
        progress = states.Progress(self.store, types.SimpleNamespace(build_time=build_time))
        progress.advance([self._live_server(server_id)])
        server = self._live_server(server_id)
        return server["vm_state"], server["task_state"]

    def _live_server(self, server_id: str) -> dict:
        from occli.localcloud.compute import server_rows

        with self.store.read() as db:
            server = server_rows.live(db, server_id)
        if server is None:
            raise LookupError("no server %s" % server_id)
        return server


def _cloud_entry(url, user, password, project, region):
    return {
        "auth": {
            "auth_url": url + "/v3",
            "username": user,
            "password": password,
            "project_name": project,
            "user_domain_name": "Default",
            "project_domain_name": "Default",
        },
        "region_name": region,
        "interface": "public",
        "identity_api_version": 3,
    }


def _system_entry(url, user, password, region):
    """A clouds.yaml entry scoped to the system (``system_scope: all``)."""
    entry = _cloud_entry(url, user, password, None, region)
    for key in ("project_name", "project_domain_name"):
        del entry["auth"][key]
    entry["auth"]["system_scope"] = "all"
    return entry


def _devstack_entry(url, user, password, project, region):
    """A clouds.yaml entry as devstack's tools/update_clouds_yaml.py writes
    it: the unversioned identity URL, domains by id, no interface or
    identity_api_version; scoped to ``project``, else to the system."""
    auth = {
        "auth_url": url,
        "username": user,
        "user_domain_id": "default",
        "password": password,
    }
    if project is None:
        auth["system_scope"] = "all"
    else:
        auth["project_name"] = project
        auth["project_domain_id"] = "default"
    return {"region_name": region, "auth": auth}


def make_private_dir(path):
    """Create ``path`` (0700) or make an existing one 0700, and make the
    local cloud's files in it (:data:`DATA_FILES`) 0600."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
    for name in DATA_FILES:
        file_path = os.path.join(path, name)
        if os.path.isfile(file_path) and not os.path.islink(file_path):
            os.chmod(file_path, 0o600)


def _copy_template(template, db_path):
    """Copy the database ``template`` to ``db_path`` (0600), first removing
    any ``-wal``/``-shm`` left beside ``db_path`` (SQLite would apply a
    stale WAL to the copy)."""
    for suffix in ("-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.unlink(db_path + suffix)
    with open(template, "rb") as src, open_private(db_path, "wb") as dst:
        shutil.copyfileobj(src, dst)


def open_private(path, mode):
    """``open(path, mode)`` ("a" or "w", text or binary), creating the file
    0600 (and making an existing one 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode.startswith("a") else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, mode)


def _log_text(text):
    return _LOG_UNSAFE.sub(_log_escape, text)


def _log_escape(match):
    char = match.group()
    if char == "\\":
        return "\\\\"
    if char != " " and char.isprintable():
        return char
    code = ord(char)
    if code <= 0xFF:
        return "\\x%02x" % code
    return "\\u%04x" % code if code <= 0xFFFF else "\\U%08x" % code


def _log_query(query):
    """The raw query string with secret values masked, then escaped."""
    pairs = []
    for pair in query.split("&"):
        name, sep, _ = pair.partition("=")
        if sep and _SECRET_PARAM.search(unquote_plus(name)):
            pair = name + "=***"
        pairs.append(pair)
    return _log_text("&".join(pairs))


def _write_private(path, text):
    """Atomically replace ``path`` with ``text``, readable by the owner only."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open_private(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
