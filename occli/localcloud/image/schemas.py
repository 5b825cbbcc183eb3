"""Glance's JSON schemas, served at ``/v2/schemas/…``: the bodies Glance 33
builds in Python, in its key order.

Read in glance 33: ``glance/schema.py`` (``Schema.raw``/``minimal``,
``PermissiveSchema``, ``CollectionSchema``, ``DictCollectionSchema``),
``glance/api/v2/schemas.py`` (which body is raw, which minimal),
``images.get_base_properties`` with ``etc/schema-image.json`` (the custom
properties DevStack installs), ``image_members._MEMBER_SCHEMA``,
``tasks._TASK_SCHEMA`` and the ``metadef_*.py`` schemas (their required
members are the WSME models' mandatory attributes). :data:`SCHEMAS` maps a
name under ``/v2/schemas/`` to its body.
"""

import copy
from typing import Any

from occli.localcloud.image import writes

_UUID = "^([0-9a-fA-F]){8}-([0-9a-fA-F]){4}-([0-9a-fA-F]){4}-([0-9a-fA-F]){4}-([0-9a-fA-F]){12}$"
_READ_ONLY_TEXT = {"readOnly": True, "type": "string"}

# get_base_properties' order; the members the local Glance also validates
# on create come from writes.SCHEMA (one text for each)
_IMAGE_ORDER = (
    "id",
    "name",
    "status",
    "visibility",
    "protected",
    "os_hidden",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "owner",
    "size",
    "virtual_size",
    "container_format",
    "disk_format",
    "created_at",
    "updated_at",
    "tags",
    "direct_url",
    "min_ram",
    "min_disk",
    "self",
    "file",
    "stores",
    "schema",
    "locations",
)
_IMAGE_EXTRA: dict[str, Any] = {
    "direct_url": {
        "type": "string",
        "readOnly": True,
        "description": "URL to access the image file kept in external store",
    },
    "self": {"type": "string", "readOnly": True, "description": "An image self url"},
    "file": {"type": "string", "readOnly": True, "description": "An image file url"},
    "stores": {
        "type": "string",
        "readOnly": True,
        "description": "Store in which image data resides.  Only present when the operator"
        " has enabled multiple stores.  May be a comma-separated list of store identifiers.",
    },
    "schema": {"type": "string", "readOnly": True, "description": "An image schema url"},
    "locations": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "url": {"type": "string", "maxLength": 255},
                "metadata": {"type": "object"},
                "validation_data": {
                    "description": "Values to be used to populate the corresponding image"
                    " properties. If the image status is not 'queued', values must exactly"
                    " match those already contained in the image properties.",
                    "type": "object",
                    "writeOnly": True,
                    "additionalProperties": False,
                    "properties": {
                        "checksum": {"type": "string", "minLength": 32, "maxLength": 32},
                        "os_hash_algo": {"type": "string", "maxLength": 64},
                        "os_hash_value": {"type": "string", "maxLength": 128},
                    },
                    "required": ["os_hash_algo", "os_hash_value"],
                },
            },
            "required": ["url", "metadata"],
        },
        "description": "A set of URLs to access the image file kept in external store",
    },
}

_PROPERTY_KEYS = "https://docs.openstack.org/python-glanceclient/latest/cli/property-keys.html"
# etc/schema-image.json, marked ``is_base: false`` by images.get_schema
_IMAGE_CUSTOM: dict[str, Any] = {
    "kernel_id": {
        "type": ["null", "string"],
        "pattern": _UUID,
        "description": "ID of image stored in Glance that should be used as the kernel"
        " when booting an AMI-style image.",
    },
    "ramdisk_id": {
        "type": ["null", "string"],
        "pattern": _UUID,
        "description": "ID of image stored in Glance that should be used as the ramdisk"
        " when booting an AMI-style image.",
    },
    "instance_uuid": {
        "type": "string",
        "description": "Metadata which can be used to record which instance this image is"
        " associated with. (Informational only, does not create an instance snapshot.)",
    },
    "architecture": {
        "description": "Operating system architecture as specified in " + _PROPERTY_KEYS,
        "type": "string",
    },
    "os_distro": {
        "description": "Common name of operating system distribution as specified in "
        + _PROPERTY_KEYS,
        "type": "string",
    },
    "os_version": {
        "description": "Operating system version as specified by the distributor.",
        "type": "string",
    },
    "description": {
        "description": "A human-readable string describing this image.",
        "type": "string",
    },
    "cinder_encryption_key_id": {
        "description": "Identifier in the OpenStack Key Management Service for the"
        " encryption key for the Block Storage Service to use when mounting a volume"
        " created from this image",
        "type": "string",
    },
    "cinder_encryption_key_deletion_policy": {
        "description": "States the condition under which the Image Service will delete"
        " the object associated with the 'cinder_encryption_key_id' image property.  If"
        " this property is missing, the Image Service will take no action",
        "type": "string",
        "enum": ["on_image_deletion", "do_not_delete"],
    },
}

