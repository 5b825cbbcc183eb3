"""``/flavors``: list (``?is_public``, ``minRam``, ``minDisk``, sorting,
paging), detail and show; the flavor view by microversion."""

import json

from occli.localcloud.compute import flavors, values
from occli.localcloud.compute.api import common


def register(service):
    service.api("GET", "/flavors", list_flavors)
    service.api("GET", "/flavors/detail", list_flavors_detail)
    service.api("GET", "/flavors/{flavor_id}", show_flavor)


def view(req, row, detail):
    body = {"id": row["id"], "name": row["name"],
            "links": common.links(req, "flavors", row["id"])}
    version = req.microversion
    if version >= "2.55":
        body["description"] = row["description"]
    if not detail:
        return body
    body.update({
        "ram": row["memory_mb"],
        "disk": row["root_gb"],
        "vcpus": row["vcpus"],
        "OS-FLV-EXT-DATA:ephemeral": row["ephemeral_gb"],
        "swap": row["swap"] if row["swap"] or version >= "2.75" else "",
        "os-flavor-access:is_public": bool(row["is_public"]),
        "rxtx_factor": row["rxtx_factor"],
        "OS-FLV-DISABLED:disabled": bool(row["disabled"]),
    })
    if version >= "2.61":
        body["extra_specs"] = json.loads(row["extra_specs"])
    return body


def _public(req):
    """``is_public``: public flavors only unless an admin asks for
    ``false`` (private) or ``none`` (all)."""
    is_public = req.arg("is_public")
    if not req.context.is_admin or is_public is None:
        return True
    if is_public.lower() == "none":
        return None
    return common.bool_param(is_public, "is_public")


def _minimum(req, param):
    value = req.arg(param)
    if value is None:
        return None
    try:
        minimum = int(value)
    except ValueError:
        minimum = None
    if minimum is None or not values.sql_int(minimum):
        raise common.bad_request("Invalid %s filter [%s]" % (param, value))
    return minimum


def _list(req, detail):
    public = _public(req)
    min_ram, min_disk = _minimum(req, "minRam"), _minimum(req, "minDisk")
    rows = flavors.select(req.db, public, min_ram, min_disk,
                          req.arg("sort_key", "flavorid"),
                          req.arg("sort_dir", "asc"))
    rows, next_links = common.paginate(
        req, rows, lambda r: r["id"],
        "flavors/detail" if detail else "flavors")
    body = {"flavors": [view(req, r, detail) for r in rows]}
    if next_links:
        body["flavors_links"] = next_links
    return body


def list_flavors(req):
    return _list(req, detail=False)


def list_flavors_detail(req):
    return _list(req, detail=True)


def show_flavor(req):
    row = flavors.get(req.db, req.params["flavor_id"],
                      admin=req.context.is_admin)
    return {"flavor": view(req, row, detail=True)}
