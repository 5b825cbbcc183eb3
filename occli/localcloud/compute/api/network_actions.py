"""The server actions of nova's network APIs: ``addFixedIp``/
``removeFixedIp`` (multinic) and ``addFloatingIp``/``removeFloatingIp``
through 2.43 (nova removed them at 2.44: 404 after), ``addSecurityGroup``/
``removeSecurityGroup``. Registered in ``server_actions.ACTIONS``; the
rules are in :mod:`occli.localcloud.compute.networks`."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import networks
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

# nova's microversion removing the multinic and floating IP actions
REMOVED_AT = "2.44"

_IP = {"type": "string", "oneOf": [{"format": "ipv4"}, {"format": "ipv6"}]}
_NAME = {"type": "string", "minLength": 1, "maxLength": 255}


def _schema(action, properties, required):
    return schemas.one_member(
        action,
        {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        },
    )


ADD_FIXED_IP = _schema(
    "addFixedIp",
    {"networkId": {"type": ["string", "number"], "minLength": 1, "maxLength": 255}},
    ["networkId"],
)
REMOVE_FIXED_IP = _schema("removeFixedIp", {"address": _IP}, ["address"])
ADD_FLOATING_IP = _schema("addFloatingIp", {"address": _IP, "fixed_address": _IP}, ["address"])
REMOVE_FLOATING_IP = _schema("removeFloatingIp", {"address": _IP}, ["address"])
ADD_SECURITY_GROUP = _schema("addSecurityGroup", {"name": _NAME}, ["name"])
REMOVE_SECURITY_GROUP = _schema("removeSecurityGroup", {"name": _NAME}, ["name"])


def _until_243(req):
    if req.microversion >= REMOVED_AT:
        raise HTTPError(404, "The resource could not be found.")


def add_fixed_ip(req, server, value):
    _until_243(req)
    value = schemas.validate(ADD_FIXED_IP, {"addFixedIp": value})["addFixedIp"]
    networks.add_fixed_ip(req.db, common.caller(req), server, str(value["networkId"]))
    return Response(202)


def remove_fixed_ip(req, server, value):
    _until_243(req)
    value = schemas.validate(REMOVE_FIXED_IP, {"removeFixedIp": value})["removeFixedIp"]
    networks.remove_fixed_ip(req.db, common.caller(req), server, value["address"])
    return Response(202)


def add_floating_ip(req, server, value):
    _until_243(req)
    value = schemas.validate(ADD_FLOATING_IP, {"addFloatingIp": value})["addFloatingIp"]
    networks.add_floating_ip(
        req.db, common.caller(req), server, value["address"], value.get("fixed_address")
    )
    return Response(202)


def remove_floating_ip(req, server, value):
    _until_243(req)
    value = schemas.validate(REMOVE_FLOATING_IP, {"removeFloatingIp": value})["removeFloatingIp"]
    networks.remove_floating_ip(req.db, common.caller(req), server, value["address"])
    return Response(202)


def add_security_group(req, server, value):
    value = schemas.validate(ADD_SECURITY_GROUP, {"addSecurityGroup": value})
    networks.add_security_group(
        req.db, common.caller(req), server, value["addSecurityGroup"]["name"].strip()
    )
    return Response(202)


def remove_security_group(req, server, value):
    value = schemas.validate(REMOVE_SECURITY_GROUP, {"removeSecurityGroup": value})
    networks.remove_security_group(
        req.db, common.caller(req), server, value["removeSecurityGroup"]["name"].strip()
    )
    return Response(202)


# action: (handler, lowest microversion), as server_actions.ACTIONS
ACTIONS = {
    "addFixedIp": (add_fixed_ip, None),
    "removeFixedIp": (remove_fixed_ip, None),
    "addFloatingIp": (add_floating_ip, None),
    "removeFloatingIp": (remove_floating_ip, None),
    "addSecurityGroup": (add_security_group, None),
    "removeSecurityGroup": (remove_security_group, None),
}
# nova's policy rule of each action
POLICY_RULES = {
    "addFixedIp": "os-multinic:add",
    "removeFixedIp": "os-multinic:remove",
    "addFloatingIp": "os-floating-ips:add",
    "removeFloatingIp": "os-floating-ips:remove",
    "addSecurityGroup": "os-security-groups:add",
    "removeSecurityGroup": "os-security-groups:remove",
}
