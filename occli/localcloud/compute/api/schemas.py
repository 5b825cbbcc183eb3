"""JSON schemas of compute request bodies, after nova's ``schemas/*.py``.

Schemas that change with the microversion are built, once per version, by
functions taking the request's :class:`~.microversions.APIVersion` (their
callers only read them).
:func:`validate` raises nova's 400 message for the first schema error.
"""

import copy
import functools
from typing import Any

from occli.localcloud import validation


def one_member(key, schema):
    """An object of exactly the member ``key``, valid for ``schema``: a
    request body such as ``{"reboot": {...}}``."""
    return {
        "type": "object",
        "properties": {key: schema},
        "required": [key],
        "additionalProperties": False,
    }


# keyword order as nova's: the first error in that order is the one reported
name = {"type": "string", "format": "name", "minLength": 1, "maxLength": 255}
description = {
    "type": ["string", "null"],
    "minLength": 0,
    "maxLength": 255,
    "pattern": r"^[^\x00-\x1f\x7f]*$",
}
boolean: dict[str, Any] = {
    "type": ["boolean", "string"],
    "enum": [
        True,
        "True",
        "TRUE",
        "true",
        "1",
        "ON",
        "On",
        "on",
        "YES",
        "Yes",
        "yes",
        False,
        "False",
        "FALSE",
        "false",
        "0",
        "OFF",
        "Off",
        "off",
        "NO",
        "No",
        "no",
    ],
}
positive_integer = {
    "type": ["integer", "string"],
    "pattern": "^[0-9]*$",
    "minimum": 1,
    "minLength": 1,
}
metadata = {
    "type": "object",
    "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": {"type": "string", "maxLength": 255}},
    "additionalProperties": False,
}
uuid_string = {"type": "string", "format": "uuid"}
image_ref = {"type": "string", "format": "uuid"}
image_ref_or_empty = {"oneOf": [image_ref, {"type": "string", "maxLength": 0}]}
flavor_ref = {"type": ["string", "integer"], "minLength": 1}
admin_password = {"type": "string"}
access_ipv4 = {"type": "string", "format": "ipv4"}
access_ipv6 = {"type": "string", "format": "ipv6"}
disk_config = {"type": "string", "enum": ["AUTO", "MANUAL"]}
tag = {"type": "string", "minLength": 1, "maxLength": 60, "pattern": "^[^,/]*$"}
hostname = {"type": "string", "minLength": 2, "maxLength": 63, "format": "hostname"}
fqdn = {"type": "string", "minLength": 2, "maxLength": 255, "format": "fqdn"}
personality = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "contents": {"type": "string", "format": "base64"},
        },
        "additionalProperties": False,
    },
}
# nova's schemas/servers.py _hints (the keys the local cloud's scheduler
# reads): a server uuid, or a list of them
_server_uuids = {"oneOf": [uuid_string, {"type": "array", "items": uuid_string}]}
_hints = {
    "type": "object",
    "properties": {
        "different_host": _server_uuids,
        "same_host": _server_uuids,
        "group": _server_uuids,
    },
    "additionalProperties": True,
}

_bdm_v2: dict[str, Any] = {
    "type": "object",
    "properties": {
        "source_type": {"type": "string", "enum": ["volume", "image", "snapshot", "blank"]},
        "destination_type": {"type": "string", "enum": ["local", "volume"]},
        "uuid": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[a-zA-Z0-9._-]*$",
        },
        "image_id": uuid_string,
        "boot_index": {"type": ["integer", "string", "null"], "pattern": "^-?[0-9]+$"},
        "volume_size": {
            "type": ["integer", "string", "null"],
            "pattern": "^[0-9]+$",
            "minimum": 0,
        },
        "delete_on_termination": boolean,
        "device_name": {"type": ["string", "null"], "maxLength": 255},
        "device_type": {"type": ["string", "null"], "maxLength": 255},
        "disk_bus": {"type": ["string", "null"], "maxLength": 255},
        "guest_format": {"type": ["string", "null"], "maxLength": 255},
        "no_device": {},
        "connection_info": {"type": "string", "maxLength": 16777215},
        "snapshot_id": uuid_string,
        "volume_id": uuid_string,
        "volume_type": {"type": ["string", "null"], "maxLength": 255},
        "tag": tag,
    },
    "additionalProperties": False,
}
_bdm_legacy = {
    "type": "object",
    "properties": {
        "virtual_name": {"type": "string", "maxLength": 255},
        "volume_id": uuid_string,
        "snapshot_id": uuid_string,
        "volume_size": {
            "type": ["integer", "string", "null"],
            "pattern": "^[0-9]+$",
            "minimum": 0,
        },
        "device_name": {"type": "string", "minLength": 1, "maxLength": 255},
        "delete_on_termination": boolean,
        "no_device": {},
        "connection_info": {"type": "string", "maxLength": 16777215},
    },
    "additionalProperties": False,
}


