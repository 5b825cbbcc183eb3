"""Authorization of the local Cinder's admin and discovery APIs (Cinder
29's ``cinder/policies/services.py``, ``scheduler_stats.py``,
``capabilities.py``, ``hosts.py``, ``quota_class.py``: ``RULE_ADMIN_API``);
any token reads the availability zones, its ``/limits`` and 3.33's resource
filters.

The one ``os-services`` update route is tried as ``thaw`` of the backend
(a no-op on a thawed one); a quota class is written on ``authz-class``,
no project's defaults. Nothing here is a secret of A."""

_V = {"OpenStack-API-Version": "volume 3.70"}
_BACKEND = "localcloud@lvm"


def rules():
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
    }
