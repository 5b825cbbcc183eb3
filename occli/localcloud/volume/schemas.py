"""Request bodies as Cinder checks them (``cinder/api/schemas``), with
Cinder's ``Invalid input for field/attribute …`` 400s."""

import copy
import re
from typing import Any

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.volume.quotas import DB_MAX_INT

_TEXT = {"type": ["string", "null"], "format": "name_or_description"}
# a name and a description, under their current and their v1 keys
_NAMES = dict.fromkeys(("name", "description", "display_name", "display_description"), _TEXT)
_METADATA = {
    "type": ["object", "null"],
    "patternProperties": {"^[a-zA-Z0-9-_:. /]{1,255}$": {"type": "string", "maxLength": 255}},
    "additionalProperties": False,
}
_SIZE = {
    "type": ["integer", "string", "null"],
    "pattern": "^[0-9]+$",
    "minimum": 1,
    "maximum": DB_MAX_INT,
}
_OPTIONAL_UUID = {"oneOf": [{"type": "null"}, {"type": "string", "format": "uuid"}]}
BOOLEAN: dict[str, Any] = {
    "type": ["boolean", "string"],
    "enum": [
        True, "True", "TRUE", "true", "1", "ON", "On", "on", "YES", "Yes", "yes", "y", "t",
        False, "False", "FALSE", "false", "0", "OFF", "Off", "off", "NO", "No", "no", "n", "f",
    ],
}  # fmt: skip

VOLUME_CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "volume": {
            "type": "object",
            "properties": {
                **_NAMES,
                "volume_type": {"type": ["string", "null"], "minLength": 0, "maxLength": 255},
                "metadata": _METADATA,
                "snapshot_id": _OPTIONAL_UUID,
                "source_volid": _OPTIONAL_UUID,
                "consistencygroup_id": _OPTIONAL_UUID,
                "size": _SIZE,
                "availability_zone": {
                    "type": ["string", "null"],
                    "minLength": 1,
                    "maxLength": 255,
                },
                "multiattach": {"oneOf": [{"type": "null"}, BOOLEAN]},
                "image_id": {"type": ["string", "null"], "minLength": 0, "maxLength": 255},
                "imageRef": {"type": ["string", "null"], "minLength": 0, "maxLength": 255},
                "group_id": {"type": ["string", "null"], "minLength": 0, "maxLength": 255},
                "backup_id": _OPTIONAL_UUID,
            },
            "additionalProperties": True,
        },
        "OS-SCH-HNT:scheduler_hints": {"type": ["object", "null"]},
    },
    "required": ["volume"],
    "additionalProperties": False,
}
# 3.53: unknown volume members are refused
VOLUME_CREATE_353 = copy.deepcopy(VOLUME_CREATE)
VOLUME_CREATE_353["properties"]["volume"]["additionalProperties"] = False

VOLUME_UPDATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "volume": {
            "type": "object",
            "properties": {
                **_NAMES,
                "metadata": dict(_METADATA, type="object"),
            },
            "additionalProperties": False,
        }
    },
    "required": ["volume"],
    "additionalProperties": False,
}
VOLUME_UPDATE_353 = copy.deepcopy(VOLUME_UPDATE)
VOLUME_UPDATE_353["properties"]["volume"]["anyOf"] = [
    {"required": [k]} for k in [*_NAMES, "metadata"]
]

METADATA = {
    "type": "object",
    "properties": {"metadata": dict(_METADATA, type="object")},
    "required": ["metadata"],
    "additionalProperties": False,
}
METADATA_ITEM = {
    "type": "object",
    "properties": {"meta": dict(_METADATA, type="object")},
    "required": ["meta"],
    "additionalProperties": False,
}
EXTEND = {
    "type": "object",
    "properties": {
        "os-extend": {
            "type": "object",
            "properties": {"new_size": dict(_SIZE, type=["integer", "string"])},
            "required": ["new_size"],
            "additionalProperties": False,
        }
    },
    "required": ["os-extend"],
    "additionalProperties": False,
}

