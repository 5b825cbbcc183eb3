"""Neutron's request-body checks (``neutron_lib.api.attributes``): the
resource member, unknown and read-only attributes, and each attribute's
validator and converter, with neutron's 400 texts."""

import ipaddress
import re

from occli.localcloud import errors

_UUID = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")
_MAC = re.compile(r"^[0-9a-fA-F]{1,2}([:-])([0-9a-fA-F]{1,2}\1){4}[0-9a-fA-F]{1,2}$")
NAME_MAX_LEN = 255
DESCRIPTION_MAX_LEN = 255


def bad_request(message, kind="HTTPBadRequest"):
    return errors.BadRequest(message, type=kind)


def invalid_input(message):
    """neutron_lib's ``InvalidInput``."""
    return errors.BadRequest("Invalid input for operation: %s." % message, type="InvalidInput")


def _invalid(attr, reason):
    return bad_request("Invalid input for %s. Reason: %s." % (attr, reason))


def is_uuid(value: object) -> bool:
    return isinstance(value, str) and bool(_UUID.match(value))


# -- validators: (attr, value) -> converted value, or raise ---------------------------


def string(max_len=NAME_MAX_LEN):
    def check(attr, value):
        if not isinstance(value, str):
            raise _invalid(attr, "'%s' is not a valid string" % (value,))
        if len(value) > max_len:
            raise _invalid(attr, "'%s' exceeds maximum length of %d" % (value, max_len))
        return value

    return check


def boolean(attr, value):
    """``convert_to_boolean``: booleans, 0/1 and their text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    raise invalid_input("'%s' cannot be converted to boolean" % (value,))


def uuid(attr, value):
    if not is_uuid(value):
        raise _invalid(attr, "'%s' is not a valid UUID" % (value,))
    return value


def uuid_or_none(attr, value):
    return None if value is None else uuid(attr, value)


def ip_address(attr, value):
    if not isinstance(value, str):
        raise _invalid(attr, "'%s' is not a valid IP address" % (value,))
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise _invalid(attr, "'%s' is not a valid IP address" % value) from None


def ip_or_none(attr, value):
    return None if value is None else ip_address(attr, value)


def mac_address(attr, value):
    """``validate_mac_address`` (netaddr's ``valid_mac``: octets of one or
    two digits, ``:`` or ``-`` between them), stored as neutron stores it:
    ``aa:bb:cc:dd:ee:ff``."""
    if not isinstance(value, str) or not _MAC.match(value):
        raise _invalid(attr, "'%s' is not a valid MAC address" % (value,))
    return ":".join("%02x" % int(octet, 16) for octet in re.split("[:-]", value))


def cidr(attr, value):
    if not isinstance(value, str):
        raise _invalid(attr, "'%s' is not a valid IP subnet" % (value,))
    try:
        net = ipaddress.ip_network(value, strict=False)
    except ValueError:
        raise _invalid(attr, "'%s' is not a valid IP subnet" % value) from None
    if str(net) != value:
        raise _invalid(
            attr, "'%s' isn't a recognized IP subnet cidr, '%s' is recommended" % (value, net)
        )
    return value


def subnet_cidr(attr, value):
    """A subnet's ``cidr``: neutron-lib's ``convert_to_cidr`` (host bits
    dropped: ``10.3.0.1/24`` is ``10.3.0.0/24``), its InvalidInput else."""
    try:
        return str(ipaddress.ip_network(value, strict=False))
    except (TypeError, ValueError):
        raise invalid_input("%s is not in a CIDR format" % (value,)) from None


def integer(low, high):
    """``convert_to_int`` (its InvalidInput) and ``validate_range``."""

    def check(attr, value):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise invalid_input("'%s' is not an integer" % (value,))
        try:
            number = int(value)
        except ValueError:
            raise invalid_input("'%s' is not an integer" % value) from None
        if not low <= number <= high:
            raise _invalid(attr, "'%s' is not in range %s through %s" % (value, low, high))
        return number

    return check


def integer_or_none(low, high):
    inner = integer(low, high)
    return lambda attr, value: None if value is None else inner(attr, value)


def one_of(*choices, none=False):
    """neutron-lib 5's ``validate_values``, which names no choices."""

    def check(attr, value):
        if value is None and none:
            return None
        if isinstance(value, bool) or value not in choices:
            raise _invalid(attr, "%s is not in valid_values" % (value,))
        return value

    return check


