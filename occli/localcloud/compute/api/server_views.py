"""Nova's server representation (``views/servers.py``) by microversion."""

import datetime
import hashlib
import json

from occli.localcloud import common as clock
from occli.localcloud.compute import hosts, servers, states
from occli.localcloud.compute.api import common


def _iso(text):
    return clock.iso_z(datetime.datetime.fromisoformat(text))


def _host_id(server):
    if not server["host"]:
        return ""
    return hashlib.sha224(
        (server["project_id"] + server["host"]).encode()).hexdigest()


def _image(req, server):
    if not server["image_ref"]:
        return ""
    return {"id": server["image_ref"],
            "links": common.bookmark(req, "images", server["image_ref"])}


def _flavor(req, server):
    flavor = json.loads(server["flavor"])
    if req.microversion < "2.47":
        return {"id": flavor["id"],
                "links": common.bookmark(req, "flavors", flavor["id"])}
    return {key: flavor[key] for key in ("vcpus", "ram", "disk", "ephemeral",
                                         "swap", "original_name",
                                         "extra_specs")}


def _fault(req, server):
    fault = json.loads(server["fault"])
    body = {"code": fault["code"], "created": fault["created"],
            "message": fault["message"]}
    if fault.get("details") and (fault["code"] != 500
                                 or req.context.is_admin):
        body["details"] = fault["details"]
    return body


def addresses(ports, extended=True):
    """Nova's ``addresses`` member from the stored port list."""
    result = {}
    for port in ports:
        entry = {"addr": port["addr"], "version": 4}
        if extended:
            entry["OS-EXT-IPS:type"] = "fixed"
            entry["OS-EXT-IPS-MAC:mac_addr"] = port["mac"]
        result.setdefault(port["network"], []).append(entry)
    return result


def view(req, server, mode="show"):
    """Nova's server representation; ``mode``: show, detail, update, rebuild.

    Before 2.75 update and rebuild answer a reduced representation.
    """
    version = req.microversion
    admin = req.context.is_admin
    full = mode in ("show", "detail") or version >= "2.75"
    status = states.status(server["vm_state"], server["task_state"])
    ports = json.loads(server["ports"])
    body = {
        "id": server["id"],
        "name": server["name"],
        "status": status,
        "tenant_id": server["project_id"],
        "user_id": server["user_id"],
        "metadata": json.loads(server["metadata"]),
        "hostId": _host_id(server),
        "image": _image(req, server),
        "flavor": _flavor(req, server),
        "created": _iso(server["created_at"]),
        "updated": _iso(server["updated_at"]),
        "addresses": ({} if server["vm_state"] == "building"
                      else addresses(ports, extended=full)),
        "accessIPv4": server["access_ipv4"] or "",
        "accessIPv6": server["access_ipv6"] or "",
        "links": common.links(req, "servers", server["id"]),
        "OS-DCF:diskConfig": "AUTO" if server["auto_disk_config"]
        else "MANUAL",
    }
    if status in states.PROGRESS_STATUSES:
        body["progress"] = server["progress"]
    if version >= "2.9":
        body["locked"] = server["locked_by"] is not None
    if version >= "2.73":
        body["locked_reason"] = server["locked_reason"]
    if version >= "2.19":
        body["description"] = server["description"]
    if version >= "2.26":
        body["tags"] = json.loads(server["tags"])
    if version >= "2.63":
        certs = server["trusted_certs"]
        body["trusted_image_certificates"] = json.loads(certs) if certs else None
    if version >= "2.96":
        body["pinned_availability_zone"] = server["pinned_availability_zone"]
    if full:
        body.update(_full_attributes(req, server, mode))
    elif mode == "rebuild" and version >= "2.54":
        body["key_name"] = server["key_name"]
    if admin and full and version >= "2.16":
        body["host_status"] = hosts.host_status(req.db, server["host"])
    if mode != "detail" and version >= "2.71":
        body["server_groups"] = []
    if status in states.FAULT_STATUSES and server["fault"]:
        body["fault"] = _fault(req, server)
    return body


def _full_attributes(req, server, mode):
    version = req.microversion
    volumes = []
    for volume in json.loads(server["volumes"]):
        item = {"id": volume["id"]}
        if version >= "2.3":
            item["delete_on_termination"] = volume["delete_on_termination"]
        volumes.append(item)
    body = {
        "OS-EXT-AZ:availability_zone": servers.zone_of(req.db, server) or "",
        "config_drive": server["config_drive"],
        "key_name": server["key_name"],
        "OS-SRV-USG:launched_at": server["launched_at"],
        "OS-SRV-USG:terminated_at": server["terminated_at"],
        "OS-EXT-STS:task_state": server["task_state"],
        "OS-EXT-STS:vm_state": server["vm_state"],
        "OS-EXT-STS:power_state": server["power_state"],
        "os-extended-volumes:volumes_attached": volumes,
    }
    # nova's _add_security_grps reads the groups from the server's neutron
    # ports: a server without ports (networks "none") has no such key
    if json.loads(server["ports"]):
        body["security_groups"] = json.loads(server["security_groups"])
    if req.context.is_admin:
        body.update({
            "OS-EXT-SRV-ATTR:host": server["host"],
            "OS-EXT-SRV-ATTR:instance_name":
                servers.instance_name(server["seq"]),
            "OS-EXT-SRV-ATTR:hypervisor_hostname": server["node"],
        })
        if version >= "2.3":
            body.update({
                "OS-EXT-SRV-ATTR:hostname": server["hostname"],
                "OS-EXT-SRV-ATTR:reservation_id": server["reservation_id"],
                "OS-EXT-SRV-ATTR:launch_index": server["launch_index"],
                "OS-EXT-SRV-ATTR:kernel_id": "",
                "OS-EXT-SRV-ATTR:ramdisk_id": "",
                "OS-EXT-SRV-ATTR:root_device_name":
                    server["root_device_name"],
            })
            if mode != "rebuild":
                body["OS-EXT-SRV-ATTR:user_data"] = server["user_data"]
    elif version >= "2.90":
        body["OS-EXT-SRV-ATTR:hostname"] = server["hostname"]
    return body
