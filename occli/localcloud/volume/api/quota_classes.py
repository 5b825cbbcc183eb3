"""``/os-quota-class-sets/{class_name}`` (``cinder/api/contrib/
quota_classes.py``): the admin reads and sets a quota class's limits; the
``default`` class's are every project's defaults."""

from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import quotas
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common

ONE = "/os-quota-class-sets/{class_name}"
# cinder/api/schemas/quota_classes.py update_quota_class
UPDATE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "quota_class_set": {
            "type": "object",
            "patternProperties": {
                "^[a-zA-Z0-9-_:. ]{1,300}$": {
                    "type": ["integer", "string"],
                    "pattern": "^[0-9]*$",
                    "minimum": -1,
                    "minLength": 1,
                    "maximum": quotas.DB_MAX_INT,
                }
            },
            "additionalProperties": False,
        }
    },
    "required": ["quota_class_set"],
    "additionalProperties": False,
}


def register(service):
    service.api("GET", ONE, show_quota_class)
    service.api("PUT", ONE, update_quota_class, role=None)


def show_quota_class(req):
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:quota_classes:get")
    name = req.params["class_name"]
    return Response(200, {"quota_class_set": dict(quotas.class_quotas(req.db, name), id=name)})


def update_quota_class(req):
    body = schemas.validate(UPDATE, req.json())["quota_class_set"]
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:quota_classes:update")
    name = req.params["class_name"]
    if len(name) > 255:
        raise HTTPError(400, "Invalid input received: quota_class_name exceeds 255 characters")
    quotas.update_class(req.db, name, body)
    return Response(200, {"quota_class_set": quotas.class_quotas(req.db, name)})
