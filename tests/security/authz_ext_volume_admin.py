"""Authorization of the local Cinder's admin and discovery APIs (Cinder
29's ``cinder/policies/services.py``, ``scheduler_stats.py``,
``capabilities.py``, ``hosts.py``, ``quota_class.py``: ``RULE_ADMIN_API``);
any token reads the availability zones, its ``/limits`` and 3.33's resource
filters.

The one ``os-services`` update route is tried as ``thaw`` of the backend
(a no-op on a thawed one); a quota class is written on ``authz-class``,
no project's defaults. Group types (3.11, ``cinder/policies/group_types.py``):
writes and spec reads are the admin's, any token lists and shows them;
writes get a fresh public type (``group_type_id``) holding the spec
``{key}``. Nothing here is a secret of A."""

_V = {"OpenStack-API-Version": "volume 3.70"}
_BACKEND = "localcloud@lvm"
_GT = "/v3/group_types"
_ONE_GT = _GT + "/{group_type_id}"


def _fresh_group_type(world):
    from tests.security.test_authz_matrix import _unique

    body = {"group_type": {"name": _unique("authz-gt"), "group_specs": {world.ids["key"]: "v"}}}
    response = world.as_("admin", "POST", "/volume/v3/group_types", headers=_V, json_body=body)
    assert response.status == 202, response.body
    return response.json()["group_type"]["id"]


FACTORIES = {"group_type_id": _fresh_group_type}


def setup(world, ids):
    ids["group_type_id"] = _fresh_group_type(world)


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=lambda ids: _V, **kw)

    def host(ids):
        return {"host": _BACKEND}

    def quota_class(ids):
        return {"class_name": "authz-class"}

    return {
        ("volume", "GET", "/v3/os-services"): r("admin"),
        ("volume", "PUT", "/v3/os-services/{action}"): r(
            "admin", params=lambda ids: {"action": "thaw"}, body=host
        ),
        ("volume", "GET", "/v3/scheduler-stats/get_pools"): r("admin"),
        ("volume", "GET", "/v3/capabilities/{host}"): r("admin", params=host),
        ("volume", "GET", "/v3/os-availability-zone"): r("any"),
        ("volume", "GET", "/v3/os-hosts"): r("admin"),
        ("volume", "GET", "/v3/os-hosts/{host}"): r("admin", params=host),
        ("volume", "GET", "/v3/os-quota-class-sets/{class_name}"): r("admin", params=quota_class),
        ("volume", "PUT", "/v3/os-quota-class-sets/{class_name}"): r(
            "admin",
            params=quota_class,
            body=lambda ids: {"quota_class_set": {"volumes": 10}},
        ),
        ("volume", "GET", "/v3/limits"): r("any"),
        ("volume", "GET", "/v3/resource_filters"): r("any"),
        ("volume", "POST", _GT): r(
            "admin", 202, body=lambda ids: {"group_type": {"name": _unique("authz-gt")}}
        ),
        ("volume", "GET", _GT): r("any"),
        ("volume", "GET", _ONE_GT): r("any"),
        ("volume", "PUT", _ONE_GT): r(
            "admin",
            fresh=("group_type_id",),
            body=lambda ids: {"group_type": {"description": "x"}},
        ),
        ("volume", "DELETE", _ONE_GT): r("admin", 202, fresh=("group_type_id",)),
        ("volume", "GET", _ONE_GT + "/group_specs"): r("admin"),
        ("volume", "POST", _ONE_GT + "/group_specs"): r(
            "admin", 202, fresh=("group_type_id",), body=lambda ids: {"group_specs": {"a": "b"}}
        ),
        ("volume", "GET", _ONE_GT + "/group_specs/{key}"): r("admin"),
        ("volume", "PUT", _ONE_GT + "/group_specs/{key}"): r(
            "admin", fresh=("group_type_id",), body=lambda ids: {ids["key"]: "w"}
        ),
        ("volume", "DELETE", _ONE_GT + "/group_specs/{key}"): r(
            "admin", 202, fresh=("group_type_id",)
        ),
    }
