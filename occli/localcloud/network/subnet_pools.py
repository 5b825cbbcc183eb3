"""Subnet pools (neutron's ``subnet_allocation`` and ``default-subnetpools``
extensions): prefixes subnets are carved from, their prefix-length bounds,
per-project quota, an optional address scope, one default pool per family;
the allocation of a subnet's CIDR from a pool (neutron's ``SubnetAllocator``).

Neutron's rules and texts: ``neutron/db/db_base_plugin_v2.py`` (subnetpool
CRUD), ``neutron/ipam/subnet_alloc.py``,
``neutron_lib/api/definitions/subnetpool.py``, ``neutron_lib/exceptions``,
``neutron/conf/policies/subnetpool.py``.
"""

import ipaddress
import json
import sqlite3
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import address_scopes
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common
from occli.localcloud.network import quotas

ATTRIBUTES = (
    "address_scope_id",
    "created_at",
    "default_prefixlen",
    "default_quota",
    "description",
    "id",
    "ip_version",
    "is_default",
    "max_prefixlen",
    "min_prefixlen",
    "name",
    "prefixes",
    "project_id",
    "revision_number",
    "shared",
    "tags",
    "tenant_id",
    "updated_at",
)
SORT_KEYS = tuple(a for a in ATTRIBUTES if a not in ("prefixes", "tags"))

# SubnetPoolHelper._PREFIX_VERSION_INFO: the widest prefix (bits), the
# default min_prefixlen and the quota's unit (addresses of a /32, a /64)
_BITS = {4: 32, 6: 128}
_DEFAULT_MIN = {4: 8, 6: 64}
_QUOTA_UNIT = {4: 32, 6: 64}


def _not_empty_name(attr: str, value: object) -> str:
    """``type:not_empty_name_string``."""
    checked = attrs.string()(attr, value)
    if not checked.strip():
        raise attrs.bad_request(
            "Invalid input for %s. Reason: '%s' Blank strings are not permitted." % (attr, value)
        )
    return checked


def non_negative(attr: str, value: object) -> int:
    """``convert_to_int`` then ``type:non_negative``."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError(value)
        number = int(value)
    except ValueError:
        raise attrs.invalid_input("'%s' is not an integer" % (value,)) from None
    if number < 0:
        raise attrs.bad_request(
            "Invalid input for %s. Reason: '%s' should be non-negative." % (attr, number)
        )
    return number


def _prefixes(attr: str, value: object) -> list[str]:
    """``type:subnet_list``: a list of distinct CIDRs."""
    checked = attrs.list_of(attrs.cidr)(attr, value)
    duplicates = sorted({p for p in checked if checked.count(p) > 1})
    if duplicates:
        raise attrs.bad_request(
            "Invalid input for %s. Reason: Duplicate items in the list: '%s'."
            % (attr, ", ".join(duplicates))
        )
    return checked


SPEC = {
    "name": attrs.Attr(_not_empty_name, default=attrs.REQUIRED),
    "description": attrs.Attr(attrs.string(attrs.DESCRIPTION_MAX_LEN), default=""),
    "prefixes": attrs.Attr(_prefixes, default=attrs.REQUIRED),
    "default_quota": attrs.Attr(non_negative),
    "default_prefixlen": attrs.Attr(non_negative),
    "min_prefixlen": attrs.Attr(non_negative),
    "max_prefixlen": attrs.Attr(non_negative),
    "is_default": attrs.Attr(attrs.boolean, default=False),
    "shared": attrs.Attr(attrs.boolean, put=False, default=False),
    "address_scope_id": attrs.Attr(attrs.uuid_or_none),
}


class AllocationError(errors.Error):
    """neutron_lib's ``SubnetAllocationError``: a bare ``NeutronException``,
    which neutron's fault map answers with 500 (its text kept)."""

    code = 500

    def __init__(self, reason: str) -> None:
        super().__init__("Failed to allocate subnet: %s." % reason, type="SubnetAllocationError")


