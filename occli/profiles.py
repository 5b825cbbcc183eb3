"""clouds.yaml's ``profile:``: a cloud's defaults from its vendor.

As openstacksdk's ``_expand_vendor_profile``: a cloud entry naming
``profile: NAME`` (or the older ``cloud: NAME``) is merged over the
vendor's defaults (``auth_url``, regions, ``interface``,
``identity_api_version``, ``<service>_api_version``,
``<service>_endpoint_override``, …); the cloud's own keys win, ``auth``
merged key by key, and the cloud's own ``region_name``/``regions`` replace
the vendor's list. The defaults come from the first of:

1. the ``public-clouds:`` entry NAME of the first ``clouds-public.yaml``
   (``.yml``, ``.json``) found where clouds.yaml is looked for;
2. openstacksdk's own vendor files, when openstacksdk is installed (found
   without importing it);
3. occli's copy of a few of them (:mod:`occli.vendors`).

A vendor profile may name another one (``profile:`` inside it), be
deprecated (a warning) or shut down (an error), as in openstacksdk. A
profile nobody defines is a usage error (exit 2). This module is imported
only when a cloud names a profile.
"""

import glob
import json
import logging
import os

from occli import config

LOG = logging.getLogger(__name__)

#: openstacksdk's vendor directory; ``None``: found through
#: ``importlib.util.find_spec("openstack")``; ``""``: none (tests set it).
OPENSTACKSDK_VENDORS = None


class ProfileError(config.ConfigError):
    """A cloud names a vendor profile that cannot be used: a usage error."""

    exit_code = 2


def public_cloud_files(environ=None):
    """Candidate clouds-public files, first found wins (openstacksdk's
    ``VENDOR_FILES``: the directories of clouds.yaml)."""
    return config._search("clouds-public", None, config._env(environ))


def expand(cloud_name, cloud, environ=None):
    """``(settings, source)``: ``cloud`` (normalised keys) over the defaults
    of the profile it names, and the file those came from.

    :raises ProfileError: the profile is unknown, remote or shut down.
    """
    own = dict(cloud)
    name = own.pop("profile", None)
    legacy = own.pop("cloud", None)
    name = name or legacy
    if legacy and not cloud.get("profile"):
        LOG.debug("cloud %r uses the deprecated key 'cloud' for its profile", cloud_name)
    name = str(name)
    defaults, source = _public_cloud(name, environ)
    if defaults is None:
        defaults, source = _vendor(name, cloud_name)
    defaults = config._normalize(defaults)
    if "regions" in own or "region_name" in own:
        defaults.pop("regions", None)
        defaults.pop("region_name", None)
    return config._merge(defaults, own), source


def _public_cloud(name, environ):
    problems: list[str] = []
    path, data = config._first(public_cloud_files(environ), problems)
    if data is None:
        return None, None
    public = data.get("public-clouds") or {}
    if not isinstance(public, dict) or name not in public:
        return None, None
    entry = public[name]
    if not isinstance(entry, dict):
        raise ProfileError(f"public-clouds entry {name!r} in {path} is not a mapping")
    return dict(entry), path


def _vendor(name, cloud_name, nested_from=None):
    """(profile, source) of a vendor profile, following a nested ``profile``."""
    if "://" in name:
        raise ProfileError(
            f"Cloud {cloud_name!r} uses the profile {nested_from or name!r}, which is "
            f"fetched from {name}; occli does not fetch remote profiles: put its "
            "settings in clouds-public.yaml (public-clouds:) or in the cloud's entry"
        )
    found = _find_vendor(name)
    if found is None:
        known = ", ".join(sorted(_known_vendors())) or "none"
        raise ProfileError(
            f"Cloud {cloud_name!r} names the profile {name!r}, which is not defined: "
            "no clouds-public.yaml defines it under public-clouds and it is not a "
            f"known vendor profile (known: {known})"
        )
    profile, source = found
    profile = dict(profile)
    nested = profile.pop("profile", None)
    if nested:
        return _vendor(str(nested), cloud_name, nested_from=name)
    status = profile.pop("status", "active")
    message = profile.pop("message", "")
    if status == "deprecated":
        LOG.warning("The profile %s is deprecated: %s", name, message)
    elif status == "shutdown":
        raise ProfileError(
            f"Cloud {cloud_name!r} uses the profile {name!r}, which references a cloud "
            f"that no longer exists: {message}"
        )
    return profile, source


def _find_vendor(name):
    directory = _openstacksdk_vendors()
    if directory:
        for suffix in (".json", ".yaml"):
            path = os.path.join(directory, name + suffix)
            data = _vendor_file(path)
            if data and data.get("name") == name:
                return data["profile"], path
        for path, data in _vendor_files(directory):
            if data.get("name") == name:
                return data["profile"], path
    from occli import vendors

    if name in vendors.VENDORS:
        return vendors.VENDORS[name], vendors.__file__
    return None


def _known_vendors():
    from occli import vendors

    names = set(vendors.VENDORS)
    directory = _openstacksdk_vendors()
    if directory:
        names.update(data["name"] for _, data in _vendor_files(directory))
    return names


def _openstacksdk_vendors():
    """openstacksdk's ``openstack/config/vendors`` directory, or None;
    openstacksdk is not imported (``find_spec`` of a top-level package
    only locates it)."""
    if OPENSTACKSDK_VENDORS is not None:
        return OPENSTACKSDK_VENDORS or None
    import importlib.util

    try:
        spec = importlib.util.find_spec("openstack")
    except (ImportError, ValueError):
        return None
    for base in (spec and spec.submodule_search_locations) or ():
        directory = os.path.join(base, "config", "vendors")
        if os.path.isdir(directory):
            return directory
    return None


def _vendor_files(directory):
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))) + sorted(
        glob.glob(os.path.join(directory, "*.yaml"))
    ):
        data = _vendor_file(path)
        if data:
            yield path, data


def _vendor_file(path):
    """A vendor file's ``{"name", "profile"}``, or None if absent or unusable."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            if path.endswith(".json"):
                data = json.load(f)
            else:
                import yaml

                data = yaml.safe_load(f)
    except Exception as exc:  # noqa: BLE001 - OSError, JSON or YAML errors: skipped
        LOG.debug("vendor file %s skipped: %s", path, exc)
        return None
    if not (isinstance(data, dict) and isinstance(data.get("profile"), dict)):
        return None
    return data
