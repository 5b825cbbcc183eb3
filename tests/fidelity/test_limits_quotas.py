"""Limits and quota sets: show, defaults, detail, update errors, refusals."""

import pytest

from tests.fidelity.test_versions import VERSIONS


@pytest.mark.parametrize("version", (*VERSIONS, "2.36", "2.57"))
@pytest.mark.parametrize("user", ("admin", "member"))
def test_limits(pair, version, user):
    pair.check("GET", "/limits", version=version, user=user)


def test_limits_of_other_project_as_member(pair):
    pair.check("GET", "/limits?tenant_id={admin_project}", version="2.1", user="member")


@pytest.mark.parametrize("version", (*VERSIONS, "2.36", "2.57"))
def test_quota_show(pair, version):
    pair.check("GET", "/os-quota-sets/{member_project}", version=version, user="member")


@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_defaults(pair, version):
    pair.check("GET", "/os-quota-sets/{member_project}/defaults", version=version)


@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_detail(pair, version):
    pair.check("GET", "/os-quota-sets/{member_project}/detail", version=version)


def test_quota_show_other_project_as_member(pair):
    pair.check("GET", "/os-quota-sets/{admin_project}", version="2.1", user="member")


def test_quota_update_as_member(pair):
    body = {"quota_set": {"cores": 30}}
    pair.check("PUT", "/os-quota-sets/{member_project}", body, version="2.1", user="member")


@pytest.mark.parametrize(
    "body",
    (
        {},
        {"quota_set": {}},
        {"quota_set": {"cores": "many"}},
        {"quota_set": {"cores": -2}},
        {"quota_set": {"bogus": 1}},
        {"quota_set": {"floating_ips": 1}},
        {"quota_set": {"cores": 1, "force": "maybe"}},
    ),
    ids=("empty", "no-keys", "str", "neg2", "unknown", "network-key", "force-str"),
)
@pytest.mark.parametrize("version", ("2.1", "2.36", "2.57"))
def test_quota_update_errors(pair, body, version):
    pair.check("PUT", "/os-quota-sets/{member_project}", body, version=version)


def test_quota_update_and_revert(pair):
    """Admin sets a member quota below usage-free values and deletes it."""
    body = {"quota_set": {"key_pairs": 50}}
    pair.check("PUT", "/os-quota-sets/{member_project}", body, version="2.57",
               values=("quota_set.key_pairs",))  # fmt: skip
    pair.check("DELETE", "/os-quota-sets/{member_project}", version="2.57")
    pair.check("GET", "/os-quota-sets/{member_project}", version="2.57",
               values=("quota_set.key_pairs",))  # fmt: skip


def test_quota_class_show(pair):
    pair.check("GET", "/os-quota-class-sets/default", version="2.57")


@pytest.mark.parametrize("version", ("2.1", "2.36", "2.57"))
def test_quota_show_user(pair, version):
    pair.check("GET", "/os-quota-sets/{member_project}?user_id={member_user}", version=version)


def test_quota_detail_as_member(pair):
    pair.check("GET", "/os-quota-sets/{member_project}/detail", version="2.57", user="member")


def test_quota_show_unknown_project(pair):
    """nova does not check the project exists: the defaults."""
    pair.check("GET", "/os-quota-sets/fid-no-such-project", version="2.57")


@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_update_below_usage_force(pair, version):
    body = {"quota_set": {"instances": 5, "force": True}}
    pair.check("PUT", "/os-quota-sets/{member_project}", body, version=version,
               values=("quota_set.instances",))  # fmt: skip
    pair.check("DELETE", "/os-quota-sets/{member_project}", version=version)


@pytest.mark.parametrize(
    "body",
    ({"quota_class_set": {"cores": "x"}}, {"quota_class_set": {"bogus": 1}}, {}),
    ids=("str", "unknown", "empty"),
)
@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_class_update_errors(pair, body, version):
    pair.check("PUT", "/os-quota-class-sets/default", body, version=version)


def test_quota_class_as_member(pair):
    pair.check("GET", "/os-quota-class-sets/default", version="2.57", user="member")
    pair.check("PUT", "/os-quota-class-sets/default", {"quota_class_set": {"cores": 1}},
               version="2.57", user="member")  # fmt: skip


@pytest.mark.parametrize("query", ("reserved=1", "tenant_id={member_project}", "bogus=1"))
@pytest.mark.parametrize("version", ("2.1", "2.57", "2.75"))
def test_limits_queries(pair, query, version):
    pair.check("GET", "/limits?" + query, version=version)
