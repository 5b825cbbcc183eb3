"""Cloud configuration: clouds.yaml + secure.yaml, ``OS_*`` variables, options.

:func:`resolve` turns the three sources into a :class:`CloudConfig`, which
builds the keystoneauth1 auth plugin and names the token cache entry.

Precedence (lowest to highest), matching openstacksdk's
``OpenStackConfig.get_one()`` for the file/environment part:

1. **Named cloud** (``cloud`` argument, ``overrides["cloud"]`` or
   ``OS_CLOUD``): the entry from the first clouds file found, deep-merged
   with the same entry of the first secure file found.  ``OS_*`` variables
   other than the selectors (``OS_CLOUD``, ``OS_CLOUD_NAME``,
   ``OS_CLIENT_CONFIG_FILE``, ``OS_CLIENT_SECURE_FILE``) are **ignored** for
   a named cloud, exactly as openstacksdk ignores them; this includes
   ``OS_REGION_NAME``.  If no clouds/secure file defines the name, occli's
   local cloud file is consulted last.
2. **No cloud named, some** ``OS_*`` **auth/setting variables set**: the
   cloud is built from the environment alone (openstacksdk's ``envvars``
   cloud; its name is ``OS_CLOUD_NAME`` or ``envvars``); no file is read.
   ``OS_FOO_BAR`` maps to the ``foo_bar`` setting (``OS_AUTH_URL`` ->
   ``auth.auth_url``, ``OS_TENANT_NAME`` -> ``auth.project_name``,
   ``OS_ENDPOINT_TYPE`` -> ``interface``, ``OS_DOMAIN_NAME`` -> user and
   project domain when project-scoped, ...).
3. **Nothing named, no** ``OS_*``: the only cloud of the clouds file, if
   the file holds exactly one; otherwise an empty configuration.
4. **Command-line options** (``overrides``) always win, key by key, over
   whichever of the above was chosen (unlike openstacksdk, where values in a
   file's ``auth:`` section beat ``username=`` style arguments).

A cloud naming a vendor ``profile:`` (or the older ``cloud:``) is merged
over that vendor's defaults first: see :mod:`occli.profiles`. Where the
files are and how one is read and merged is :mod:`occli.clouds_yaml`'s.

``auth_type`` is taken from the winning source; when none is given it is
inferred from the highest-precedence layer that carries credentials:
application credential id/name -> ``v3applicationcredential``; a token and
no user -> ``token``; otherwise ``password``.

Nothing here imports yaml, platformdirs or keystoneauth1 at module level.
"""

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

from occli import auth_options
from occli import clouds_yaml

# Re-exported on purpose: SDK users catch ``occli.config.ConfigError``
# (resolve() and CloudConfig raise it); it lives in clouds_yaml, below
# both this module and occli.profiles.
from occli.clouds_yaml import ConfigError

if TYPE_CHECKING:
    from keystoneauth1 import loading
    from keystoneauth1 import plugin

LOG = logging.getLogger(__name__)

__all__ = [
    "CloudConfig",
    "ConfigError",
    "cloud_names",
    "config_files",
    "localcloud_file",
    "resolve",
    "secure_files",
]


#: Environment variables that only select things (openstacksdk's list).
_ENV_SELECTORS = frozenset(
    (
        "OS_CLOUD",
        "OS_REGION_NAME",
        "OS_CLIENT_CONFIG_FILE",
        "OS_CLIENT_SECURE_FILE",
        "OS_CLOUD_NAME",
    )
)
_ENV_NOT_SETTINGS = ("cloud", "cloud_name", "client_config_file", "client_secure_file")

# Options of the keystoneauth1 built-in plugins: top-level keys with these
# names belong in ``auth`` (openstacksdk moves them there once it knows the
# plugin; we need the same result without importing keystoneauth1).
_AUTH_KEYS = frozenset(auth_options.OPTIONS)

