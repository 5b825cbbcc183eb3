"""Value checks shared by compute's rules and its API layer."""

import ipaddress

# oslo ``bool_from_string`` truths among the values nova's schemas accept
_TRUE = (True, "True", "TRUE", "true", "1", "ON", "On", "on", "YES", "Yes", "yes")


def truthy(value):
    """A request's boolean (``True``, ``"yes"``, …) as nova reads it."""
    return value in _TRUE


def ipv6(value):
    """An IPv6 address as nova stores it (``IPV6AddressField``: netaddr's
    compressed text), e.g. ``0000:…:babe:220.12.22.2`` → ``::babe:dc0c:1602``;
    None, empty or unparsable values unchanged (the schema checked them)."""
    if not value:
        return value
    try:
        address = ipaddress.IPv6Address(value)
    except ValueError:
        return value
    if address.ipv4_mapped is not None:
        return "::ffff:%s" % address.ipv4_mapped
    return address.compressed
