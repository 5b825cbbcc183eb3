"""Authorization of the local Cinder's volume type writes and their
sub-resources (``cinder/policies/volume_type.py``, ``type_extra_specs.py``,
``volume_access.py``): creates, updates, deletes, extra spec writes and
project access are ``RULE_ADMIN_API``; any reader reads a public type's
extra specs (the user-visible ones) and the default type.

Allowed writes get a fresh public type of the admin (``type_id``) holding
the extra spec ``{key}``; the access list is read on a private type made
in :func:`setup`, the extra spec reads on a public type with the
user-visible ``multiattach``. Types are no project's: nothing here is a
secret of A.

QoS specs (``cinder/policies/qos_specs.py``) and 3.62's default types
(``default_types.py``) are the admin's on every route; QoS writes get
fresh specs (``qos_id``, holding the key ``authz``). ``associate`` and
``disassociate`` (GETs that write) are called without ``vol_type_id``:
the admin's 400 ``Volume Type id must not be None.``. A's default type is
set to ``__DEFAULT__`` in :func:`setup` (so its volumes are unchanged);
the unset runs on B's."""

_V = {"OpenStack-API-Version": "volume 3.70"}
_TYPES = "/v3/types"
_TYPE = _TYPES + "/{type_id}"
_QOS = "/v3/qos-specs"
_SPECS = _QOS + "/{qos_id}"
_DEFAULT = "/v3/default-types/{target_project_id}"


def _new_type(world, public=True, specs=None):
    from tests.security.test_authz_matrix import _unique

    body = {
        "name": _unique("authz-type"),
        "os-volume-type-access:is_public": public,
        "extra_specs": specs or {world.ids["key"]: "authz-value"},
    }
    response = world.as_(
        "admin", "POST", "/volume/v3/types", headers=_V, json_body={"volume_type": body}
    )
    assert response.status == 200, response.body
    return response.json()["volume_type"]["id"]


def _fresh_type(world):
    return _new_type(world)


def _fresh_qos(world):
    from tests.security.test_authz_matrix import _unique

    body = {"qos_specs": {"name": _unique("authz-qos"), "authz": "v"}}
    response = world.as_("admin", "POST", "/volume/v3/qos-specs", headers=_V, json_body=body)
    assert response.status == 200, response.body
    return response.json()["qos_specs"]["id"]


FACTORIES = {"type_id": _fresh_type, "qos_id": _fresh_qos}


def setup(world, ids):
    ids["private_type_id"] = _new_type(world, public=False)
    ids["spec_type_id"] = _new_type(world, specs={"multiattach": "<is> True"})
    ids["qos_id"] = _fresh_qos(world)
    response = world.as_(
        "admin",
        "PUT",
        "/volume/v3/default-types/" + world.projects["A"],
        headers=_V,
        json_body={"default_type": {"volume_type": "__DEFAULT__"}},
    )
    assert response.status == 200, response.body


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=lambda ids: _V, **kw)

    def a_project(ids):
        return {"target_project_id": ids["target_id"]}

    def spec_type(ids):
        return {"type_id": ids["spec_type_id"], "key": "multiattach"}

    return {
        ("volume", "POST", _TYPES): r(
            "admin", body=lambda ids: {"volume_type": {"name": _unique("authz-type")}}
        ),
        ("volume", "GET", _TYPES + "/default"): r("any"),
        ("volume", "PUT", _TYPE): r(
            "admin", fresh=("type_id",), body=lambda ids: {"volume_type": {"description": "x"}}
        ),
        ("volume", "DELETE", _TYPE): r("admin", 202, fresh=("type_id",)),
        ("volume", "POST", _TYPE + "/action"): r(
            "admin",
            202,
            fresh=("type_id",),
            body=lambda ids: {"addProjectAccess": {"project": ids["project_id"]}},
        ),
        ("volume", "GET", _TYPE + "/os-volume-type-access"): r(
            "admin", params=lambda ids: {"type_id": ids["private_type_id"]}
        ),
        ("volume", "GET", _TYPE + "/extra_specs"): r("any", params=spec_type),
        ("volume", "POST", _TYPE + "/extra_specs"): r(
            "admin", fresh=("type_id",), body=lambda ids: {"extra_specs": {"authz": "v"}}
        ),
        ("volume", "GET", _TYPE + "/extra_specs/{key}"): r("any", params=spec_type),
        ("volume", "PUT", _TYPE + "/extra_specs/{key}"): r(
            "admin", fresh=("type_id",), body=lambda ids: {ids["key"]: "changed"}
        ),
        ("volume", "DELETE", _TYPE + "/extra_specs/{key}"): r("admin", 202, fresh=("type_id",)),
        ("volume", "GET", _QOS): r("admin"),
        ("volume", "POST", _QOS): r(
            "admin", body=lambda ids: {"qos_specs": {"name": _unique("authz-qos")}}
        ),
        ("volume", "GET", _SPECS): r("admin"),
        ("volume", "PUT", _SPECS): r(
            "admin", fresh=("qos_id",), body=lambda ids: {"qos_specs": {"authz": "w"}}
        ),
        ("volume", "DELETE", _SPECS): r("admin", 202, fresh=("qos_id",)),
        ("volume", "PUT", _SPECS + "/delete_keys"): r(
            "admin", 202, fresh=("qos_id",), body=lambda ids: {"keys": ["authz"]}
        ),
        ("volume", "GET", _SPECS + "/associations"): r("admin"),
        ("volume", "GET", _SPECS + "/associate"): r("admin", 400),
        ("volume", "GET", _SPECS + "/disassociate"): r("admin", 400),
        ("volume", "GET", _SPECS + "/disassociate_all"): r("admin", 202),
        ("volume", "GET", "/v3/default-types"): r("admin"),
        ("volume", "GET", _DEFAULT): r("admin", params=a_project),
        ("volume", "PUT", _DEFAULT): r(
            "admin",
            params=a_project,
            body=lambda ids: {"default_type": {"volume_type": "__DEFAULT__"}},
        ),
        ("volume", "DELETE", _DEFAULT): r(
            "admin", 204, params=lambda ids: {"target_project_id": ids["other_target_id"]}
        ),
    }