def not_found(subnetpool_id: str) -> errors.NotFound:
    return errors.NotFound(
        "Subnet pool %s could not be found." % subnetpool_id, type="SubnetPoolNotFound"
    )


def visible(context: Asker, row: sqlite3.Row) -> bool:
    return common.owns(context, row) or bool(row["shared"])


def get(db: sqlite3.Connection, context: Asker, subnetpool_id: str) -> sqlite3.Row:
    """The pool ``context`` may see (own or shared); SubnetPoolNotFound otherwise."""
    found = db.execute(
        "SELECT * FROM network_subnetpools WHERE id = ?", (subnetpool_id,)
    ).fetchone()
    if found is None or not visible(context, found):
        raise not_found(subnetpool_id)
    return found


def view(row: sqlite3.Row) -> dict[str, Any]:
    """``_make_subnetpool_dict``: the prefix lengths as strings, as neutron shows them."""
    body = common.standard(
        row,
        {
            "name": row["name"],
            "ip_version": row["ip_version"],
            "prefixes": json.loads(row["prefixes"]),
            "default_prefixlen": str(row["default_prefixlen"]),
            "min_prefixlen": str(row["min_prefixlen"]),
            "max_prefixlen": str(row["max_prefixlen"]),
            "default_quota": row["default_quota"],
            "address_scope_id": row["address_scope_id"],
            "is_default": bool(row["is_default"]),
            "shared": bool(row["shared"]),
        },
    )
    return body


def listing(db: sqlite3.Connection, context: Asker) -> list[dict[str, Any]]:
    return [
        view(r)
        for r in db.execute("SELECT * FROM network_subnetpools ORDER BY seq")
        if visible(context, r)
    ]


def show(db: sqlite3.Connection, context: Asker, subnetpool_id: str) -> dict[str, Any]:
    return view(get(db, context, subnetpool_id))


def _bounds_error(kind: str, length: int, base_kind: str, base: int) -> errors.BadRequest:
    return errors.BadRequest(
        "Illegal prefix bounds: %s=%s, %s=%s." % (kind, length, base_kind, base),
        type="IllegalSubnetPoolPrefixBounds",
    )


def _read(values: dict[str, Any]) -> dict[str, Any]:
    """``SubnetPoolReader``: the family from the prefixes (compacted), the
    bounds with their defaults, checked as neutron checks them."""
    prefixes = values["prefixes"]
    if not prefixes:
        raise errors.BadRequest("Empty subnet pool prefix list.", type="EmptySubnetPoolPrefixList")
    nets = [ipaddress.ip_network(p) for p in prefixes]
    version = nets[0].version
    if any(n.version != version for n in nets):
        raise errors.BadRequest(
            "Cannot mix IPv4 and IPv6 prefixes in a subnet pool.", type="PrefixVersionMismatch"
        )
    low = values.get("min_prefixlen")
    low = _DEFAULT_MIN[version] if low is None else low
    high = values.get("max_prefixlen")
    high = _BITS[version] if high is None else high
    default = values.get("default_prefixlen")
    default = low if default is None else default
    if low > high:
        raise _bounds_error("min_prefixlen", low, "max_prefixlen", high)
    if high > _BITS[version]:
        raise _bounds_error("max_prefixlen", high, "ip_version_max", _BITS[version])
    if default < low:
        raise _bounds_error("default_prefixlen", default, "min_prefixlen", low)
    if default > high:
        raise _bounds_error("default_prefixlen", default, "max_prefixlen", high)
    compact = sorted(ipaddress.collapse_addresses(nets))  # type: ignore[type-var]
    return {
        "ip_version": version,
        "prefixes": [str(n) for n in compact],
        "min_prefixlen": low,
        "max_prefixlen": high,
        "default_prefixlen": default,
    }