# Keys that openstacksdk's _fix_backwards_auth maps, preferring a top-level
# value over one inside ``auth``.  Values: accepted spellings.
_AUTH_ALIASES = {
    "domain_id": ("domain_id",),
    "domain_name": ("domain_name",),
    "user_domain_id": ("user_domain_id",),
    "user_domain_name": ("user_domain_name",),
    "project_domain_id": ("project_domain_id",),
    "project_domain_name": ("project_domain_name",),
    "token": ("auth_token", "token"),
    "passcode": ("passcode",),
    "project_id": ("tenant_id", "project_id"),
    "project_name": ("tenant_name", "project_name"),
}
_AUTH_ALIASES_V2 = dict(
    _AUTH_ALIASES,
    tenant_id=("project_id", "tenant_id"),
    tenant_name=("project_name", "tenant_name"),
)
del _AUTH_ALIASES_V2["project_id"], _AUTH_ALIASES_V2["project_name"]
_V2_TYPES = ("v2password", "v2token")

# Never part of identity_key(); token-like values enter it only hashed.
_SECRET_SUFFIXES = ("password", "secret", "passcode", "otp_key")
_TOKEN_KEYS = frozenset(("token", "access_token", "code"))  # hashed in the key

# Lists given as comma-separated text (openstacksdk's CSV_KEYS).
_CSV_KEYS = frozenset(("auth_methods",))

_BOOL_TRUE = frozenset(("1", "true", "yes", "on"))
_BOOL_FALSE = frozenset(("0", "false", "no", "off"))

# How a missing option can be given, for error messages.
_HINTS = {
    "auth_url": "--os-auth-url / OS_AUTH_URL",
    "username": "--os-username / OS_USERNAME",
    "password": "--os-password / OS_PASSWORD",
    "token": "--os-token / OS_TOKEN",
    "application_credential_secret": (
        "--os-application-credential-secret / OS_APPLICATION_CREDENTIAL_SECRET"
    ),
}


# --------------------------------------------------------------------------
# Where the files are


def config_files(environ: Mapping[str, str] | None = None) -> list[str]:
    """Candidate clouds files, first found wins (``OS_CLIENT_CONFIG_FILE`` first)."""
    return clouds_yaml.search("clouds", "OS_CLIENT_CONFIG_FILE", clouds_yaml.environment(environ))


def secure_files(environ: Mapping[str, str] | None = None) -> list[str]:
    """Candidate secure files, first found wins (``OS_CLIENT_SECURE_FILE`` first)."""
    return clouds_yaml.search("secure", "OS_CLIENT_SECURE_FILE", clouds_yaml.environment(environ))


def localcloud_file(environ: Mapping[str, str] | None = None) -> str:
    """clouds.yaml written by occli's local cloud (consulted last)."""
    environ = clouds_yaml.environment(environ)
    base = environ.get("OCCLI_LOCALCLOUD_DIR")
    if not base:
        from occli import userdirs

        base = os.path.join(userdirs.user_data_dir("occli"), "localcloud")
    return os.path.join(os.path.expanduser(base), "clouds.yaml")


# --------------------------------------------------------------------------
# Reading


