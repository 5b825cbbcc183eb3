"""How servers are shown: ``server show``'s fields and ``server list``'s
rows, with the names of their images and flavors looked up page by page
(a failing lookup shows ids). Used by :mod:`occli.v2.compute.commands.servers`
and the other server commands.
"""

import logging

from occli import api_versions
from occli import columns
from occli.v2.compute.commands import server_cells

LOG = logging.getLogger(__name__)

POWER_STATES = server_cells.POWER_STATES


SHOW_FORMATTERS = {
    "addresses": columns.AddressesColumn,
    "flavor": server_cells.FlavorColumn,
    "image": server_cells.ImageColumn,
    "metadata": columns.DictColumn,
    "properties": columns.DictColumn,
    "OS-EXT-STS:power_state": server_cells.PowerStateColumn,
    "security_groups": server_cells.NamesColumn,
    "tags": columns.ListColumn,
}

#: Nova's keys ``server show`` gives OSC's names (openstackclient/compute/
#: v2/server.py ``_prep_server_detail``); ``-c`` still takes Nova's
OSC_NAMES = {
    "tenant_id": "project_id",
    "metadata": "properties",
    "os-extended-volumes:volumes_attached": "volumes_attached",
}
#: the fields OSC always shows (openstacksdk's ``Server``), None when
#: Nova's answer lacks them (a non-admin's view, an older microversion)
OSC_FIELDS = (
    "OS-EXT-SRV-ATTR:host",
    "OS-EXT-SRV-ATTR:hostname",
    "OS-EXT-SRV-ATTR:hypervisor_hostname",
    "OS-EXT-SRV-ATTR:instance_name",
    "OS-EXT-SRV-ATTR:kernel_id",
    "OS-EXT-SRV-ATTR:launch_index",
    "OS-EXT-SRV-ATTR:ramdisk_id",
    "OS-EXT-SRV-ATTR:reservation_id",
    "OS-EXT-SRV-ATTR:root_device_name",
    "OS-EXT-SRV-ATTR:user_data",
    "host_status",
    "server_groups",
)


def best_effort(what, func):
    """Names are decoration: a failing lookup shows ids, never fails."""
    try:
        return func()
    except Exception as exc:  # noqa: BLE001 - any service/catalog problem
        LOG.debug("%s lookup failed: %s", what, exc)
        return None


def show_server(client, server, extra=None, images=(), lookup_image=True):
    """``(names, values)`` of a server for a ShowOne (``links`` hidden).

    The image shows as OSC's ``name (id)`` (openstackclient/compute/v2/
    server.py ``_prep_server_detail``): its name from ``images`` (resources
    the command looked up already), else from one Glance GET unless not
    ``lookup_image`` (the image is not shown); a failing GET (the image
    deleted, another project's) shows its id, as OSC.
    """
    info = server.to_dict()
    info.pop("links", None)
    image = info.get("image")
    if isinstance(image, dict) and image.get("id") and "name" not in image:
        image_id = image["id"]
        found = next((i for i in images if getattr(i, "id", None) == image_id), None)
        if found is None and lookup_image:
            found = best_effort("image", lambda: client.images.get(image_id))
        if found is not None:
            info["image"] = dict(image, name=getattr(found, "name", None))
    for nova, osc in OSC_NAMES.items():
        if nova in info:
            info[osc] = info.pop(nova)
    for key in OSC_FIELDS:
        info.setdefault(key, None)
    info.update(extra or {})
    return columns.show(info, formatters=SHOW_FORMATTERS)


LIST_FORMATTERS = {
    "host": server_cells.HostColumn,
    "networks": columns.AddressesColumn,
    "metadata": columns.DictColumn,
    "power_state": server_cells.PowerStateColumn,
}


def list_columns(client, long, all_projects=False):
    """``(keys, headers)`` of ``server list``: OSC's columns in OSC's order
    (openstackclient/compute/v2/server.py ``ListServer``; ``Project ID``
    last with ``--all-projects``)."""
    keys = ["id", "name", "status", "networks", "image", "flavor"]
    headers = ["ID", "Name", "Status", "Networks", "Image", "Flavor"]
    if long:
        keys[3:5] = ["task_state", "power_state", "networks", "image", "image_id"]
        headers[3:5] = ["Task State", "Power State", "Networks", "Image Name", "Image ID"]
        keys += ["az", "host", "metadata"]
        headers += ["Availability Zone", "Host", "Properties"]
        if api_versions.APIVersion(client.servers.api_version).matches("2.96"):
            keys.append("pinned_az")
            headers.append("Pinned Availability Zone")
    if all_projects:
        keys.append("project_id")
        headers.append("Project ID")
    return keys, headers


def list_row(server, image_names, flavor_names, long):
    info = server.to_dict()
    row = {
        "id": server.id,
        "name": info.get("name"),
        "status": info.get("status"),
        "networks": info.get("addresses") or {},
        "image": _image_label(info.get("image"), image_names),
        "flavor": _flavor_label(info.get("flavor"), flavor_names),
        "project_id": info.get("tenant_id"),
    }
    if long:
        # OSC's --long: the image's name and id apart, Host the hypervisor's
        image = info.get("image")
        row.update(
            {
                "task_state": info.get("OS-EXT-STS:task_state"),
                "power_state": info.get("OS-EXT-STS:power_state"),
                "image_id": (image.get("id") if isinstance(image, dict) else row["image"]),
                "az": info.get("OS-EXT-AZ:availability_zone"),
                "host": info.get("OS-EXT-SRV-ATTR:hypervisor_hostname"),
                "metadata": info.get("metadata") or {},
                "pinned_az": info.get("pinned_availability_zone"),
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
    refs = (getattr(s, "image", None) for s in servers)
    ids = list(
        dict.fromkeys(
            image["id"]
            for image in refs
            if isinstance(image, dict)
            and image.get("id")
            and "name" not in image
            and image["id"] not in known
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
        for flavor in client.flavors.iter(detailed=False, read_ahead=False):
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