# cinder/api/schemas/volume_actions.py volume_upload_image (and _v31:
# visibility and protected from 3.1)
UPLOAD_IMAGE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "os-volume_upload_image": {
            "type": "object",
            "properties": {
                "image_name": {"type": "string", "minLength": 1, "maxLength": 255},
                "force": BOOLEAN,
                "disk_format": {
                    "type": "string",
                    "enum": ["raw", "vmdk", "vdi", "qcow2", "vhd", "vhdx", "ploop"],
                },
                "container_format": _TEXT,
            },
            "required": ["image_name"],
            "additionalProperties": False,
        }
    },
    "required": ["os-volume_upload_image"],
    "additionalProperties": False,
}
UPLOAD_IMAGE_31 = copy.deepcopy(UPLOAD_IMAGE)
UPLOAD_IMAGE_31["properties"]["os-volume_upload_image"]["properties"].update(
    visibility={"type": "string", "enum": ["community", "public", "private", "shared"]},
    protected=BOOLEAN,
)

SNAPSHOT_CREATE = {
    "type": "object",
    "properties": {
        "snapshot": {
            "type": "object",
            "properties": {
                "name": _TEXT,
                "display_name": _TEXT,
                "description": _TEXT,
                "display_description": _TEXT,
                "volume_id": {"type": "string", "format": "uuid"},
                "force": {"oneOf": [{"type": "null"}, BOOLEAN]},
                "metadata": _METADATA,
            },
            "required": ["volume_id"],
            "additionalProperties": False,
        }
    },
    "required": ["snapshot"],
    "additionalProperties": False,
}
SNAPSHOT_UPDATE = {
    "type": "object",
    "properties": {
        "snapshot": {
            "type": "object",
            "properties": dict(_NAMES),
            "additionalProperties": False,
            "anyOf": [{"required": [k]} for k in _NAMES],
        }
    },
    "required": ["snapshot"],
    "additionalProperties": False,
}
QUOTA_UPDATE = {
    "type": "object",
    "properties": {"quota_set": {"type": "object", "minProperties": 1}},
    "required": ["quota_set"],
    "additionalProperties": False,
}

# cinder/api/schemas/volume_types.py, types_extra_specs.py, volume_type_access.py
_TYPE_DESCRIPTION = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
_EXTRA_SPECS_WITH_NULL = {
    "type": "object",
    "patternProperties": {
        "^[a-zA-Z0-9-_:. /]{1,255}$": {"type": ["string", "null"], "maxLength": 255}
    },
    "additionalProperties": False,
}
_EXTRA_SPECS_NO_SPACES = {
    "type": "object",
    "patternProperties": {
        "^[a-zA-Z0-9-_:.]{1,255}$": {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
    },
    "additionalProperties": False,
}
TYPE_CREATE = {
    "type": "object",
    "properties": {
        "volume_type": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 255},
                "description": _TYPE_DESCRIPTION,
                "extra_specs": _EXTRA_SPECS_WITH_NULL,
                "os-volume-type-access:is_public": BOOLEAN,
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
    "required": ["volume_type"],
    "additionalProperties": False,
}
TYPE_UPDATE = {
    "type": "object",
    "properties": {
        "volume_type": {
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"], "minLength": 1, "maxLength": 255},
                "description": _TYPE_DESCRIPTION,
                "is_public": BOOLEAN,
            },
            "additionalProperties": False,
        }
    },
    "required": ["volume_type"],
    "additionalProperties": False,
}
EXTRA_SPECS_CREATE = {
    "type": "object",
    "properties": {"extra_specs": _EXTRA_SPECS_NO_SPACES},
    "required": ["extra_specs"],
    "additionalProperties": False,
}
EXTRA_SPEC_UPDATE = dict(_EXTRA_SPECS_NO_SPACES, minProperties=1, maxProperties=1)


def _project_access(action):
    return {
        "type": "object",
        "properties": {
            action: {
                "type": "object",
                "properties": {"project": {"type": "string", "minLength": 1, "maxLength": 255}},
                "required": ["project"],
                "additionalProperties": False,
            }
        },
        "required": [action],
        "additionalProperties": False,
    }