class _Files:
    """The primary clouds+secure files, read at most once."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.problems: list[str] = []
        self.searched = config_files(environ)
        self.path, data = clouds_yaml.first(self.searched, self.problems)
        self.clouds = dict(data["clouds"]) if data else {}
        self.secure_path, secure = clouds_yaml.first(secure_files(environ), self.problems)
        self.secure_clouds = secure["clouds"] if secure else {}
        if self.secure_clouds:
            self.clouds = clouds_yaml.merge(self.clouds, self.secure_clouds)

    def sources(self, name: str) -> list[str]:
        files = [self.path] if self.path else []
        if self.secure_path and name in self.secure_clouds:
            files.append(self.secure_path)
        return files


def _env_cloud(environ: Mapping[str, str]) -> dict[str, str] | None:
    """openstacksdk's ``envvars`` cloud: every ``OS_*`` as a setting, or None.

    As openstacksdk, ``OS_TEST*``, ``OS_STD*`` and ``OS_LOG*`` are left
    out, except an auth plugin's option (``OS_LOGIN_TIMEOUT``).
    """
    keys = [
        k
        for k in environ
        if k.startswith("OS_")
        and (not k.startswith(("OS_TEST", "OS_STD", "OS_LOG")) or k[3:].lower() in _AUTH_KEYS)
    ]
    if not set(keys) - _ENV_SELECTORS:
        return None
    cloud = {}
    for k in keys:
        setting = k[3:].lower()
        if setting not in _ENV_NOT_SETTINGS and environ[k] != "":
            cloud[setting] = environ[k]
    return cloud


# --------------------------------------------------------------------------
# Massaging one layer into {"auth": {...}, other settings}


def _fix_layer(cloud: dict[str, Any], prefer_top_level: bool) -> dict[str, Any]:
    """Apply openstacksdk's magic fixes to one layer.

    Moves auth options found at top level into ``auth``, maps legacy names
    (``tenant_*``, ``auth_token``, ``*endpoint_type``, ``auth_plugin``) and
    ``api_timeout`` spellings.  For the keys in ``_AUTH_ALIASES`` a top-level
    value wins (as in openstacksdk); for other auth options the ``auth``
    section wins unless ``prefer_top_level`` (used for command-line options).
    """
    cloud = clouds_yaml.normalize(cloud)
    auth = cloud.pop("auth", None) or {}
    if not isinstance(auth, dict):
        raise ConfigError(f"'auth' must be a mapping, not {type(auth).__name__}")
    auth = dict(auth)
    out = {}
    key: str | None  # None: a key dropped
    for key, value in cloud.items():
        if key.endswith("endpoint_type"):
            key = key[: -len("endpoint_type")] + "interface"
        elif key == "auth_plugin":
            key = "auth_type" if "auth_type" not in cloud else None
        elif key == "timeout" and "api_timeout" not in cloud:
            key = "api_timeout"
        if key:
            out[key] = value
    aliases = _AUTH_ALIASES_V2 if out.get("auth_type") in _V2_TYPES else _AUTH_ALIASES
    for target, spellings in aliases.items():
        found = None
        for key in spellings:
            if key in auth:
                found = auth.pop(key)
            if key in out:
                found = out.pop(key)
        if found not in (None, ""):
            auth[target] = str(found)
    for key in [k for k in out if k in _AUTH_KEYS]:
        value = out.pop(key)
        if prefer_top_level or auth.get(key) in (None, ""):
            auth[key] = value
    out["auth"] = {k: v for k, v in auth.items() if v not in (None, "")}
    return out


def _handle_domain(config: dict[str, Any]) -> None:
    """``domain_*`` means user+project domain when project-scoped (openstacksdk)."""
    auth = config["auth"]
    scoped = "project_id" in auth or "project_name" in auth
    for generic, specific in (
        ("domain_id", ("user_domain_id", "project_domain_id")),
        ("domain_name", ("user_domain_name", "project_domain_name")),
    ):
        if not scoped:
            continue
        if generic in auth:
            for key in specific:
                auth.setdefault(key, auth[generic])
            del auth[generic]


def _credential_auth_type(auth: Mapping[str, Any]) -> str | None:
    if auth.get("application_credential_id") or auth.get("application_credential_name"):
        return "v3applicationcredential"
    if auth.get("token") and not (auth.get("username") or auth.get("user_id")):
        return "token"
    if auth.get("username") or auth.get("user_id") or auth.get("password"):
        return "password"
    return None


def _bool(value: object, key: str) -> bool | None:
    if isinstance(value, bool) or value is None:
        return value
    text = str(value).strip().lower()
    if text in _BOOL_TRUE:
        return True
    if text in _BOOL_FALSE or text == "":
        return False
    raise ConfigError(f"{key}: expected true or false, got {value!r}")


# --------------------------------------------------------------------------
# Public API


def resolve(
    cloud: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> "CloudConfig":
    """Resolve the configuration of one cloud; see the module docstring.

    :param cloud: cloud name (``--os-cloud``); falls back to
        ``overrides["cloud"]`` then ``OS_CLOUD``.
    :param overrides: command-line values with openstacksdk-style keys
        (``auth_url``, ``username``, ``region_name``, ``insecure``, ...; an
        ``auth`` dict is accepted too; ``os_`` prefixes and dashes are
        tolerated).  ``None`` or ``""`` means "not given".
    :param environ: mapping used instead of ``os.environ``.
    :raises ConfigError: the named cloud is not in any file, a file is
        malformed, or a region is not one of the cloud's regions.
    """
    environ = clouds_yaml.environment(environ)
    given = {}
    for key, value in (overrides or {}).items():
        if value is None or value == "":
            continue
        key = key.replace("-", "_")
        if key.startswith("os_"):
            key = key[3:]
        given[key] = value
    cloud = cloud or given.pop("cloud", None) or environ.get("OS_CLOUD") or None
    given.pop("cloud", None)

    env_key = environ.get("OS_CLOUD_NAME") or "envvars"
    env_cloud = _env_cloud(environ)
    sources: list[str] = []
    ignored_env: list[str] = []
    if cloud and not (cloud == env_key and env_cloud is not None):
        base, sources = _named_cloud(cloud, environ)
        name = cloud
        if env_cloud is not None:
            ignored_env = sorted("OS_" + k.upper() for k in env_cloud)
    elif env_cloud is not None:
        base, name = env_cloud, env_key
    else:
        files = _Files(environ)
        if len(files.clouds) == 1:
            name, base = next(iter(files.clouds.items()))
            sources = files.sources(name)
        else:
            name, base = "", {}
    if not isinstance(base, dict):
        raise ConfigError(f"Cloud {name!r} in {', '.join(sources)} is not a mapping")

    base = clouds_yaml.normalize(base)
    if (base.get("profile") or base.get("cloud")) not in (None, "", env_key):
        from occli import profiles  # only for a cloud naming a profile

        base, profile_source = profiles.expand(name, base, environ)
        sources = list(sources) + [profile_source]
    region_name, region_values = _pick_region(name, base, given.get("region_name"))
    base.pop("regions", None)
    base["region_name"] = region_name
    if region_values:
        base = clouds_yaml.merge(base, clouds_yaml.normalize(region_values))

    config = _fix_layer(base, prefer_top_level=False)
    explicit_type = config.get("auth_type")
    layer_type = _credential_auth_type(config["auth"])
    if given:
        top = _fix_layer(given, prefer_top_level=True)
        top_auth = top.pop("auth")
        config["auth"].update(top_auth)
        config.update(top)
        explicit_type = top.get("auth_type") or explicit_type
        layer_type = _credential_auth_type(top_auth) or layer_type
    _handle_domain(config)

    auth_type = explicit_type or layer_type or "password"
    if auth_type in ("None", "none"):
        auth_type = "none"
    elif auth_type == "token_endpoint":
        auth_type = "admin_token"
    config["auth_type"] = auth_type
    config.setdefault("interface", "public")
    if not config.get("interface"):
        config["interface"] = "public"
    if config["auth"].get("auth_url"):
        try:
            config["auth"]["auth_url"] = config["auth"]["auth_url"].format(**config)
        except (KeyError, IndexError, ValueError, AttributeError):
            pass
    cfg = CloudConfig(name, config, sources)
    cfg.ignored_env = ignored_env
    return cfg


def cloud_names(environ: Mapping[str, str] | None = None) -> list[str]:
    """The names ``--os-cloud`` takes: the clouds of the first clouds file
    (and secure file) found, and of the local cloud's file; no request."""
    environ = clouds_yaml.environment(environ)
    names = set(_Files(environ).clouds)
    local = localcloud_file(environ)
    if os.path.isfile(local):
        try:
            names.update(clouds_yaml.read(local)["clouds"])
        except (OSError, ValueError, ConfigError) as exc:
            LOG.debug("local cloud file %s skipped: %s", local, exc)
    return sorted(str(name) for name in names)