def default_pool(db: sqlite3.Connection, version: int) -> sqlite3.Row | None:
    """The family's default pool (``get_default_subnetpool``), if any."""
    return db.execute(
        "SELECT * FROM network_subnetpools WHERE is_default = 1 AND ip_version = ? ORDER BY seq",
        (version,),
    ).fetchone()


def _check_default(db: sqlite3.Connection, version: int) -> None:
    if default_pool(db, version) is not None:
        raise attrs.invalid_input(
            "A default subnetpool for this IP family has already been set. Only one "
            "default may exist per IP family"
        )


def _check_scope(
    db: sqlite3.Connection,
    context: Asker,
    address_scope_id: str | None,
    subnetpool_id: str,
    read: dict[str, Any],
) -> None:
    """``_validate_address_scope_id``: a scope the caller sees, of the
    pool's family, whose other pools' prefixes do not overlap the pool's."""
    if address_scope_id is None:
        return
    scope = address_scopes.get(db, context, address_scope_id)
    if scope["ip_version"] != read["ip_version"]:
        raise errors.BadRequest(
            "Illegal subnetpool association: subnetpool %s cannot associate with address "
            "scope %s because subnetpool ip_version is not %s."
            % (subnetpool_id, address_scope_id, scope["ip_version"]),
            type="IllegalSubnetPoolIpVersionAssociationToAddressScope",
        )
    # _check_subnetpool_address_scope_network_affinity: re-scoping the pool
    # must not split a network's subnets of its family across scopes
    split = db.execute(
        "SELECT 1 FROM network_subnets s JOIN network_subnets o ON o.network_id = s.network_id"
        " WHERE s.subnetpool_id = ? AND o.ip_version = ?"
        " AND o.subnetpool_id IS NOT s.subnetpool_id",
        (subnetpool_id, read["ip_version"]),
    ).fetchone()
    if split is not None:
        raise errors.BadRequest(
            "Subnets of the same address family hosted on the same network must all "
            "participate in the same address scope.",
            type="NetworkAddressScopeAffinityError",
        )
    mine = [ipaddress.ip_network(p) for p in read["prefixes"]]
    for other in db.execute(
        "SELECT prefixes FROM network_subnetpools WHERE address_scope_id = ? AND id != ?",
        (address_scope_id, subnetpool_id),
    ):
        theirs = [ipaddress.ip_network(p) for p in json.loads(other["prefixes"])]
        if any(a.overlaps(b) for a in mine for b in theirs):  # type: ignore[arg-type]
            raise errors.Conflict(
                "Failed to associate address scope: subnetpools within an address scope "
                "must have unique prefixes.",
                type="AddressScopePrefixConflict",
            )


def create(db: sqlite3.Connection, context: Asker, body: object) -> dict[str, Any]:
    values = attrs.parse(body, "subnetpool", SPEC, create=True)
    project = common.check_project(context, values, "create_subnetpool")
    for attr in ("shared", "is_default"):
        if values[attr] and not context.is_admin:
            raise common.policy_denied(
                "(rule:create_subnetpool and rule:create_subnetpool:%s)" % attr
            )
    read = _read(values)
    if values["is_default"]:
        _check_default(db, read["ip_version"])
    subnetpool_id = clock.new_uuid()
    _check_scope(db, context, values["address_scope_id"], subnetpool_id, read)
    quotas.check(db, project, "subnetpool")
    stamp = common.now()
    db.execute(
        "INSERT INTO network_subnetpools (id, project_id, name, description, ip_version,"
        " prefixes, default_prefixlen, min_prefixlen, max_prefixlen, default_quota,"
        " address_scope_id, is_default, shared, revision_number, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (
            subnetpool_id,
            project,
            values["name"],
            values["description"],
            read["ip_version"],
            json.dumps(read["prefixes"]),
            read["default_prefixlen"],
            read["min_prefixlen"],
            read["max_prefixlen"],
            values["default_quota"],
            values["address_scope_id"],
            int(values["is_default"]),
            int(values["shared"]),
            stamp,
            stamp,
        ),
    )
    return show(db, context, subnetpool_id)