_MEMBER: dict[str, Any] = {
    "member_id": {
        "type": "string",
        "description": "An identifier for the image member (tenantId)",
    },
    "image_id": {"type": "string", "description": "An identifier for the image", "pattern": _UUID},
    "created_at": {"type": "string", "description": "Date and time of image member creation"},
    "updated_at": {
        "type": "string",
        "description": "Date and time of last modification of image member",
    },
    "status": {
        "type": "string",
        "description": "The status of this image member",
        "enum": ["pending", "accepted", "rejected"],
    },
    "schema": _READ_ONLY_TEXT,
}

_TASK: dict[str, Any] = {
    "id": {"description": "An identifier for the task", "pattern": _UUID, "type": "string"},
    "type": {
        "description": "The type of task represented by this content",
        "enum": ["import", "api_image_import", "location_import"],
        "type": "string",
    },
    "status": {
        "description": "The current status of this task",
        "enum": ["pending", "processing", "success", "failure"],
        "type": "string",
    },
    "input": {
        "description": "The parameters required by task, JSON blob",
        "type": ["null", "object"],
    },
    "result": {
        "description": "The result of current task, JSON blob",
        "type": ["null", "object"],
    },
    "owner": {"description": "An identifier for the owner of this task", "type": "string"},
    "message": {
        "description": "Human-readable informative message only included when appropriate"
        " (usually on failure)",
        "type": "string",
    },
    "image_id": {"description": "Image associated with the task", "type": "string"},
    "request_id": {"description": "Human-readable informative request-id", "type": "string"},
    "user_id": {"description": "User associated with the task", "type": "string"},
    "expires_at": {
        "description": "Datetime when this resource would be subject to removal",
        "type": ["null", "string"],
    },
    "created_at": {"description": "Datetime when this resource was created", "type": "string"},
    "updated_at": {"description": "Datetime when this resource was updated", "type": "string"},
    "self": _READ_ONLY_TEXT,
    "schema": _READ_ONLY_TEXT,
}

_TYPES = ["array", "boolean", "integer", "number", "object", "string", None]


def _definitions(min_items: bool = False) -> dict[str, Any]:
    """metadef_namespaces.get_schema_definitions (``min_items``: the
    ``stringArray`` of metadef_properties, which has ``minItems: 1``)."""
    string_array: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
    if min_items:
        string_array["minItems"] = 1
    string_array["uniqueItems"] = True
    return {
        "positiveInteger": {"type": "integer", "minimum": 0},
        "positiveIntegerDefault0": {
            "allOf": [{"$ref": "#/definitions/positiveInteger"}, {"default": 0}]
        },
        "stringArray": string_array,
    }


def _property_members() -> dict[str, Any]:
    """The members of one metadef property (``definitions.property``)."""
    return {
        "name": {"type": "string", "maxLength": 80},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "operators": {"type": "array", "items": {"type": "string"}},
        "type": {"type": "string", "enum": list(_TYPES)},
        "required": {"$ref": "#/definitions/stringArray"},
        "minimum": {"type": "number"},
        "maximum": {"type": "number"},
        "maxLength": {"$ref": "#/definitions/positiveInteger"},
        "minLength": {"$ref": "#/definitions/positiveIntegerDefault0"},
        "pattern": {"type": "string", "format": "regex"},
        "enum": {"type": "array"},
        "readonly": {"type": "boolean"},
        "default": {},
        "items": {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": list(_TYPES)},
                "enum": {"type": "array"},
            },
        },
        "maxItems": {"$ref": "#/definitions/positiveInteger"},
        "minItems": {"$ref": "#/definitions/positiveIntegerDefault0"},
        "uniqueItems": {"type": "boolean", "default": False},
        "additionalItems": {"type": "boolean"},
    }