@functools.cache
def server_create(version):
    """``POST /servers`` at ``version``."""
    network: dict[str, Any] = {
        "type": "object",
        "properties": {
            "fixed_ip": {"type": "string", "oneOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
            "port": {"oneOf": [uuid_string, {"type": "null"}]},
            "uuid": {"type": "string"},
        },
        "additionalProperties": False,
    }
    if version >= "2.37":
        network["properties"]["uuid"] = uuid_string
    if version >= "2.42":
        network["properties"]["tag"] = tag
    bdm_v2 = copy.deepcopy(_bdm_v2)
    if version < "2.42":
        del bdm_v2["properties"]["tag"]
    server = {
        "name": name,
        "imageRef": image_ref_or_empty,
        "flavorRef": flavor_ref,
        "adminPass": admin_password,
        "metadata": metadata,
        "networks": {"type": "array", "items": network},
        "OS-DCF:diskConfig": disk_config,
        "accessIPv4": access_ipv4,
        "accessIPv6": access_ipv6,
        "personality": personality,
        "availability_zone": name,
        "block_device_mapping": {"type": "array", "items": _bdm_legacy},
        "block_device_mapping_v2": {"type": "array", "items": bdm_v2},
        "config_drive": boolean,
        "key_name": name,
        "min_count": positive_integer,
        "max_count": positive_integer,
        "return_reservation_id": boolean,
        "security_groups": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": name},
                "additionalProperties": False,
            },
        },
        "user_data": {"type": "string", "format": "base64", "maxLength": 65535},
    }
    required = ["name", "flavorRef"]
    if version >= "2.19":
        server["description"] = description
    if version >= "2.37":
        server["networks"] = {
            "oneOf": [
                {"type": "array", "items": network},
                {"type": "string", "enum": ["none", "auto"]},
            ]
        }
        required.append("networks")
    if version >= "2.52":
        server["tags"] = {"type": "array", "items": tag, "maxItems": 50}
    if version >= "2.57":
        del server["personality"]
    if version >= "2.63":
        server["trusted_image_certificates"] = {
            "type": ["array", "null"],
            "minItems": 1,
            "maxItems": 50,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1},
        }
    if version >= "2.74":
        server["host"] = {"type": "string", "minLength": 1, "maxLength": 255}
        server["hypervisor_hostname"] = {"type": "string", "minLength": 1, "maxLength": 255}
    if version >= "2.90":
        server["hostname"] = fqdn if version >= "2.94" else hostname
    return {
        "type": "object",
        "properties": {
            "server": {
                "type": "object",
                "properties": server,
                "required": required,
                "additionalProperties": False,
            },
            "os:scheduler_hints": _hints,
            "OS-SCH-HNT:scheduler_hints": _hints,
        },
        "required": ["server"],
        "additionalProperties": False,
    }


@functools.cache
def server_update(version):
    """``PUT /servers/{id}`` at ``version``."""
    server = {
        "name": name,
        "accessIPv4": access_ipv4,
        "accessIPv6": access_ipv6,
        "OS-DCF:diskConfig": disk_config,
    }
    if version >= "2.19":
        server["description"] = description
    if version >= "2.90":
        server["hostname"] = fqdn if version >= "2.94" else hostname
    return one_member(
        "server", {"type": "object", "properties": server, "additionalProperties": False}
    )


@functools.cache
def rebuild(version):
    """The ``rebuild`` action at ``version``."""
    body = {
        "name": name,
        "imageRef": image_ref,
        "adminPass": admin_password,
        "metadata": metadata,
        "preserve_ephemeral": boolean,
        "OS-DCF:diskConfig": disk_config,
        "accessIPv4": access_ipv4,
        "accessIPv6": access_ipv6,
        "personality": personality,
    }
    if version >= "2.19":
        body["description"] = description
    if version >= "2.54":
        body["key_name"] = {"anyOf": [name, {"type": "null"}]}
    if version >= "2.57":
        del body["personality"]
        body["user_data"] = {"type": ["string", "null"], "format": "base64", "maxLength": 65535}
    if version >= "2.63":
        # nova's parameter_types.trusted_certs, as on create
        body["trusted_image_certificates"] = {
            "type": ["array", "null"],
            "minItems": 1,
            "maxItems": 50,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1},
        }
    if version >= "2.90":
        body["hostname"] = fqdn if version >= "2.94" else hostname
    return one_member(
        "rebuild",
        {
            "type": "object",
            "properties": body,
            "required": ["imageRef"],
            "additionalProperties": False,
        },
    )


reboot = one_member(
    "reboot",
    {
        "type": "object",
        "properties": {
            "type": {
                "type": "string",
                "enum": ["HARD", "Hard", "hard", "SOFT", "Soft", "soft"],
            }
        },
        "required": ["type"],
        "additionalProperties": False,
    },
)

resize = one_member(
    "resize",
    {
        "type": "object",
        "properties": {"flavorRef": flavor_ref, "OS-DCF:diskConfig": disk_config},
        "required": ["flavorRef"],
        "additionalProperties": False,
    },
)