def _named_cloud(name: str, environ: Mapping[str, str]) -> tuple[object, list[str]]:
    """(settings, source files) for a named cloud, localcloud file last."""
    files = _Files(environ)
    if name in files.clouds:
        return files.clouds[name], files.sources(name)
    searched = list(files.searched)
    local = localcloud_file(environ)
    same = files.path is not None and os.path.realpath(files.path) == os.path.realpath(local)
    if local not in searched:
        searched.append(local)
    problems = files.problems
    local_names = []
    if os.path.isfile(local) and not same:
        try:
            data = clouds_yaml.read(local)
        except (OSError, ValueError) as exc:
            problems.append(f"{local}: {exc}")
        else:
            if name in data["clouds"]:
                return data["clouds"][name], [local]
            local_names = sorted(data["clouds"])
    known = sorted(files.clouds)
    where = []
    if files.path:
        where.append(f"{files.path} (it defines: {', '.join(known) or 'no clouds'})")
    if local_names:
        where.append(f"the local cloud's {local} (it defines: {', '.join(local_names)})")
    msg = f"Cloud {name!r} was not found"
    if where:
        msg += " in " + " or in ".join(where)
    choices = sorted(set(known) | set(local_names))
    if choices:
        msg += ". Use --os-cloud with one of: " + ", ".join(choices)
    else:
        msg += ". No clouds.yaml defines any cloud"
    msg += ". Searched: " + ", ".join(searched)
    if problems:
        msg += ". Skipped: " + "; ".join(problems)
    raise ConfigError(msg)


