"""Aggregates: create, show, list, update, set_metadata, add/remove host,
delete, and their errors."""

import pytest


def _ours(ids, item):
    return item.get("name", "").startswith(ids.get("agg_prefix", "-"))


@pytest.fixture(scope="module")
def aggregate(pair):
    prefix = "fid-agg-" + pair.real.ids["member_project"][:6]
    # no zone: hosts running servers can join it (test_zone_change_refused)
    body = {"aggregate": {"name": prefix + "-1"}}
    real, local = pair.check("POST", "/os-aggregates", body, version="2.41",
                             values=("aggregate.name", "aggregate.availability_zone"))  # fmt: skip
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["aggregate"] = answer.body["aggregate"]["id"]
        cloud.ids["agg_prefix"] = prefix
    pair.real.created.append(("aggregate", pair.real.ids["aggregate"]))
    return prefix


@pytest.mark.parametrize("version", ("2.1", "2.41"))
def test_show(pair, aggregate, version):
    pair.check("GET", "/os-aggregates/{aggregate}", version=version,
               values=("aggregate.metadata", "aggregate.updated_at?"))  # fmt: skip


@pytest.mark.parametrize("version", ("2.1", "2.41"))
def test_list(pair, aggregate, version):
    pair.check("GET", "/os-aggregates", version=version, keep=_ours)


def test_duplicate_name(pair, aggregate):
    body = {"aggregate": {"name": aggregate + "-1"}}
    pair.check("POST", "/os-aggregates", body, version="2.41")


@pytest.mark.parametrize(
    "body",
    (
        {},
        {"aggregate": {}},
        {"aggregate": {"name": ""}},
        {"aggregate": {"name": "fid-x", "availability_zone": ""}},
        {"aggregate": {"name": "fid-x", "availability_zone": "a:b"}},
        {"aggregate": {"name": "fid-x", "bogus": 1}},
        {"aggregate": {"name": "x" * 256}},
    ),
    ids=("empty", "no-keys", "name-empty", "az-empty", "az-colon", "extra", "name-long"),
)
def test_create_errors(pair, body):
    pair.check("POST", "/os-aggregates", body, version="2.41")


def test_create_as_member(pair):
    pair.check("POST", "/os-aggregates", {"aggregate": {"name": "fid-m"}}, version="2.41",
               user="member")  # fmt: skip


def test_show_missing(pair):
    pair.check("GET", "/os-aggregates/999999", version="2.41")


def test_set_metadata_keeps_updated_at_null(pair, aggregate):
    body = {"set_metadata": {"metadata": {"fid": "yes"}}}
    pair.check("POST", "/os-aggregates/{aggregate}/action", body, version="2.41",
               values=("aggregate.metadata", "aggregate.updated_at?"))  # fmt: skip
    pair.check("GET", "/os-aggregates/{aggregate}", version="2.41",
               values=("aggregate.metadata", "aggregate.updated_at?"))  # fmt: skip
    body = {"set_metadata": {"metadata": {"fid": None}}}
    pair.check("POST", "/os-aggregates/{aggregate}/action", body, version="2.41",
               values=("aggregate.metadata", "aggregate.updated_at?"))  # fmt: skip


def test_update(pair, aggregate):
    body = lambda ids: {"aggregate": {"name": ids["agg_prefix"] + "-1b"}}  # noqa: E731
    pair.check("PUT", "/os-aggregates/{aggregate}", body, version="2.41")
    body = lambda ids: {"aggregate": {"name": ids["agg_prefix"] + "-1"}}  # noqa: E731
    pair.check("PUT", "/os-aggregates/{aggregate}", body, version="2.41")


@pytest.mark.parametrize(
    "body",
    (
        {"add_host": {"host": "fid-no-such-host"}},
        {"add_host": {}},
        {"remove_host": {"host": "fid-no-such-host"}},
        {"remove_host": {"host": "{host}"}},
        {"set_metadata": {}},
        {"set_metadata": {"metadata": {"k": 1}}},
        {"bogus_action": {}},
    ),
    ids=(
        "add-missing",
        "add-no-host",
        "remove-missing",
        "remove-not-member",
        "meta-empty",
        "meta-int",
        "unknown",
    ),  # fmt: skip
)
def test_action_errors(pair, aggregate, body):
    def per_cloud(ids):
        return {k: {kk: (vv.format(**ids) if isinstance(vv, str) else vv)
                    for kk, vv in v.items()} for k, v in body.items()}  # fmt: skip

    pair.check("POST", "/os-aggregates/{aggregate}/action", per_cloud, version="2.41")


def test_add_remove_host(pair, aggregate):
    add = lambda ids: {"add_host": {"host": ids["host"]}}  # noqa: E731
    remove = lambda ids: {"remove_host": {"host": ids["host"]}}  # noqa: E731
    pair.check("POST", "/os-aggregates/{aggregate}/action", add, version="2.41",
               values=("aggregate.hosts", "aggregate.updated_at?"))  # fmt: skip
    pair.check("POST", "/os-aggregates/{aggregate}/action", add, version="2.41")
    pair.check("DELETE", "/os-aggregates/{aggregate}", version="2.41")
    pair.check("POST", "/os-aggregates/{aggregate}/action", remove, version="2.41",
               values=("aggregate.hosts",))  # fmt: skip


def test_create_delete(pair, aggregate):
    """A second aggregate made and deleted twice (the second delete: 404)."""
    body = lambda ids: {"aggregate": {"name": ids["agg_prefix"] + "-2"}}  # noqa: E731
    real, local = pair.check("POST", "/os-aggregates", body, version="2.1")
    if real.status == 200:
        pair.real.created.append(("aggregate", real.body["aggregate"]["id"]))
        for cloud, answer in zip(pair.clouds, (real, local), strict=True):
            cloud.ids["aggregate2"] = answer.body["aggregate"]["id"]
        pair.check("DELETE", "/os-aggregates/{aggregate2}", version="2.1")
        pair.check("DELETE", "/os-aggregates/{aggregate2}", version="2.1")
        for cloud in pair.clouds:  # nova reuses the id of a deleted aggregate
            del cloud.ids["aggregate2"]


def test_zone_change_refused(pair, aggregate, flavor):
    """A host running servers cannot join an aggregate with a zone."""
    from tests.fidelity.test_servers import boot
    from tests.fidelity.test_servers import wait

    boot(pair, "az_server", aggregate + "-vm")
    wait(pair, "ACTIVE", key="az_server")
    body = lambda ids: {"aggregate": {"name": ids["agg_prefix"] + "-az",  # noqa: E731
                                      "availability_zone": "fid-az"}}  # fmt: skip
    real, local = pair.check("POST", "/os-aggregates", body, version="2.41")
    pair.real.created.append(("aggregate", real.body["aggregate"]["id"]))
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["aggregate_az"] = answer.body["aggregate"]["id"]
    add = lambda ids: {"add_host": {"host": ids["host"]}}  # noqa: E731
    pair.check("POST", "/os-aggregates/{aggregate_az}/action", add, version="2.41")
    pair.check("GET", "/os-availability-zone", version="2.41",
               values=("availabilityZoneInfo.0.zoneName",))  # fmt: skip
    pair.check("DELETE", "/servers/{az_server}", version="2.41")
    pair.check("DELETE", "/os-aggregates/{aggregate_az}", version="2.41")