def _writable(
    db: sqlite3.Connection, context: Asker, subnetpool_id: str, action: str
) -> sqlite3.Row:
    """The pool ``context`` may change: NotFound when it cannot see it,
    neutron's 403 when it sees it (shared) only."""
    found = get(db, context, subnetpool_id)
    if not common.owns(context, found):
        raise common.policy_denied("rule:%s_subnetpool" % action)
    return found


def update(
    db: sqlite3.Connection, context: Asker, subnetpool_id: str, body: object
) -> dict[str, Any]:
    """``update_subnetpool``: prefixes may only grow; the bounds are
    re-read over the stored ones; ``is_default`` is the admin's."""
    values = attrs.parse(body, "subnetpool", SPEC, create=False)
    found = _writable(db, context, subnetpool_id, "update")
    if "is_default" in values and not context.is_admin:
        raise common.policy_denied(
            "(rule:update_subnetpool and rule:update_subnetpool:is_default)"
        )
    merged: dict[str, Any] = {
        key: found[key] for key in ("min_prefixlen", "max_prefixlen", "default_prefixlen")
    }
    merged["prefixes"] = json.loads(found["prefixes"])
    merged.update({k: v for k, v in values.items() if k in merged and v is not None})
    if "prefixes" in values:
        old = [ipaddress.ip_network(p) for p in json.loads(found["prefixes"])]
        new = [ipaddress.ip_network(p) for p in values["prefixes"]]
        if not all(any(o.subnet_of(n) for n in new if n.version == o.version) for o in old):  # type: ignore[arg-type]
            raise errors.BadRequest(
                "Illegal update to prefixes: Existing prefixes must be a subset of the new "
                "prefixes.",
                type="IllegalSubnetPoolPrefixUpdate",
            )
    read = _read(merged)
    if values.get("is_default") and not found["is_default"]:
        _check_default(db, read["ip_version"])
    scope_id = values.get("address_scope_id", found["address_scope_id"])
    if found["address_scope_id"] is not None:
        scope = db.execute(
            "SELECT project_id FROM network_address_scopes WHERE id = ?",
            (found["address_scope_id"],),
        ).fetchone()
        if not (context.is_admin or scope["project_id"] == context.project_id):
            raise errors.BadRequest(
                "Illegal subnetpool update : subnetpool %s cannot be updated when associated "
                "with shared address scope %s." % (subnetpool_id, found["address_scope_id"]),
                type="IllegalSubnetPoolUpdate",
            )
    _check_scope(db, context, scope_id, subnetpool_id, read)
    columns = dict(read, prefixes=json.dumps(read["prefixes"]), address_scope_id=scope_id)
    for key in ("name", "description", "default_quota", "is_default"):
        if key in values:
            value = values[key]
            columns[key] = int(value) if isinstance(value, bool) else value
    columns.pop("ip_version")
    for key, value in columns.items():
        db.execute(
            "UPDATE network_subnetpools SET %s = ? WHERE id = ?" % key, (value, subnetpool_id)
        )
    common.bump(db, "network_subnetpools", subnetpool_id)
    return updated_view(show(db, context, subnetpool_id))


def updated_view(body: dict[str, Any]) -> dict[str, Any]:
    """``update_subnetpool``'s answer, which is not the show's: the
    object's own dict, the prefix lengths as numbers, an unset
    ``default_quota`` left out (recorded from Neutron 29)."""
    body = dict(body)
    for key in ("default_prefixlen", "min_prefixlen", "max_prefixlen"):
        body[key] = int(body[key])
    if body["default_quota"] is None:
        del body["default_quota"]
    return body


