"""The one tenant network of the local cloud, ``private`` (10.0.0.0/16).

Servers get a fixed IPv4 address and a MAC address on it; the network has a
stable UUID so clients can pass it in ``networks[].uuid``.
"""

import hashlib
import ipaddress
import json

from occli.localcloud import errors
from occli.localcloud.compute import values

PRIVATE_NETWORK_ID = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
PRIVATE_NETWORK_NAME = "private"
SUBNET = ipaddress.IPv4Network("10.0.0.0/16")
_FIRST_HOST = 3  # .1 is the router, .2 the DHCP port


def address_for(seq):
    """The automatically assigned address of the server numbered ``seq``."""
    return str(SUBNET.network_address + _FIRST_HOST + seq - 1)


def in_subnet(address):
    try:
        return ipaddress.ip_address(address) in SUBNET
    except ValueError:
        return False


def mac_for(server_id, index=0):
    """A stable ``fa:16:3e:…`` MAC address (the OpenStack/neutron prefix)."""
    digest = hashlib.sha256(("%s/%d" % (server_id, index)).encode()).digest()
    return "fa:16:3e:%02x:%02x:%02x" % (digest[0], digest[1], digest[2])


def requested_ports(db, requested, count):
    """The ports (``[{"network", "addr"?}]``) a create asks for.

    ``requested``: the request's ``networks`` (None, ``"auto"``, ``"none"``
    or a list of ``{"uuid", "fixed_ip"?, "port"?}``); ``count``: how many
    servers the request makes (a fixed IP is for one only).
    """
    if requested is None or requested == "auto":
        return [{"network": PRIVATE_NETWORK_NAME}]
    if requested == "none":
        return []
    ports = []
    for item in requested:
        if item.get("port"):
            raise errors.BadRequest("Port id %s could not be found." % item["port"])
        net = item.get("uuid")
        if net is None:
            raise errors.BadRequest("Bad network format: missing 'uuid'")
        if not values.is_uuid(net):
            raise errors.BadRequest(
                "Bad networks format: network uuid is not in proper format (%s)" % net
            )
        if net != PRIVATE_NETWORK_ID:
            raise errors.BadRequest("Network %s could not be found." % net)
        port = {"network": PRIVATE_NETWORK_NAME}
        fixed = item.get("fixed_ip")
        if fixed is not None:
            if count > 1:
                raise errors.BadRequest(
                    "max_count cannot be greater than 1 if an fixed_ip is specified."
                )
            if not in_subnet(fixed):
                raise errors.BadRequest(
                    "Fixed IP address %s is not valid for network %s." % (fixed, net)
                )
            if address_in_use(db, fixed):
                raise errors.BadRequest("Fixed IP address %s is already in use." % fixed)
            port["addr"] = fixed
        ports.append(port)
    return ports


def address_in_use(db, address):
    """Whether a live server has the fixed IP ``address``."""
    for row in db.execute(
        "SELECT ports FROM servers WHERE deleted = 0 AND ports LIKE ?", ('%"' + address + '"%',)
    ):
        if any(p["addr"] == address for p in json.loads(row["ports"])):
            return True
    return False


def assign(seq, server_id, ports):
    """The stored ports of server ``seq``: each requested port with its
    address (the fixed one, else one derived from ``seq``) and MAC."""
    return [
        {
            "network": port["network"],
            "addr": port.get("addr") or address_for(seq * 4 + index),
            "mac": mac_for(server_id, index),
        }
        for index, port in enumerate(ports)
    ]
