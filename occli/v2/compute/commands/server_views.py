"""How servers are shown: ``server show``'s fields and ``server list``'s
rows, with the names of their images and flavors looked up page by page
(a failing lookup shows ids). Used by :mod:`occli.v2.compute.commands.servers`
and the other server commands.
"""

import logging

from occli import columns
from occli.v2.compute.commands import server_cells

LOG = logging.getLogger(__name__)

POWER_STATES = {
    0: "NOSTATE",
    1: "Running",
    3: "Paused",
    4: "Shutdown",
    6: "Crashed",
    7: "Suspended",
}


SHOW_FORMATTERS = {
    "addresses": columns.AddressesColumn,
    "flavor": server_cells.FlavorColumn,
    "image": server_cells.ImageColumn,
    "metadata": columns.DictColumn,
    "security_groups": server_cells.NamesColumn,
    "tags": columns.ListColumn,
}


def best_effort(what, func):
    """Names are decoration: a failing lookup shows ids, never fails."""
    try:
        return func()
    except Exception as exc:  # noqa: BLE001 - any service/catalog problem
        LOG.debug("%s lookup failed: %s", what, exc)
        return None


def show_server(client, server, extra=None, images=()):
    """``(names, values)`` of a server for a ShowOne (``links`` hidden).

    The image shows its name only when it is one of ``images`` (resources
    the command looked up already): no request is made for it.
    """
    info = server.to_dict()
    info.pop("links", None)
    image = info.get("image")
    if isinstance(image, dict) and image.get("id") and "name" not in image:
        for found in images:
            if found is not None and getattr(found, "id", None) == image["id"]:
                info["image"] = dict(image, name=getattr(found, "name", None))
    power = info.get("OS-EXT-STS:power_state")
    if "OS-EXT-STS:power_state" in info:
        # as server list --long: the state's name, not nova's number
        info["OS-EXT-STS:power_state"] = POWER_STATES.get(power, power)
    info.update(extra or {})
    return columns.show(info, formatters=SHOW_FORMATTERS)


def list_row(server, image_names, flavor_names, long):
    info = server.to_dict()
    row = {
        "id": server.id,
        "name": info.get("name"),
        "status": info.get("status"),
        "networks": info.get("addresses") or {},
        "image": _image_label(info.get("image"), image_names),
        "flavor": _flavor_label(info.get("flavor"), flavor_names),
    }
    if long:
        power = info.get("OS-EXT-STS:power_state")
        row.update(
            {
                "task_state": info.get("OS-EXT-STS:task_state"),
                "power_state": POWER_STATES.get(power, power),
                "az": info.get("OS-EXT-AZ:availability_zone"),
                "host": info.get("OS-EXT-SRV-ATTR:host"),
                "metadata": info.get("metadata") or {},
            }
        )
    return row


class Names:
    """``{id: name}`` of the images (or flavors) of the servers listed so
    far: each page asks (``lookup(client, servers, known)``) only for the
    ids not seen on an earlier page."""

    def __init__(self, client, lookup):
        self.client = client
        self.lookup = lookup
        self.known = {}

    def of(self, servers):
        self.known.update(self.lookup(self.client, servers, self.known))
        return self.known


def image_names(client, servers, known=()):
    """``{id: name}`` of the servers' images not in ``known``: one Glance
    request (per 100 ids).

    Asks Glance only for the distinct image ids of ``servers`` (its
    ``id=in:`` filter, chunked by the manager), never for every image
    page. Ids Glance does not return map to None (not asked again); a
    failing lookup leaves the ids shown.
    """
    ids = list(
        dict.fromkeys(
            s.image["id"]
            for s in servers
            if isinstance(getattr(s, "image", None), dict)
            and s.image.get("id")
            and "name" not in s.image
            and s.image["id"] not in known
        )
    )
    if not ids:
        return {}
    images = best_effort(
        "image", lambda: {i.id: getattr(i, "name", None) for i in client.images.list(ids=ids)}
    )
    if images is None:
        return {}
    return {**dict.fromkeys(ids), **images}


def flavor_names(client, servers, known=()):
    """``{id: name}`` for microversions < 2.47 from one flavor list.

    The list stops as soon as every needed flavor was seen, so further
    pages (clouds with more flavors than a page) are only read when needed.
    """
    wanted = {
        s.flavor.get("id")
        for s in servers
        if isinstance(getattr(s, "flavor", None), dict) and "original_name" not in s.flavor
    }
    wanted.discard(None)
    wanted -= set(known)
    if not wanted:
        return {}

    def lookup():
        names = {}
        for flavor in client.flavors.iter(detailed=False):
            names[flavor.id] = flavor.name
            if wanted <= names.keys():
                break
        return names

    return best_effort("flavor", lookup) or {}


def _image_label(image, names):
    if image == "":
        return server_cells.BOOTED_FROM_VOLUME
    if not image:
        return None  # e.g. a down-cell record (2.69)
    image_id = image.get("id") if isinstance(image, dict) else image
    return names.get(image_id) or image_id


def _flavor_label(flavor, names):
    if not isinstance(flavor, dict):
        return flavor
    if "original_name" in flavor:
        return flavor["original_name"]
    return names.get(flavor.get("id")) or flavor.get("id")