def delete(db: sqlite3.Connection, context: Asker, subnetpool_id: str) -> None:
    """Delete a pool no subnet was allocated from (``SubnetPoolDeleteError``)."""
    _writable(db, context, subnetpool_id, "delete")
    used = db.execute(
        "SELECT 1 FROM network_subnets WHERE subnetpool_id = ?", (subnetpool_id,)
    ).fetchone()
    if used is not None:
        raise errors.BadRequest(
            "Unable to delete subnet pool: Subnet pool has existing allocations.",
            type="SubnetPoolDeleteError",
        )
    db.execute("DELETE FROM network_subnetpools WHERE id = ?", (subnetpool_id,))


# -- allocation (neutron/ipam/subnet_alloc.py) ---------------------------------------


def _available(db: sqlite3.Connection, pool: sqlite3.Row) -> list[Any]:
    """The pool's free blocks, smallest first (``_get_available_prefix_list``)."""
    free = [ipaddress.ip_network(p) for p in json.loads(pool["prefixes"])]
    for row in db.execute(
        "SELECT cidr FROM network_subnets WHERE subnetpool_id = ?", (pool["id"],)
    ):
        used = ipaddress.ip_network(row["cidr"])
        kept: list[Any] = []
        for block in free:
            if used.subnet_of(block):  # type: ignore[arg-type]
                kept.extend(block.address_exclude(used))  # type: ignore[arg-type]
            elif not block.subnet_of(used):  # type: ignore[arg-type]
                kept.append(block)
        free = kept
    free = list(ipaddress.collapse_addresses(free))  # type: ignore[type-var]
    return sorted(free, key=lambda n: (-n.prefixlen, n))


def _check_quota(db: sqlite3.Connection, pool: sqlite3.Row, prefixlen: int) -> None:
    """``_check_subnetpool_project_quota``: addresses (in /32 or /64
    units) the pool owner's allocations hold, as neutron counts them."""
    quota = pool["default_quota"]
    if not quota:
        return
    unit = _QUOTA_UNIT[pool["ip_version"]]
    used = sum(
        2 ** (unit - ipaddress.ip_network(r["cidr"]).prefixlen)
        for r in db.execute(
            "SELECT cidr FROM network_subnets WHERE subnetpool_id = ? AND project_id = ?",
            (pool["id"], pool["project_id"]),
        )
    )
    if used + 2 ** (unit - prefixlen) > quota:
        raise errors.Conflict(
            "Per-project subnet pool prefix quota exceeded.", type="SubnetPoolQuotaExceeded"
        )


def allocate(
    db: sqlite3.Connection, pool: sqlite3.Row, cidr: str | None, prefixlen: int | None
) -> str:
    """The CIDR a subnet gets from ``pool``: ``cidr`` when it lies in one
    free block, else the first block of ``prefixlen`` (the pool's default)
    in the smallest free block that holds it."""
    if cidr is not None:
        prefixlen = ipaddress.ip_network(cidr).prefixlen
    elif prefixlen is None:
        prefixlen = pool["default_prefixlen"]
    if prefixlen > pool["max_prefixlen"]:
        raise errors.BadRequest(
            "Unable to allocate subnet with prefix length %s, maximum allowed prefix is %s."
            % (prefixlen, pool["max_prefixlen"]),
            type="MaxPrefixSubnetAllocationError",
        )
    if prefixlen < pool["min_prefixlen"]:
        raise errors.BadRequest(
            "Unable to allocate subnet with prefix length %s, minimum allowed prefix is %s."
            % (prefixlen, pool["min_prefixlen"]),
            type="MinPrefixSubnetAllocationError",
        )
    _check_quota(db, pool, prefixlen)
    free = _available(db, pool)
    if cidr is not None:
        wanted = ipaddress.ip_network(cidr)
        if any(wanted.subnet_of(block) for block in free):  # type: ignore[arg-type]
            return cidr
        raise AllocationError(
            "Cannot allocate requested subnet from the available set of prefixes"
        )
    for block in free:
        if prefixlen >= block.prefixlen:
            return str(next(block.subnets(new_prefix=prefixlen)))
    raise AllocationError("Insufficient prefix space to allocate subnet size /%s" % prefixlen)


# -- a subnet create's pool (neutron/db/db_base_plugin_v2.py, ipam_backend_mixin.py) ---


