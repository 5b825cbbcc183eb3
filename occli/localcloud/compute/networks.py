"""The one tenant network of the local cloud, ``private`` (10.0.0.0/16).

Servers get a fixed IPv4 address and a MAC address on it; the network has a
stable UUID so clients can pass it in ``networks[].uuid``.
"""

import hashlib
import ipaddress

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


def addresses_view(ports, extended=True):
    """Nova's ``addresses`` member from the stored port list."""
    result = {}
    for port in ports:
        entry = {"addr": port["addr"], "version": 4}
        if extended:
            entry["OS-EXT-IPS:type"] = "fixed"
            entry["OS-EXT-IPS-MAC:mac_addr"] = port["mac"]
        result.setdefault(port["network"], []).append(entry)
    return result
