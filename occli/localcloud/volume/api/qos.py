"""``/qos-specs``: QoS specs (``cinder/api/contrib/qos_specs_manage.py``),
every route the admin's (``volume_extension:qos_specs_manage:*``): list,
create, show, update, delete (``force``), ``delete_keys`` and the member
actions Cinder serves as GETs — ``associations``, ``associate`` /
``disassociate`` (``?vol_type_id=``) and ``disassociate_all``."""

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import qos
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import views

SPECS = "/qos-specs/{qos_id}"
_RULE = "volume_extension:qos_specs_manage:"


def register(service):
    service.api("GET", "/qos-specs", list_qos)
    service.api("POST", "/qos-specs", create_qos, role=None)
    service.api("GET", SPECS, show_qos)
    service.api("PUT", SPECS, update_qos, role=None)
    service.api("DELETE", SPECS, delete_qos, role=None)
    service.api("PUT", SPECS + "/delete_keys", delete_qos_keys, role=None)
    service.api("GET", SPECS + "/associations", list_associations)
    # Cinder's member actions are GETs that write
    service.api("GET", SPECS + "/associate", associate, mode="write")
    service.api("GET", SPECS + "/disassociate", disassociate, mode="write")
    service.api("GET", SPECS + "/disassociate_all", disassociate_all, mode="write")


def _admin(req, action):
    if not req.context.is_admin:
        raise common.policy_denied(_RULE + action)


def _detail(req, row):
    return {"qos_specs": qos.view(row), "links": views.links(req, "qos-specs", row["id"])}


def list_qos(req):
    _admin(req, "get_all")
    found = qos.listing(req.db, common.query_params(req))
    return Response(200, {"qos_specs": [qos.view(r) for r in found]})


def create_qos(req):
    body = schemas.validate(schemas.QOS_CREATE, req.json())["qos_specs"]
    name = body.pop("name")
    # cinder's name_skip_leading_trailing_spaces format (InvalidName)
    if not name.strip():
        raise HTTPError(400, "An invalid 'name' value was provided. The 'name' can not be empty.")
    if len(name.strip()) > 255:
        raise HTTPError(
            400,
            "An invalid 'name' value was provided. The 'name' can not be greater than 255"
            " characters.",
        )
    _admin(req, "create")
    return Response(200, _detail(req, qos.create(req.db, name.strip(), body)))


def show_qos(req):
    _admin(req, "get")
    return Response(200, _detail(req, qos.get(req.db, req.params["qos_id"])))


def update_qos(req):
    body = schemas.validate(schemas.QOS_SET, req.json())
    _admin(req, "update")
    qos.update(req.db, req.params["qos_id"], body["qos_specs"])
    return Response(200, body)


def delete_qos(req):
    _admin(req, "delete")
    raw = common.query_params(req).get("force", "false")
    try:
        force = validation.bool_from_string(raw, strict=True)
    except ValueError:
        raise HTTPError(400, "Value '%s' for 'force' is not a boolean." % raw) from None
    qos.delete(req.db, req.params["qos_id"], force=force)
    return Response(202, content_type=common.WEBOB_TYPE)


def delete_qos_keys(req):
    body = schemas.validate(schemas.QOS_UNSET, req.json())
    _admin(req, "delete")
    qos.delete_keys(req.db, req.params["qos_id"], body["keys"])
    return Response(202, content_type=common.WEBOB_TYPE)


def list_associations(req):
    _admin(req, "get_all")
    return Response(200, {"qos_associations": qos.associations(req.db, req.params["qos_id"])})


def _type_id(req):
    type_id = common.query_params(req).get("vol_type_id")
    if not type_id:
        raise HTTPError(400, "Volume Type id must not be None.")
    return type_id


def associate(req):
    _admin(req, "update")
    qos.associate(req.db, req.params["qos_id"], _type_id(req))
    return Response(202, content_type=common.WEBOB_TYPE)


def disassociate(req):
    _admin(req, "update")
    qos.disassociate(req.db, req.params["qos_id"], _type_id(req))
    return Response(202, content_type=common.WEBOB_TYPE)


def disassociate_all(req):
    _admin(req, "update")
    qos.disassociate_all(req.db, req.params["qos_id"])
    return Response(202, content_type=common.WEBOB_TYPE)