def _pick_region(
    name: str, cloud: Mapping[str, Any], requested: str | None
) -> tuple[str, dict[str, Any]]:
    """(region name, region-specific values) as openstacksdk's _get_region.

    Unlike openstacksdk, a requested region is checked only against an
    explicit ``regions`` list: a plain ``region_name`` is a default that
    ``--os-region-name`` may replace.
    """
    regions = cloud.get("regions")
    if regions is None:
        configured = cloud.get("region_name")
        if isinstance(configured, list):
            regions = configured
        elif configured:
            regions = [r.strip() for r in str(configured).split(",")]
        if requested:
            return requested, {}
    if not regions:
        return requested or "", {}
    expanded = []
    for region in regions:
        if isinstance(region, dict):
            if "name" not in region or not set(region) <= {"name", "values"}:
                raise ConfigError(f"Invalid region entry in cloud {name!r}: {region}")
            expanded.append((str(region["name"]), region.get("values") or {}))
        else:
            expanded.append((str(region), {}))
    if not requested:
        return expanded[0]
    for region, values in expanded:
        if region == requested:
            return region, values
    raise ConfigError(
        f"Region {requested} is not a valid region name for cloud {name!r}. "
        f"Valid choices are {', '.join(r for r, _ in expanded)}. "
        "Region names are case sensitive."
    )