def nameservers(attr, value):
    """neutron-lib's ``validate_nameservers``: a list of addresses, each
    refused with the address check's reason after its own."""
    if not isinstance(value, list):
        raise _invalid(attr, "'%s' is not a list" % (value,))
    for host in value:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise _invalid(
                attr,
                "'%s' is not a valid nameserver. '%s' is not a valid IP address" % (host, host),
            ) from None
    return value


def list_of(inner):
    def check(attr, value):
        if not isinstance(value, list):
            raise _invalid(attr, "'%s' is not a list" % (value,))
        return [inner(attr, item) for item in value]

    return check


def fixed_ips(attr, value):
    """neutron-lib's ``validate_fixed_ips``: a list of dicts whose
    ``ip_address`` (once each) and ``subnet_id`` are well formed; which
    subnet and address they name is the plugin's concern, after policy."""
    if not isinstance(value, list):
        raise _invalid(attr, "Invalid data format for fixed IP: '%s'" % (value,))
    seen = []
    for item in value:
        if not isinstance(item, dict):
            raise _invalid(attr, "Invalid data format for fixed IP: '%s'" % (item,))
        if "ip_address" in item:
            if item["ip_address"] in seen:
                raise _invalid(attr, "Duplicate IP address '%s'" % (item["ip_address"],))
            ip_address(attr, item["ip_address"])
            seen.append(item["ip_address"])
        if "subnet_id" in item:
            uuid(attr, item["subnet_id"])
    return value


def anything(attr, value):
    return value


# neutron's max_allowed_address_pair (neutron/conf/extensions/allowedaddresspairs.py)
MAX_ADDRESS_PAIRS = 10
_MULTICAST = {4: ipaddress.ip_network("224.0.0.0/4"), 6: ipaddress.ip_network("ff00::/8")}


def _pair_address(value):
    """``validate_subnet``/``validate_ip_address`` and their multicast
    checks on a pair's ``ip_address``: None, else why it is refused."""
    if not isinstance(value, str):
        return "'%s' is not a valid IP address" % (value,)
    if "/" in value:
        try:
            net = ipaddress.ip_interface(value)
        except ValueError:
            return "'%s' is not a valid IP subnet" % value
        if net.version == 4 and str(net) != value:
            return "'%s' is not a valid IP subnet" % value
        network = net.network
        if network != ipaddress.ip_network("0.0.0.0/0") and network.overlaps(
            _MULTICAST[net.version]
        ):
            return "Subnet %s overlaps with multicast range %s, which is not supported." % (
                value,
                _MULTICAST[net.version],
            )
        return None
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return "'%s' is not a valid IP address" % value
    if address.is_multicast:
        return "IP %s is a multicast address, which is not supported." % value
    return None