def _bad_subnet(message: str) -> errors.BadRequest:
    """neutron_lib's ``BadRequest(resource='subnets', msg=…)``."""
    return attrs.bad_request("Bad subnets request: %s." % message, kind="BadRequest")


def requested(
    db: sqlite3.Connection, context: Asker, values: dict[str, Any]
) -> sqlite3.Row | None:
    """The pool a subnet create draws from (``_get_subnetpool_id``):
    ``subnetpool_id``, the family's default one (``use_default_subnetpool``)
    or none, in which case a ``cidr`` is required."""
    cidr = values.get("cidr")
    if cidr is not None and values.get("prefixlen") is not None:
        raise _bad_subnet("cidr and prefixlen must not be supplied together")
    subnetpool_id = values.get("subnetpool_id")
    if values.get("use_default_subnetpool") and subnetpool_id:
        raise _bad_subnet("subnetpool_id and use_default_subnetpool cannot both be specified")
    if subnetpool_id is None and values.get("use_default_subnetpool"):
        version = ipaddress.ip_network(cidr).version if cidr is not None else values["ip_version"]
        found = default_pool(db, version)
        if found is None or not visible(context, found):
            raise _bad_subnet("No default subnetpool found for IPv%s" % version)
        subnetpool_id = found["id"]
    if subnetpool_id is None:
        if cidr is None:
            raise _bad_subnet("a subnetpool must be specified in the absence of a cidr")
        return None
    if cidr is None and values.get("allocation_pools") is not None:
        raise _bad_subnet("allocation_pools allowed only for specific subnet requests.")
    pool = get(db, context, subnetpool_id)
    if pool["ip_version"] != values["ip_version"]:
        raise _bad_subnet(
            "Cannot allocate IPv%s subnet from IPv%s subnet pool"
            % (values["ip_version"], pool["ip_version"])
        )
    return pool


def check_affinity(
    db: sqlite3.Connection, network_id: str, version: int, pool: sqlite3.Row | None
) -> None:
    """``_validate_network_subnetpools``: a network's subnets of one family
    come from one pool (or none), or from pools of the one address scope
    they already share."""
    scope = db.execute(
        "SELECT p.address_scope_id FROM network_subnets s"
        " JOIN network_subnetpools p ON p.id = s.subnetpool_id"
        " JOIN network_address_scopes a ON a.id = p.address_scope_id"
        " WHERE s.network_id = ? AND a.ip_version = ?",
        (network_id, version),
    ).fetchone()
    if scope is not None and (pool is None or pool["address_scope_id"] != scope[0]):
        raise errors.BadRequest(
            "Subnets of the same address family hosted on the same network must all "
            "participate in the same address scope.",
            type="NetworkAddressScopeAffinityError",
        )
    pool_id = None if pool is None else pool["id"]
    for row in db.execute(
        "SELECT subnetpool_id FROM network_subnets WHERE network_id = ? AND ip_version = ?",
        (network_id, version),
    ):
        if row["subnetpool_id"] != pool_id and (pool is None or scope is None):
            raise errors.BadRequest(
                "Subnets hosted on the same network must be allocated from the same subnet pool.",
                type="NetworkSubnetPoolAffinityError",
            )


def subnet_cidr(db: sqlite3.Connection, pool: sqlite3.Row, values: dict[str, Any]) -> str:
    """The CIDR ``pool`` gives a subnet create: its ``cidr``, the block of
    its explicit ``gateway_ip``, or any free one of ``prefixlen``."""
    cidr = values.get("cidr")
    gateway = values.get("gateway_ip")
    prefixlen = values.get("prefixlen")
    if cidr is None and gateway not in (None, "first"):
        length = pool["default_prefixlen"] if prefixlen is None else prefixlen
        cidr = str(ipaddress.ip_network("%s/%s" % (gateway, length), strict=False))
    return allocate(db, pool, cidr, prefixlen)
