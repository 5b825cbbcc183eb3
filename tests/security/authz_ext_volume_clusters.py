"""Authorization of the local Cinder's cluster, workers and manageable
APIs (Cinder 29's ``cinder/policies/clusters.py``, ``workers.py``,
``manageable_volumes.py``, ``manageable_snapshots.py``: ``RULE_ADMIN_API``).
The cloud has no clusters, so an admin's show, enable and disable are
Cinder's ``ClusterNotFound`` (404); the manageable lists are asked without
``host`` (the matrix sends no query), the admin's 400; a cleanup reaches
every service. Nothing here is a secret of A."""

_V = {"OpenStack-API-Version": "volume 3.70"}


def rules():
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=lambda ids: _V, **kw)

    def name(ids):
        return {"name": "authz-cluster"}

    def cluster(ids):
        return {"cluster_name": "authz-cluster"}

    table = {
        ("volume", "GET", "/v3/clusters"): r("admin"),
        ("volume", "GET", "/v3/clusters/detail"): r("admin"),
        ("volume", "GET", "/v3/clusters/{cluster_name}"): r("admin", 404, params=cluster),
        ("volume", "PUT", "/v3/clusters/enable"): r("admin", 404, body=name),
        ("volume", "PUT", "/v3/clusters/disable"): r("admin", 404, body=name),
        ("volume", "POST", "/v3/workers/cleanup"): r("admin", 202, body=lambda ids: {}),
    }
    for collection in ("manageable_volumes", "manageable_snapshots"):
        for path in ("/v3/" + collection, "/v3/%s/detail" % collection):
            table[("volume", "GET", path)] = r("admin", 400)
    return table