def allowed_address_pairs(attr, value):
    """neutron-lib's ``_validate_allowed_address_pairs`` (after
    ``convert_none_to_empty_list``), with its exceptions' types and texts."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad_request("Allowed address pairs must be a list.")
    if len(value) > MAX_ADDRESS_PAIRS:
        raise errors.BadRequest(
            "The number of allowed address pair exceeds the maximum %d." % MAX_ADDRESS_PAIRS,
            type="AllowedAddressPairExhausted",
        )
    seen = set()
    for pair in value:
        if not isinstance(pair, dict):
            raise _invalid(attr, "'%s' is not a dictionary" % (pair,))
        mac = pair.get("mac_address")
        if "mac_address" in pair and (not isinstance(mac, str) or not _MAC.match(mac)):
            raise bad_request("'%s' is not a valid MAC address" % (mac,))
        if "ip_address" not in pair:
            raise errors.BadRequest(
                "AllowedAddressPair must contain ip_address", type="AllowedAddressPairsMissingIP"
            )
        key = (mac, str(pair["ip_address"]))
        if key in seen:
            raise errors.BadRequest(
                "Request contains duplicate address pair: mac_address %s ip_address %s."
                % (mac, pair["ip_address"]),
                type="DuplicateAddressPairInRequest",
            )
        seen.add(key)
        unknown = set(pair) - {"mac_address", "ip_address"}
        if unknown:
            raise bad_request("Unrecognized attribute(s) '%s'" % ", ".join(sorted(unknown)))
        problem = _pair_address(pair["ip_address"])
        if problem:
            raise bad_request(problem)
        if mac is not None and int(mac.split(":")[0], 16) & 1:
            raise bad_request(
                "MAC address %s is a multicast address, which is not supported." % mac
            )
    return value


def _keys_text(keys):
    # a Python set as neutron-lib prints it (sorted: one text every run)
    return "{%s}" % ", ".join(repr(k) for k in sorted(keys))


def _route_cidr(value):
    """``validate_route_cidr``: None, else why ``value`` is no routable CIDR."""
    try:
        net = ipaddress.ip_network(value, strict=True)
        if "/" not in value or value != value.strip():
            raise ValueError(value)
    except (TypeError, ValueError):
        return "'%s' is not a valid CIDR" % (value,)
    if net.is_loopback:
        return "'%s' is not a routable CIDR" % (value,)
    return None


def host_routes(attr, value):
    """neutron-lib's ``validate_hostroutes`` (``convert_none_to_empty_list``
    first): a list of unique ``{"destination", "nexthop"}`` dicts."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _invalid(attr, "Invalid data format for hostroute: '%s'" % (value,))
    seen = []
    for route in value:
        if not isinstance(route, dict):
            raise _invalid(
                attr,
                "Invalid input. '%s' must be a dictionary with keys: "
                "['destination', 'nexthop']" % (route,),
            )
        if set(route) != {"destination", "nexthop"}:
            raise _invalid(
                attr,
                "Validation of dictionary's keys failed. Expected keys: %s Provided keys: %s"
                % (_keys_text(["destination", "nexthop"]), _keys_text(route)),
            )
        problem = _route_cidr(route["destination"])
        if problem:
            raise _invalid(attr, problem)
        ip_address(attr, route["nexthop"])
        if route in seen:
            raise _invalid(attr, "Duplicate hostroute '%s'" % (route,))
        seen.append(route)
    return value


# -- the body ---------------------------------------------------------------------------


class Attr:
    """One attribute: its validator, whether POST/PUT may set it and its
    default on create (``REQUIRED``: none)."""

    def __init__(self, check, post=True, put=True, default=None):
        self.check = check
        self.post = post
        self.put = put
        self.default = default


REQUIRED = object()


def parse(body, member, spec, create):
    """The attributes of ``{member: {...}}`` checked against ``spec``
    (``{name: Attr}``); on create, defaults filled in, required ones
    enforced. ``project_id``/``tenant_id`` are accepted on create and
    returned as ``project_id`` when given."""
    if not isinstance(body, dict) or member not in body:
        raise bad_request(
            "Resource body required"
            if not body
            else "Unable to find '%s' in request body" % member
        )
    data = body[member]
    if not isinstance(data, dict):
        raise bad_request("Invalid format: %s" % (data,))
    extra = [key for key in body if key != member]
    unknown = sorted(
        key for key in data if key not in spec and key not in ("project_id", "tenant_id")
    )
    if unknown or extra:
        raise bad_request("Unrecognized attribute(s) '%s'" % ", ".join(unknown + extra))
    values: dict[str, object] = {}
    for key in ("project_id", "tenant_id"):
        if key in data:
            if not create:
                raise bad_request("Cannot update read-only attribute %s" % key)
            project = string()(key, data[key])
            if values.get("project_id", project) != project:
                raise bad_request("'project_id' and 'tenant_id' do not match")
            values["project_id"] = project
    for key, attr in spec.items():
        if key not in data:
            if create and attr.default is REQUIRED:
                raise bad_request(
                    "Failed to parse request. Required attribute '%s' not specified" % key
                )
            if create and attr.post:
                values[key] = attr.default() if callable(attr.default) else attr.default
            continue
        if create and not attr.post:
            raise bad_request("Attribute '%s' not allowed in POST" % key)
        if not create and not attr.put:
            raise bad_request("Cannot update read-only attribute %s" % key)
        values[key] = attr.check(key, data[key])
    return values


def invalid_input_named(message, kind):
    """A neutron ``InvalidInput`` subclass (its own ``type``)."""
    return errors.BadRequest(message, type=kind)
