"""Nova's server representation (``views/servers.py``) by microversion.

:class:`Views` renders the servers of one request: what depends only on
the request (microversion gates, URL prefixes, the caller's role) is
computed once, and what many servers share (a host's zone and status, a
flavor, an empty metadata dict, …) once per distinct value, so a page of a
thousand servers costs no query per server. :func:`view` renders one.
"""

import datetime
import json
import re

from occli.localcloud import common as clock
from occli.localcloud.compute import hosts
from occli.localcloud.compute import server_groups
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import servers
from occli.localcloud.compute import states
from occli.localcloud.compute.api import common

# a stored timestamp (common.iso_naive_micro) whose ``iso_z`` is its first
# 19 characters and a Z: naive, four-digit year (strftime does not pad)
_NAIVE_MICRO = re.compile(r"[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}")

# the microversion gates of the representation
_GATES = (
    "2.3",
    "2.9",
    "2.16",
    "2.19",
    "2.26",
    "2.47",
    "2.54",
    "2.63",
    "2.71",
    "2.73",
    "2.75",
    "2.90",
    "2.96",
)


def _iso(text):
    if _NAIVE_MICRO.fullmatch(text):
        return text[:19] + "Z"  # what iso_z gives, without parsing it
    return clock.iso_z(datetime.datetime.fromisoformat(text))


def addresses(ports, extended=True):
    """Nova's ``addresses`` member from the network info cache (each
    fixed address, then its floating ones)."""
    result: dict[str, list[dict[str, object]]] = {}
    for port in ports:
        found = result.setdefault(port["network"], [])
        kind = "fixed"
        for addr in (port["addr"], *port.get("floating", ())):
            entry = {"addr": addr, "version": 6 if ":" in addr else 4}
            if extended:
                entry["OS-EXT-IPS:type"] = kind
                entry["OS-EXT-IPS-MAC:mac_addr"] = port["mac"]
            found.append(entry)
            kind = "floating"
    return result


def view(req, server, mode="show"):
    """Nova's server representation; ``mode``: show, detail, update, rebuild.

    Before 2.75 update and rebuild answer a reduced representation.
    """
    return Views(req, mode)(server)


