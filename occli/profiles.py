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
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import clouds_yaml

LOG = logging.getLogger(__name__)

#: openstacksdk's vendor directory; ``None``: found through
#: ``importlib.util.find_spec("openstack")``; ``""``: none (tests set it).
OPENSTACKSDK_VENDORS: str | None = None


class ProfileError(clouds_yaml.ConfigError):
    """A cloud names a vendor profile that cannot be used: a usage error."""

    exit_code = 2


def public_cloud_files(environ: Mapping[str, str] | None = None) -> list[str]:
    """Candidate clouds-public files, first found wins (openstacksdk's
    ``VENDOR_FILES``: the directories of clouds.yaml)."""
    return clouds_yaml.search("clouds-public", None, clouds_yaml.environment(environ))


def expand(
    cloud_name: str, cloud: Mapping[str, Any], environ: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], str]:
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
    found = _public_cloud(name, environ)
    defaults, source = found if found is not None else _vendor(name, cloud_name)
    defaults = clouds_yaml.normalize(defaults)
    if "regions" in own or "region_name" in own:
        defaults.pop("regions", None)
        defaults.pop("region_name", None)
    return clouds_yaml.merge(defaults, own), source


def _public_cloud(
    name: str, environ: Mapping[str, str] | None
) -> tuple[dict[str, Any], str] | None:
    """(entry, source) of ``name`` under ``public-clouds:`` of the first
    clouds-public file, or None."""
    problems: list[str] = []
    path, data = clouds_yaml.first(public_cloud_files(environ), problems)
    if path is None or data is None:
        return None
    public = data.get("public-clouds") or {}
    if not isinstance(public, dict) or name not in public:
        return None
    entry = public[name]
    if not isinstance(entry, dict):
        raise ProfileError(f"public-clouds entry {name!r} in {path} is not a mapping")
    return dict(entry), path


def _vendor(
    name: str, cloud_name: str, nested_from: str | None = None
) -> tuple[dict[str, Any], str]:
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


def _find_vendor(name: str) -> tuple[dict[str, Any], str] | None:
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


def _known_vendors() -> set[str]:
    from occli import vendors

    names = set(vendors.VENDORS)
    directory = _openstacksdk_vendors()
    if directory:
        names.update(data["name"] for _, data in _vendor_files(directory))
    return names


def _openstacksdk_vendors() -> str | None:
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


def _vendor_files(directory: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))) + sorted(
        glob.glob(os.path.join(directory, "*.yaml"))
    ):
        data = _vendor_file(path)
        if data:
            yield path, data


def _vendor_file(path: str) -> dict[str, Any] | None:
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
