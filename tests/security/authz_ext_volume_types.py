"""Authorization of the local Cinder's volume type writes and their
sub-resources (``cinder/policies/volume_type.py``, ``type_extra_specs.py``,
``volume_access.py``): creates, updates, deletes, extra spec writes and
project access are ``RULE_ADMIN_API``; any reader reads a public type's
extra specs (the user-visible ones) and the default type.

Allowed writes get a fresh public type of the admin (``type_id``) holding
the extra spec ``{key}``; the access list is read on a private type made
in :func:`setup`, the extra spec reads on a public type with the
user-visible ``multiattach``. Types are no project's: nothing here is a
secret of A."""

_V = {"OpenStack-API-Version": "volume 3.70"}
_TYPES = "/v3/types"
_TYPE = _TYPES + "/{type_id}"


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


FACTORIES = {"type_id": _fresh_type}


def setup(world, ids):
    ids["private_type_id"] = _new_type(world, public=False)
    ids["spec_type_id"] = _new_type(world, specs={"multiattach": "<is> True"})


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=lambda ids: _V, **kw)

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
    }
