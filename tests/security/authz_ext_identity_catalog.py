"""Authorization of Keystone's catalog API (issue 21; keystone's default
policies, keystone/common/policies/service.py, endpoint.py, region.py):
services and endpoints are written by admins and read by admins and
system readers (no kind of this matrix is a system reader: see
tests/unit/localcloud/test_identity_catalog.py); regions are read
by any token (check string ``""``: unscoped included) and written by
admins only.

Throwaway rows of the catalog stand behind the path parameters: a service
``authz-catalog-service`` (``{service_id}`` is Nova's os-services id in
the matrix's ids, hence a fixed id given by ``Rule.params``, put back by
the pseudo-parameter ``catalog_service`` before each allowed write), an
endpoint of another and a region without endpoints (re-created per allowed
write: ``endpoint_id``, ``region_id``; ``region_gone`` deletes the fresh
region again, for ``PUT`` to create it)."""

SERVICE = "/v3/services/{service_id}"
ENDPOINT = "/v3/endpoints/{endpoint_id}"
REGION = "/v3/regions/{region_id}"
SERVICE_ID = "authz-catalog-service"


def _put_back_service(world):
    """The fixed throwaway service, created again if an admin deleted it."""
    with world.cloud.store.transaction() as db:
        db.execute(
            "INSERT OR IGNORE INTO services (id, type, extra) VALUES (?, 'authz', '{}')",
            (SERVICE_ID,),
        )
    return SERVICE_ID


def _new_endpoint(world):
    """An endpoint of a service no case deletes (``setup``'s)."""
    body = {
        "endpoint": {
            "service_id": world.endpoints_service,
            "interface": "admin",
            "url": "http://a.test",
        }
    }
    return world.as_("admin", "POST", "/v3/endpoints", json_body=body).json()["endpoint"]["id"]


def _new_region(world):
    from tests.security.test_authz_matrix import _unique

    body = {"region": {"id": _unique("authz-region")}}
    world.fresh_region = world.as_("admin", "POST", "/v3/regions", json_body=body).json()[
        "region"
    ]["id"]
    return world.fresh_region


def _region_gone(world):
    """The fresh region made just before, deleted (``PUT`` creates it)."""
    world.as_("admin", "DELETE", "/v3/regions/" + world.fresh_region)
    return "gone"


FACTORIES = {
    "catalog_service": _put_back_service,
    "endpoint_id": _new_endpoint,
    "region_id": _new_region,
    "region_gone": _region_gone,
}


def setup(world, ids):
    body = {"service": {"type": "authz-endpoints"}}
    world.endpoints_service = world.as_("admin", "POST", "/v3/services", json_body=body).json()[
        "service"
    ]["id"]
    ids["endpoints_service_id"] = world.endpoints_service
    _put_back_service(world)
    ids["endpoint_id"] = _new_endpoint(world)
    ids["region_id"] = _new_region(world)


def _service(ids):
    return {"service_id": SERVICE_ID}


def rules():
    from tests.security.test_authz_matrix import rule

    def described(key):
        return lambda ids: {key: {"description": "authz"}}

    table = {
        ("GET", "/v3/services"): rule("admin"),
        ("POST", "/v3/services"): rule("admin", 201, body=lambda ids: {"service": {"type": "x"}}),
        ("GET", SERVICE): rule(
            "admin", params=lambda ids: {"service_id": ids["endpoints_service_id"]}
        ),
        ("PATCH", SERVICE): rule(
            "admin", params=_service, fresh=("catalog_service",), body=described("service")
        ),
        ("DELETE", SERVICE): rule("admin", 204, params=_service, fresh=("catalog_service",)),
        ("GET", "/v3/endpoints"): rule("admin"),
        ("POST", "/v3/endpoints"): rule(
            "admin",
            201,
            fresh=("catalog_service",),
            body=lambda ids: {
                "endpoint": {
                    "service_id": SERVICE_ID,
                    "interface": "internal",
                    "url": "http://b.test",
                }
            },
        ),
        ("GET", ENDPOINT): rule("admin"),
        ("PATCH", ENDPOINT): rule("admin", fresh=("endpoint_id",), body=described("endpoint")),
        ("DELETE", ENDPOINT): rule("admin", 204, fresh=("endpoint_id",)),
        # keystone's "": any token, unscoped included
        ("GET", "/v3/regions"): rule("domain_read", override={"unscoped": 200}),
        ("GET", REGION): rule("domain_read", override={"unscoped": 200}),
        ("POST", "/v3/regions"): rule("admin", 201, body=lambda ids: {"region": {}}),
        ("PUT", REGION): rule(
            "admin", 201, fresh=("region_id", "region_gone"), body=lambda ids: {"region": {}}
        ),
        ("PATCH", REGION): rule("admin", fresh=("region_id",), body=described("region")),
        ("DELETE", REGION): rule("admin", 204, fresh=("region_id",)),
    }
    return {("identity", method, path): value for (method, path), value in table.items()}