ADD_PROJECT_ACCESS = _project_access("addProjectAccess")
REMOVE_PROJECT_ACCESS = _project_access("removeProjectAccess")
# cinder/api/schemas/default_types.py
DEFAULT_TYPE_SET = {
    "type": "object",
    "properties": {
        "default_type": {
            "type": "object",
            "properties": {"volume_type": {"type": "string", "minLength": 1, "maxLength": 255}},
            "required": ["volume_type"],
            "additionalProperties": False,
        }
    },
    # Cinder's schema leaves it optional and then fails (500) without it
    "required": ["default_type"],
}
# cinder/api/schemas/qos_specs.py (the name's format checked by the handler)
QOS_CREATE = {
    "type": "object",
    "properties": {
        "qos_specs": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": True,
        }
    },
    "required": ["qos_specs"],
    "additionalProperties": False,
}
QOS_SET = {
    "type": "object",
    "properties": {"qos_specs": _EXTRA_SPECS_WITH_NULL},
    "required": ["qos_specs"],
    "additionalProperties": False,
}
QOS_UNSET = {
    "type": "object",
    "properties": {
        "keys": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 255},
            "uniqueItems": True,
        }
    },
    "required": ["keys"],
    "additionalProperties": False,
}

_SIZE_PATTERN = re.compile(r"^[0-9]+$")


def validate(schema, body):
    """Validate ``body`` like cinder's ``@validation.schema``: jsonschema's
    best_match error, a 400 with cinder's text."""
    return validation.check(schema, body, order=validation.BEST)


def size(value, field="size"):
    """A size the schema let through (an int, or digits) as an int; digits
    past Python's digit limit are refused as cinder's validator refuses
    them, read as a float (``_number_from_str``): ``inf`` is over the
    schema's maximum."""
    if isinstance(value, str) and _SIZE_PATTERN.match(value):
        try:
            return int(value)
        except ValueError:
            raise HTTPError(
                400,
                "Invalid input for field/attribute %s. Value: inf. inf is greater than the"
                " maximum of %d" % (field, DB_MAX_INT),
            ) from None
    return value


def truthy(value):
    return value in BOOLEAN["enum"][:13]


# cinder/api/schemas/backups.py (metadata from 3.43, availability_zone 3.51)
_STRING_255 = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
BACKUP_CREATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "backup": {
            "type": "object",
            "properties": {
                "volume_id": {"type": "string", "format": "uuid"},
                "container": _STRING_255,
                "description": _TEXT,
                "incremental": BOOLEAN,
                "force": BOOLEAN,
                "name": _TEXT,
                "snapshot_id": _OPTIONAL_UUID,
            },
            "required": ["volume_id"],
            "additionalProperties": False,
        }
    },
    "required": ["backup"],
    "additionalProperties": False,
}
BACKUP_CREATE_343 = copy.deepcopy(BACKUP_CREATE)
BACKUP_CREATE_343["properties"]["backup"]["properties"]["metadata"] = _METADATA
BACKUP_CREATE_351 = copy.deepcopy(BACKUP_CREATE_343)
BACKUP_CREATE_351["properties"]["backup"]["properties"]["availability_zone"] = _STRING_255
BACKUP_UPDATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "backup": {
            "type": ["object", "null"],
            "properties": {"name": _TEXT, "description": _TEXT},
            "additionalProperties": False,
        }
    },
    "required": ["backup"],
    "additionalProperties": False,
}
BACKUP_UPDATE_343 = copy.deepcopy(BACKUP_UPDATE)
BACKUP_UPDATE_343["properties"]["backup"]["properties"]["metadata"] = dict(
    _METADATA, type="object"
)
BACKUP_RESTORE = {
    "type": "object",
    "properties": {
        "restore": {
            "type": ["object", "null"],
            "properties": {"name": _TEXT, "volume_id": _OPTIONAL_UUID},
            "additionalProperties": False,
        }
    },
    "required": ["restore"],
    "additionalProperties": False,
}
BACKUP_IMPORT = {
    "type": "object",
    "properties": {
        "backup-record": {
            "type": "object",
            "properties": {
                "backup_service": {"type": "string", "minLength": 0, "maxLength": 255},
                "backup_url": {"type": "string", "minLength": 1, "format": "base64"},
            },
            "required": ["backup_service", "backup_url"],
            "additionalProperties": False,
        }
    },
    "required": ["backup-record"],
    "additionalProperties": False,
}
# cinder/api/schemas/admin_actions.py reset_status_backup (the status
# format checked by the rules: backups.reset_status)
BACKUP_RESET_STATUS = {
    "type": "object",
    "properties": {
        "os-reset_status": {
            "type": "object",
            "properties": {"status": {"type": "string"}},
            "required": ["status"],
            "additionalProperties": False,
        }
    },
    "required": ["os-reset_status"],
    "additionalProperties": False,
}
