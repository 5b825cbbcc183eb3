"""Custom constraints (``custom_constraint: nova.flavor`` …) as Heat checks them.

Heat registers these under the ``heat.constraints`` entry points (its
``setup.cfg``): the service ones look the value up through a client plugin
(``heat/engine/clients/os/{nova,glance,cinder}.py``,
``neutron/neutron_constraints.py``), the common ones parse it
(``heat/engine/constraint/common_constraints.py``). Here a service lookup
is a GET of the local service through the engine's in-process
:class:`~.clients.Clients` (by the stack owner, so another project's
private flavor or image is not found), and a refusal is Heat's
``BaseCustomConstraint.error`` text: ``Error validating value 'x': <the
lookup's message>``.

:func:`check` also runs the constraints plugins registered
(``constraint_mapping()`` of a plugin module: ``{name: checker(value,
clients)}``).
"""

import datetime
import ipaddress
import json
import re
import uuid
import zoneinfo
from collections.abc import Callable
from typing import Any

from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients

# neutronclient's and glanceclient's lookups by a name list at most this many
LIST_LIMIT = 1000
_MAC = re.compile(
    r"[0-9a-fA-F]{2}([:-])(?:[0-9a-fA-F]{2}\1){4}[0-9a-fA-F]{2}"
    r"|[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}|[0-9a-fA-F]{12}"
)


class LookupFailed(Exception):
    """A value the service does not know: the lookup's own text."""


def _error(value: Any, message: str | None) -> ValueError:
    """Heat's ``BaseCustomConstraint.error``."""
    if message is None:
        return ValueError("Error validating value '%s'" % (value,))
    return ValueError("Error validating value '%s': %s" % (value, message))


def _get(clients: Clients, service: str, path: str, **query: Any) -> Any:
    """The body of a GET, or None when the service answers 404 (or 400: an
    id it cannot parse is one it does not have)."""
    try:
        return clients.get(service, path, query=query or None).body
    except ClientError as exc:
        if exc.status in (400, 404):
            return None
        raise


def _get_one(clients: Clients, service: str, collection: str, value: Any, key: str) -> bool:
    """Whether ``GET <collection>/<value>`` shows one ``key`` (a value that
    is not one path segment names nothing: ``detail`` is a list, not a
    server)."""
    segment = str(value)
    if not segment or "/" in segment or segment in (".", "..") or "?" in segment:
        return False
    body = _get(clients, service, "%s/%s" % (collection, segment))
    return isinstance(body, dict) and isinstance(body.get(key), dict)


def _entity_not_found(entity: str, value: Any) -> LookupFailed:
    # heat's exception.EntityNotFound
    return LookupFailed("The %s (%s) could not be found." % (entity, value))


# -- nova (heat/engine/clients/os/nova.py) -------------------------------------


def _nova_flavor(value: Any, clients: Clients) -> None:
    """``find_flavor_by_name_or_id``: novaclient's ``flavors.get`` then
    ``flavors.find(name=…)``, whose NotFound text Heat passes on."""
    if _get_one(clients, "compute", "/flavors", value, "flavor"):
        return
    body = _get(clients, "compute", "/flavors/detail", is_public="None") or {}
    if any(f.get("name") == str(value) for f in body.get("flavors") or ()):
        return
    raise LookupFailed("No Flavor matching %s. (HTTP 404)" % ({"name": value},))


def _nova_keypair(value: Any, clients: Clients) -> None:
    if not value:
        return  # heat: an empty key is not checked (a KeyPair resource's)
    if not _get_one(clients, "compute", "/os-keypairs", value, "keypair"):
        raise _entity_not_found("Key", value)


def _nova_server(value: Any, clients: Clients) -> None:
    if not _get_one(clients, "compute", "/servers", value, "server"):
        raise _entity_not_found("Server", value)


# -- glance (heat/engine/clients/os/glance.py) -----------------------------------


def _uuid_like(value: Any) -> bool:
    try:
        return str(uuid.UUID(str(value))).replace("-", "") == str(value).replace("-", "").lower()
    except ValueError:
        return False


def _glance_image(value: Any, clients: Clients) -> None:
    """``find_image_by_name_or_id``: by id when it looks like one, else the
    one image of that name."""
    if _uuid_like(value):
        body = _get(clients, "image", "/v2/images/" + str(value))
        if isinstance(body, dict) and body.get("id"):
            return
    body = _get(clients, "image", "/v2/images", name=str(value), limit=LIST_LIMIT) or {}
    found = len(body.get("images") or ())
    args = {"name": value}
    if found == 0:
        raise LookupFailed("No images matching %s." % (args,))
    if found > 1:
        raise LookupFailed("No images unique match found for %s." % (args,))


# -- neutron (heat/engine/clients/os/neutron/neutron_constraints.py) ------------

_NEUTRON_COLLECTIONS = {
    "network": "networks",
    "subnet": "subnets",
    "port": "ports",
    "security_group": "security-groups",
    "router": "routers",
}