create_image = one_member(
    "createImage",
    {
        "type": "object",
        "properties": {
            "name": name,
            "metadata": {
                "type": "object",
                "patternProperties": {
                    "^[a-zA-Z0-9-_:. ]{1,255}$": {"type": "string", "maxLength": 255}
                },
                "additionalProperties": False,
            },
        },
        "required": ["name"],
        "additionalProperties": False,
    },
)

lock_v273 = one_member(
    "lock",
    {
        "type": ["object", "null"],
        "properties": {"locked_reason": {"type": "string", "minLength": 1, "maxLength": 255}},
        "additionalProperties": False,
    },
)

console_output = one_member(
    "os-getConsoleOutput",
    {
        "type": ["object", "null"],
        "properties": {
            "length": {
                "type": ["integer", "string", "null"],
                "pattern": "^-?[0-9]+$",
                "minimum": -1,
            }
        },
        "additionalProperties": False,
    },
)

metadata_set = one_member("metadata", metadata)

metadata_item = one_member(
    "meta",
    {
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "patternProperties": metadata["patternProperties"],
        "additionalProperties": False,
    },
)


@functools.cache
def keypair_create(version):
    """``POST /os-keypairs`` at ``version`` (nova's schemas/keypairs.py:
    property order and the name's ``allOf`` as there, so the first error
    found is nova's)."""
    pattern = r"^[_\-\@\. a-zA-Z0-9]+$" if version >= "2.92" else r"^[_\- a-zA-Z0-9]+$"
    special = {"type": "string", "pattern": pattern, "minLength": 1, "maxLength": 255}
    props: dict[str, Any] = {"name": {"allOf": [name, special]}}
    if version >= "2.2":
        props["type"] = {"type": "string", "enum": ["ssh", "x509"]}
    props["public_key"] = {"type": "string"}
    required = ["name"]
    if version >= "2.10":
        props["user_id"] = {"type": "string"}
    if version >= "2.92":
        required.append("public_key")
    return one_member(
        "keypair",
        {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
        },
    )


# nova parameter_types.fqdn (the services table's host), service schemas
_service_host = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    "pattern": "^[a-zA-Z0-9-._]*$",
}
_service_binary = {"type": "string", "minLength": 1, "maxLength": 255}
_disabled_reason = {"type": "string", "minLength": 1, "maxLength": 255}


@functools.cache
def service_update(version):
    """nova ``service_update`` (2.1-2.10), ``_v211`` (up to 2.52), 2.53."""
    if version >= "2.53":
        return {
            "type": "object",
            "properties": {
                "status": {"type": "string", "enum": ["enabled", "disabled"]},
                "disabled_reason": _disabled_reason,
                "forced_down": boolean,
            },
            "additionalProperties": False,
        }
    props = {"host": _service_host, "binary": _service_binary, "disabled_reason": _disabled_reason}
    if version >= "2.11":
        props["forced_down"] = boolean
    return {
        "type": "object",
        "properties": props,
        "required": ["host", "binary"],
        "additionalProperties": False,
    }


# os-aggregates (nova's schemas/aggregates.py and aggregate_images.py)
# nova's aggregates _availability_zone: an az_name (no ':') or null
_az = {
    "oneOf": [
        {"type": "string", "format": "az_name", "minLength": 1, "maxLength": 255},
        {"type": "null"},
    ]
}
_aggregate_name = {"type": "string", "minLength": 1, "maxLength": 255}
_aggregate_host = one_member("host", _service_host)

aggregate_create = one_member(
    "aggregate",
    {
        "type": "object",
        "properties": {"name": _aggregate_name, "availability_zone": _az},
        "required": ["name"],
        "additionalProperties": False,
    },
)
aggregate_update = one_member(
    "aggregate",
    {
        "type": "object",
        "properties": {"name": _aggregate_name, "availability_zone": _az},
        "additionalProperties": False,
        "anyOf": [{"required": ["name"]}, {"required": ["availability_zone"]}],
    },
)
# the body of each POST /os-aggregates/{id}/action, by action
aggregate_actions = {
    "add_host": _aggregate_host,
    "remove_host": _aggregate_host,
    "set_metadata": one_member(
        "metadata",
        {
            "type": "object",
            "patternProperties": {
                "^[a-zA-Z0-9-_:. ]{1,255}$": {"type": ["string", "null"], "maxLength": 255}
            },
            "additionalProperties": False,
        },
    ),
}
aggregate_images = one_member(
    "cache",
    {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "properties": {"id": {"type": "string", "format": "uuid"}},
            "required": ["id"],
            "additionalProperties": False,
        },
    },
)


def validate(schema, body):
    """Validate ``body`` like nova's ``@validation.schema``: the first error
    ``iter_errors`` yields (nova's ``validate()``, not jsonschema's
    best_match), a 400 with nova's text."""
    return validation.check(schema, body)