def _namespace_definitions() -> dict[str, Any]:
    definitions = _definitions()
    definitions["property"] = {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "required": ["title", "type"],
            "properties": _property_members(),
        },
    }
    return definitions


def _stamps(what: str, modified: str | None = None) -> dict[str, Any]:
    """``created_at``/``updated_at`` of a metadef (date-time, read-only)."""
    return {
        "created_at": {
            "type": "string",
            "readOnly": True,
            "description": "Date and time of %s" % what,
            "format": "date-time",
        },
        "updated_at": {
            "type": "string",
            "readOnly": True,
            "description": "Date and time of the last %s modification" % (modified or what),
            "format": "date-time",
        },
    }


def _named_items(**extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object", "properties": extra}}


_TEXT = {"type": "string"}


def _namespace() -> dict[str, Any]:
    stamps = _stamps("namespace creation", "namespace")
    return {
        "namespace": {
            "type": "string",
            "description": "The unique namespace text.",
            "maxLength": 80,
        },
        "display_name": {
            "type": "string",
            "description": "The user friendly name for the namespace. Used by UI if available.",
            "maxLength": 80,
        },
        "description": {
            "type": "string",
            "description": "Provides a user friendly description of the namespace.",
            "maxLength": 500,
        },
        "visibility": {
            "type": "string",
            "description": "Scope of namespace accessibility.",
            "enum": ["public", "private"],
        },
        "protected": {
            "type": "boolean",
            "description": "If true, namespace will not be deletable.",
        },
        "owner": {"type": "string", "description": "Owner of the namespace.", "maxLength": 255},
        **stamps,
        "schema": _READ_ONLY_TEXT,
        "self": _READ_ONLY_TEXT,
        "resource_type_associations": _named_items(
            name=_TEXT, prefix=_TEXT, properties_target=_TEXT
        ),
        "properties": {"$ref": "#/definitions/property"},
        "objects": _named_items(
            name=_TEXT,
            description=_TEXT,
            required={"$ref": "#/definitions/stringArray"},
            properties={"$ref": "#/definitions/property"},
        ),
        "tags": _named_items(name=_TEXT),
    }


def _object() -> dict[str, Any]:
    return {
        "name": {"type": "string", "maxLength": 80},
        "description": {"type": "string"},
        "required": {"$ref": "#/definitions/stringArray"},
        "properties": {"$ref": "#/definitions/property"},
        "schema": _READ_ONLY_TEXT,
        "self": _READ_ONLY_TEXT,
        **_stamps("object creation", "object"),
    }


_RESOURCE_TYPE_HELP = (
    "Resource type names should be aligned with Heat resource types whenever possible:"
    " https://docs.openstack.org/heat/latest/template_guide/openstack.html",
    "Specifies the prefix to use for the given resource type. Any properties in the"
    " namespace should be prefixed with this prefix when being applied to the specified"
    " resource type. Must include prefix separator (e.g. a colon :).",
    "Some resource types allow more than one key / value pair per instance.  For example,"
    " Cinder allows user and image metadata on volumes. Only the image properties metadata"
    " is evaluated by Nova (scheduling or drivers). This property allows a namespace target"
    " to remove the ambiguity.",
)


def _resource_type() -> dict[str, Any]:
    name, prefix, target = _RESOURCE_TYPE_HELP
    return {
        "name": {"type": "string", "description": name, "maxLength": 80},
        "prefix": {"type": "string", "description": prefix, "maxLength": 80},
        "properties_target": {"type": "string", "description": target, "maxLength": 80},
        **_stamps("resource type association", "resource type association"),
    }


def _tag() -> dict[str, Any]:
    return {"name": {"type": "string", "maxLength": 80}, **_stamps("tag creation", "tag")}


# -- glance.schema's shapes ---------------------------------------------------


def _raw(
    name: str,
    properties: dict[str, Any],
    additional: Any = False,
    definitions: dict[str, Any] | None = None,
    required: list[str] | None = None,
    links: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """``Schema.raw`` (``additional``: PermissiveSchema's string values)."""
    raw: dict[str, Any] = {
        "name": name,
        "properties": properties,
        "additionalProperties": additional,
    }
    if definitions:
        raw["definitions"] = definitions
    if required:
        raw["required"] = required
    if links:
        raw["links"] = links
    return raw


def _minimal(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    """``Schema.minimal`` (the members', tasks': no definitions, none required)."""
    return {"name": name, "properties": properties}


def _collection(
    name: str, item: dict[str, Any], minimal: bool = False, mapping: bool = False
) -> dict[str, Any]:
    """``CollectionSchema``/``DictCollectionSchema`` (``mapping``) around
    ``item``: its definitions move to the collection, last."""
    item = dict(item)
    definitions = item.pop("definitions", None)
    if mapping:
        members: dict[str, Any] = {"type": "object", "additionalProperties": item}
    else:
        members = {"type": "array", "items": item}
    properties: dict[str, Any] = {name: members}
    links = [{"rel": "describedby", "href": "{schema}"}]
    if not minimal:
        properties.update(first={"type": "string"}, next={"type": "string"})
        links = [{"rel": "first", "href": "{first}"}, {"rel": "next", "href": "{next}"}] + links
    properties["schema"] = {"type": "string"}
    body: dict[str, Any] = {"name": name, "properties": properties, "links": links}
    if definitions:
        body["definitions"] = definitions
    return body


def image_properties() -> dict[str, Any]:
    """The image schema's properties: Glance's base ones, then the custom."""
    base = writes.SCHEMA["properties"]
    properties = {key: copy.deepcopy(base.get(key) or _IMAGE_EXTRA[key]) for key in _IMAGE_ORDER}
    for key, value in _IMAGE_CUSTOM.items():
        properties[key] = dict(copy.deepcopy(value), is_base=False)
    return properties


def _build() -> dict[str, dict[str, Any]]:
    image = _raw(
        "image",
        image_properties(),
        additional={"type": "string"},
        links=[
            {"rel": "self", "href": "{self}"},
            {"rel": "enclosure", "href": "{file}"},
            {"rel": "describedby", "href": "{schema}"},
        ],
    )
    member = _minimal("member", copy.deepcopy(_MEMBER))
    task = _minimal("task", copy.deepcopy(_TASK))
    hidden = ("input", "result", "message")
    stub = {k: v for k, v in copy.deepcopy(_TASK).items() if k not in hidden}
    namespace = _raw(
        "namespace", _namespace(), definitions=_namespace_definitions(), required=["namespace"]
    )
    prop = _raw(
        "property",
        _property_members(),
        definitions=_definitions(min_items=True),
        required=["type", "title", "name"],
    )
    obj = _raw("object", _object(), definitions=_namespace_definitions(), required=["name"])
    resource_type = _raw("resource_type_association", _resource_type(), required=["name"])
    tag = _raw("tag", _tag(), required=["name"])
    return {
        "image": image,
        "images": _collection("images", image),
        "member": member,
        "members": _collection("members", member, minimal=True),
        "task": task,
        "tasks": _collection("tasks", _minimal("task", stub), minimal=True),
        "metadefs/namespace": namespace,
        "metadefs/namespaces": _collection("namespaces", namespace),
        "metadefs/resource_type": resource_type,
        "metadefs/resource_types": _collection("resource_type_associations", resource_type),
        "metadefs/property": prop,
        "metadefs/properties": _collection(
            "properties", dict(prop, required=["type", "title"]), mapping=True
        ),
        "metadefs/object": obj,
        "metadefs/objects": _collection("objects", obj),
        "metadefs/tag": tag,
        "metadefs/tags": _collection("tags", tag),
    }


# name under /v2/schemas/ → Glance's body
SCHEMAS: dict[str, dict[str, Any]] = _build()


def get(name: str) -> dict[str, Any]:
    """A copy of schema ``name`` (a caller may change it)."""
    return copy.deepcopy(SCHEMAS[name])