def _neutron(resource: str) -> Callable[[Any, Clients], None]:
    """neutronclient's ``find_resourceid_by_name_or_id`` of ``resource``:
    by id, else the one of that name."""
    collection = _NEUTRON_COLLECTIONS[resource]
    key = collection.replace("-", "_")

    def check(value: Any, clients: Clients) -> None:
        path = "/v2.0/" + collection
        by_id = _get(clients, "network", path, id=str(value), fields="id") or {}
        if by_id.get(key):
            return
        by_name = _get(clients, "network", path, name=str(value), fields="id") or {}
        found = len(by_name.get(key) or ())
        if found > 1:
            raise LookupFailed(
                "Multiple %s matches found for name '%s', use an ID to be more specific."
                % (resource, value)
            )
        if found == 0:
            raise LookupFailed("Unable to find %s with name or id '%s'" % (resource, value))

    return check


# -- cinder (heat/engine/clients/os/cinder.py) -----------------------------------


def _cinder_volume(value: Any, clients: Clients) -> None:
    if not _get_one(clients, "volumev3", "/volumes", value, "volume"):
        raise _entity_not_found("Volume", value)


def _cinder_snapshot(value: Any, clients: Clients) -> None:
    if not _get_one(clients, "volumev3", "/snapshots", value, "snapshot"):
        raise _entity_not_found("VolumeSnapshot", value)


def _cinder_vtype(value: Any, clients: Clients) -> None:
    body = _get(clients, "volumev3", "/types") or {}
    if not any(str(value) in (t.get("name"), t.get("id")) for t in body.get("volume_types") or ()):
        raise _entity_not_found("VolumeType", value)


# -- common (heat/engine/constraint/common_constraints.py) ----------------------


def _ip_addr(value: Any, clients: Clients) -> None:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        ipaddress.ip_address(value)
    except ValueError:
        raise LookupFailed("Invalid IP address") from None


def _mac_addr(value: Any, clients: Clients) -> None:
    if not (isinstance(value, str) and _MAC.fullmatch(value)):
        raise LookupFailed("Invalid MAC address.")


def _net_cidr(value: Any, clients: Clients) -> None:
    """neutron-lib's ``validate_subnet``: an address with a prefix length;
    an IPv4 one written in full."""
    invalid = LookupFailed("'%s' is not a valid IP subnet" % (value,))
    if not isinstance(value, str) or "/" not in value or value != value.strip():
        raise invalid
    try:
        interface = ipaddress.ip_interface(value)
    except ValueError:
        raise invalid from None
    if interface.version == 4 and str(interface) != value:
        raise invalid


def _iso_8601(value: Any, clients: Clients) -> None:
    try:
        datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise LookupFailed(None) from None


def _timezone(value: Any, clients: Clients) -> None:
    if not value:
        return
    try:
        zoneinfo.ZoneInfo(str(value))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise LookupFailed("Invalid timezone: %s" % exc) from None


def _json_string(value: Any, clients: Clients) -> None:
    if not value:
        return
    try:
        json.loads(value)
    except (TypeError, ValueError) as exc:
        raise LookupFailed("JSON string %s is invalid: %s" % (value, exc)) from None


# name -> check(value, clients) raising LookupFailed
CONSTRAINTS: dict[str, Callable[[Any, Clients], None]] = {
    "nova.flavor": _nova_flavor,
    "nova.keypair": _nova_keypair,
    "nova.server": _nova_server,
    "glance.image": _glance_image,
    "neutron.network": _neutron("network"),
    "neutron.subnet": _neutron("subnet"),
    "neutron.port": _neutron("port"),
    "neutron.security_group": _neutron("security_group"),
    "neutron.router": _neutron("router"),
    "cinder.volume": _cinder_volume,
    "cinder.snapshot": _cinder_snapshot,
    "cinder.vtype": _cinder_vtype,
    "ip_addr": _ip_addr,
    "mac_addr": _mac_addr,
    "net_cidr": _net_cidr,
    "iso_8601": _iso_8601,
    "timezone": _timezone,
    "json_string": _json_string,
}


def names(env: Any = None) -> set[str]:
    """The constraint names :func:`check` knows (with ``env``'s plugins')."""
    known = set(CONSTRAINTS)
    while env is not None:
        known.update(getattr(env, "constraints", {}))
        env = getattr(env, "global_env", None)
    return known


def check(name: str, value: Any, clients: Clients, env: Any = None) -> None:
    """Check ``value`` against the custom constraint ``name``; ValueError
    with Heat's text when it does not pass, or when ``name`` is no
    constraint (``"x" does not validate y (constraint not found)``).
    ``env``: the environment whose plugins' constraints also count (its
    ``get_constraint``)."""
    checker: Callable[[Any, Clients], None] | None = CONSTRAINTS.get(name)
    if checker is None and env is not None:
        checker = env.get_constraint(name)
    if checker is None:
        raise ValueError('"%s" does not validate %s (constraint not found)' % (value, name))
    try:
        checker(value, clients)
    except LookupFailed as exc:
        raise _error(value, exc.args[0] if exc.args else None) from None
    except ValueError as exc:
        # a plugin's checker: its text, in Heat's wrapping
        raise _error(value, str(exc) or None) from None