class Views:
    """Renders servers for ``req`` in ``mode`` (see :func:`view`):
    ``Views(req, "detail")(server)``.

    Values decoded from stored JSON may be shared by several servers of
    one answer (they are only serialised).
    """

    def __init__(self, req, mode="show"):
        version = req.microversion
        self.req = req
        self.mode = mode
        self.at = {gate: version >= gate for gate in _GATES}
        self.admin = req.context.is_admin
        self.full = mode in ("show", "detail") or self.at["2.75"]
        self.server_url = common.api_url(req, "servers") + "/"
        self.server_bookmark = common.bookmark_url(req, "servers") + "/"
        self.image_bookmark = common.bookmark_url(req, "images") + "/"
        self.flavor_bookmark = common.bookmark_url(req, "flavors") + "/"
        # values computed once per distinct key (see _once)
        self._decoded = {}
        self._host_ids = {}
        self._flavors = {}
        self._volumes_views = {}
        self._zones = {}
        self._host_statuses = {}
        self._faults = {}

    @staticmethod
    def _once(memo, key, make):
        """``make(key)``, computed once per distinct ``key`` in ``memo``."""
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = make(key)
            return value

    def _json(self, text):
        try:
            return self._decoded[text]
        except KeyError:
            value = self._decoded[text] = json.loads(text)
            return value

    def __call__(self, server):
        at, mode = self.at, self.mode
        full = self.full
        status = states.status(server["vm_state"], server["task_state"])
        ports = json.loads(server["ports"])
        ident = server["id"]
        body = {
            "id": ident,
            "name": server["name"],
            "status": status,
            "tenant_id": server["project_id"],
            "user_id": server["user_id"],
            "metadata": self._json(server["metadata"]),
            "hostId": self._once(
                self._host_ids,
                (server["project_id"], server["host"]),
                lambda key: common.host_id(*key),
            ),
            "image": self._image(server["image_ref"]),
            "flavor": self._once(self._flavors, server["flavor"], self._flavor),
            "created": _iso(server["created_at"]),
            "updated": _iso(server["updated_at"]),
            "addresses": (
                {} if server["vm_state"] == "building" else addresses(ports, extended=full)
            ),
            "accessIPv4": server["access_ipv4"] or "",
            "accessIPv6": server["access_ipv6"] or "",
            "links": [
                {"rel": "self", "href": self.server_url + str(ident)},
                {"rel": "bookmark", "href": self.server_bookmark + str(ident)},
            ],
            "OS-DCF:diskConfig": "AUTO" if server["auto_disk_config"] else "MANUAL",
        }
        if status in states.PROGRESS_STATUSES:
            body["progress"] = server["progress"]
        if at["2.9"]:
            body["locked"] = server["locked_by"] is not None
        if at["2.73"]:
            body["locked_reason"] = server["locked_reason"]
        if at["2.19"]:
            body["description"] = server["description"]
        if at["2.26"]:
            body["tags"] = self._json(server["tags"])
        if at["2.63"]:
            certs = server["trusted_certs"]
            body["trusted_image_certificates"] = self._json(certs) if certs else None
        if at["2.96"]:
            body["pinned_availability_zone"] = server["pinned_availability_zone"]
        if full:
            body.update(self._full_attributes(server, ports))
        elif mode == "rebuild" and at["2.54"]:
            body["key_name"] = server["key_name"]
        if self.admin and full and at["2.16"]:
            body["host_status"] = self._once(
                self._host_statuses,
                server["host"],
                lambda host: hosts.host_status(self.req.db, host),
            )
        if mode != "detail" and at["2.71"]:
            body["server_groups"] = server_groups.groups_of(self.req.db, server["id"])
        if status in states.FAULT_STATUSES and server["fault"]:
            body["fault"] = self._once(self._faults, server["fault"], self._fault)
        return body

    def _image(self, ref):
        if not ref:
            return ""
        return {"id": ref, "links": [{"rel": "bookmark", "href": self.image_bookmark + str(ref)}]}

    def _flavor(self, text):
        flavor = json.loads(text)
        if not self.at["2.47"]:
            return {
                "id": flavor["id"],
                "links": [{"rel": "bookmark", "href": self.flavor_bookmark + str(flavor["id"])}],
            }
        return {
            key: flavor[key]
            for key in (
                "vcpus",
                "ram",
                "disk",
                "ephemeral",
                "swap",
                "original_name",
                "extra_specs",
            )
        }

    def _fault(self, text):
        fault = json.loads(text)
        body = {"code": fault["code"], "created": fault["created"], "message": fault["message"]}
        if fault.get("details") and (fault["code"] != 500 or self.admin):
            body["details"] = fault["details"]
        return body

    def _volumes(self, text):
        volumes = []
        for volume in json.loads(text):
            item = {"id": volume["id"]}
            if self.at["2.3"]:
                item["delete_on_termination"] = volume["delete_on_termination"]
            volumes.append(item)
        return volumes

    def _zone(self, server):
        host = server["host"]
        if not host:
            return servers.zone_of(self.req.db, server)
        return self._once(self._zones, host, lambda _: servers.zone_of(self.req.db, server))

    def _full_attributes(self, server, ports):
        at = self.at
        body = {
            "OS-EXT-AZ:availability_zone": self._zone(server) or "",
            "config_drive": server["config_drive"],
            "key_name": server["key_name"],
            "OS-SRV-USG:launched_at": server["launched_at"],
            "OS-SRV-USG:terminated_at": server["terminated_at"],
            "OS-EXT-STS:task_state": server["task_state"],
            "OS-EXT-STS:vm_state": server["vm_state"],
            "OS-EXT-STS:power_state": server["power_state"],
            "os-extended-volumes:volumes_attached": self._once(
                self._volumes_views, server["volumes"], self._volumes
            ),
        }
        # nova's _add_security_grps reads the groups from the server's neutron
        # ports: a server without ports (networks "none") has no such key
        if ports:
            body["security_groups"] = self._json(server["security_groups"])
        if self.admin:
            body.update(
                {
                    "OS-EXT-SRV-ATTR:host": server["host"],
                    "OS-EXT-SRV-ATTR:instance_name": server_rows.instance_name(server["seq"]),
                    "OS-EXT-SRV-ATTR:hypervisor_hostname": server["node"],
                }
            )
            if at["2.3"]:
                body.update(
                    {
                        "OS-EXT-SRV-ATTR:hostname": server["hostname"],
                        "OS-EXT-SRV-ATTR:reservation_id": server["reservation_id"],
                        "OS-EXT-SRV-ATTR:launch_index": server["launch_index"],
                        "OS-EXT-SRV-ATTR:kernel_id": "",
                        "OS-EXT-SRV-ATTR:ramdisk_id": "",
                        "OS-EXT-SRV-ATTR:root_device_name": server["root_device_name"],
                    }
                )
                if self.mode != "rebuild":
                    body["OS-EXT-SRV-ATTR:user_data"] = server["user_data"]
        elif at["2.90"]:
            body["OS-EXT-SRV-ATTR:hostname"] = server["hostname"]
        return body