class CloudConfig:
    """The resolved settings of one cloud.

    ``auth`` holds the auth plugin options; ``config`` every resolved
    setting (including ones occli has no attribute for, e.g.
    ``compute_endpoint_override``), also reachable through :meth:`get`.
    """

    def __init__(
        self, name: str, config: dict[str, Any], source_files: Iterable[str] = ()
    ) -> None:
        self.name = name
        self.config = config
        self.source_files = list(source_files)
        #: OS_* variables set but ignored because a cloud was named.
        self.ignored_env: list[str] = []
        self.auth: dict[str, Any] = config["auth"]
        self.auth_type: str = config["auth_type"]
        self.region_name = config.get("region_name") or None
        self.interface = config.get("interface") or "public"
        self.compute_api_version = _str_or_none(config.get("compute_api_version"))
        self.identity_api_version = _str_or_none(config.get("identity_api_version"))
        timeout = config.get("api_timeout")
        try:
            self.api_timeout = float(timeout) if timeout not in (None, "") else None
        except (TypeError, ValueError):
            raise ConfigError(f"api_timeout: expected a number, got {timeout!r}") from None
        self.verify, self.cert = self._tls()

    @property
    def is_localcloud(self) -> bool:
        """Whether this cloud was read from the clouds.yaml occli's local
        cloud writes (:func:`localcloud_file`): errors then advise checking
        it with ``occli-localcloud status``."""
        try:
            local = localcloud_file()
        except Exception:  # noqa: BLE001 - no advice rather than an error
            return False
        return local in self.source_files

    def _tls(self) -> tuple[bool | str, str | tuple[str, str] | None]:
        """(verify, cert) for requests, as openstacksdk get_requests_verify_args."""
        c = self.config
        verify = c.get("verify", True)
        if isinstance(verify, str) and verify.strip().lower() in _BOOL_TRUE | _BOOL_FALSE:
            verify = _bool(verify, "verify")
        if _bool(c.get("insecure", False), "insecure"):
            verify = False
        cacert = c.get("cacert")
        if verify and cacert:
            verify = os.path.expanduser(cacert)
        cert = c.get("cert")
        if cert:
            cert = os.path.expanduser(cert)
            if c.get("key"):
                cert = (cert, os.path.expanduser(c["key"]))
        return verify, cert or None

    def get(self, key: str, default: Any = None) -> Any:
        """Any resolved setting by its openstacksdk name."""
        return self.config.get(key, default)

    def masked_auth(self) -> dict[str, Any]:
        """The auth options with passwords, secrets and tokens as ``***``."""
        return {
            k: ("***" if _is_secret(k) or k in _TOKEN_KEYS else v) for k, v in self.auth.items()
        }

    def __repr__(self) -> str:
        auth = self.masked_auth()
        return (
            f"CloudConfig(name={self.name!r}, auth_type={self.auth_type!r}, "
            f"auth={auth!r}, region_name={self.region_name!r}, "
            f"interface={self.interface!r})"
        )

    def auth_plugin(self) -> "plugin.BaseAuthPlugin":
        """Build the keystoneauth1 auth plugin for ``auth_type``.

        Options unknown to the plugin are dropped; a plugin option missing
        from ``auth`` is also looked for among the top-level settings (for
        third-party plugins).  :raises ConfigError: unknown plugin or
        missing required options.
        """
        from keystoneauth1 import exceptions as ksa_exc

        loader = self._loader()
        kwargs = self.auth_kwargs(loader)
        missing = [
            opt.dest for opt in loader.get_options() if opt.required and opt.dest not in kwargs
        ]
        missing += self._semantic_missing(kwargs)
        if missing:
            raise ConfigError(self._missing_message(missing))
        try:
            return loader.load_from_options(**kwargs)
        except ksa_exc.MissingRequiredOptions as exc:
            raise ConfigError(self._missing_message([o.dest for o in exc.options])) from None
        except (ksa_exc.OptionError, TypeError, ValueError) as exc:
            raise ConfigError(f"Invalid {self.auth_type!r} auth options: {exc}") from None

    def _loader(self) -> "loading.BaseLoader[Any]":
        from keystoneauth1 import exceptions as ksa_exc
        from keystoneauth1 import loading

        try:
            return loading.get_plugin_loader(self.auth_type)
        except ksa_exc.NoMatchingPlugin:
            raise ConfigError(
                f"Unknown auth type {self.auth_type!r}; available: "
                + ", ".join(sorted(loading.get_available_plugin_names()))
            ) from None

    def auth_kwargs(self, loader: "loading.BaseLoader[Any] | None" = None) -> dict[str, Any]:
        """The keyword arguments the ``auth_type`` plugin is built with.

        Each option of the plugin's loader, by its name, deprecated names
        or ``dest``, from ``auth`` then the top-level settings, converted
        to the option's type (``auth_methods`` split at commas).
        """
        kwargs = {}
        for opt in (loader or self._loader()).get_options():
            value = self._option_value(opt)
            if value is None:
                continue
            if isinstance(value, str) and opt.type in (bool, int, float):
                try:
                    value = _bool(value, opt.dest) if opt.type is bool else opt.type(value)
                except ValueError:
                    raise ConfigError(
                        f"{opt.name}: expected {opt.type.__name__}, got {value!r}"
                    ) from None
            if opt.dest in _CSV_KEYS and isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            kwargs[opt.dest] = value
        return kwargs

    def _option_value(self, opt: "loading.Opt") -> object:
        names = [opt.dest] + [o.name.replace("-", "_") for o in opt.deprecated]
        names.append(opt.name.replace("-", "_"))
        for source in (self.auth, self.config):
            for name in names:
                value = source.get(name)
                if value not in (None, "") and not isinstance(value, dict):
                    return value
        return None

    def _semantic_missing(self, kwargs: Mapping[str, Any]) -> list[str]:
        """Options keystoneauth does not mark required but the method needs."""
        missing = []
        if self.auth_type in ("password", "v3password", "v2password", "v3totp"):
            if not (kwargs.get("username") or kwargs.get("user_id")):
                missing.append("username")
            if self.auth_type != "v3totp" and not kwargs.get("password"):
                missing.append("password")
        elif self.auth_type in ("token", "v3token", "v2token"):
            if not kwargs.get("token"):
                missing.append("token")
        elif self.auth_type == "v3applicationcredential":
            if kwargs.get("application_credential_id"):
                pass
            elif not kwargs.get("application_credential_name"):
                missing.append("application_credential_id")
            elif not (kwargs.get("username") or kwargs.get("user_id")):
                missing.append("username")
        return [m for m in missing if m not in kwargs]

    def _missing_message(self, missing: Sequence[str]) -> str:
        where = f"cloud {self.name!r}" if self.name else "the configuration"
        if self.source_files:
            where += f" ({', '.join(self.source_files)})"
        hints = []
        for dest in dict.fromkeys(missing):
            flag = dest.replace("_", "-")
            hints.append(f"{dest} ({_HINTS.get(dest, f'--os-{flag} / OS_{dest.upper()}')})")
        msg = (
            f"Auth type {self.auth_type!r} needs {', '.join(hints)}, "
            f"which {where} does not provide"
        )
        ignored = [f"OS_{d.upper()}" for d in missing if f"OS_{d.upper()}" in self.ignored_env]
        if ignored:
            msg += (
                f". {', '.join(ignored)} is set but ignored because a cloud is "
                "named (as in openstacksdk): use secure.yaml or the command-line option"
            )
        return msg

    def identity_key(self) -> str:
        """SHA-256 hex naming this identity's token cache entry.

        Covers auth_type, every non-secret auth option (auth_url, user,
        domains, project/domain/system scope, trust, application credential
        id...), region and interface.  Passwords, secrets and passcodes are
        left out, so changing only the password reuses the cached token
        until it expires; tokens enter only as their SHA-256.
        """
        data = json.dumps(self._identity(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(data.encode()).hexdigest()

    def _identity(self) -> dict[str, Any]:
        """The document :meth:`identity_key` hashes: no secret in clear."""
        ident = {}
        for key, value in self.auth.items():
            if value in (None, ""):
                continue
            if key in _TOKEN_KEYS:
                value = hashlib.sha256(str(value).encode()).hexdigest()
            elif _is_secret(key):
                continue
            elif key == "auth_url":
                value = str(value).rstrip("/")
            ident[key] = value
        return {
            "v": 1,
            "auth_type": self.auth_type,
            "auth": ident,
            "region_name": self.region_name or "",
            "interface": self.interface,
        }


def _is_secret(key: str) -> bool:
    return key in auth_options.SECRET or key.endswith(_SECRET_SUFFIXES)


def _str_or_none(value: object) -> str | None:
    return None if value in (None, "") else str(value)
