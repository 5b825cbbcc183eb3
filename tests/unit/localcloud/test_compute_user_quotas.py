"""Per-user compute quotas (``os-quota-sets/{project}?user_id=``), kept and
enforced as nova's ``DbQuotaDriver`` does: a user's limits fit the
project's remains, count that user's servers, and bind only that user."""

import pytest

from occli.localcloud.compute import quotas

SETS = "/os-quota-sets/"
STRANGER = "0123456789abcdef0123456789abcdef"


@pytest.fixture(name="demo")
def demo_project(nova):
    return nova.project_id("demo")


@pytest.fixture(name="user")
def demo_user(nova):
    with nova.cloud.store.read() as db:
        return nova.cloud.identity.user_id(db, "demo")


def put(nova, project, user=None, expect=200, **values):
    path = SETS + project + ("?user_id=" + user if user else "")
    result = nova.put(path, {"quota_set": values}, user="admin", version="2.57")
    assert result.status == expect, result.body
    return result.json()


def test_a_user_limit_binds_that_users_boots_only(nova, demo, user):
    put(nova, demo, user, instances=1)
    nova.create(name="first")
    refused = nova.create(name="second", expect=403)
    assert refused.json()["forbidden"]["message"] == (
        "Quota exceeded for instances: Requested 1, but already used 1 of 1 instances"
    )
    # another user's limit leaves demo alone
    put(nova, demo, user, instances=2)
    put(nova, demo, STRANGER, instances=1)
    nova.create(name="second")


def test_a_boot_is_trimmed_to_the_users_headroom(nova, demo, user):
    put(nova, demo, user, instances=2)
    nova.create(name="many", min_count=1, max_count=5)
    listed = nova.get("/servers").json()["servers"]
    assert len(listed) == 2


def test_the_users_cores_are_checked_before_the_projects(nova, demo, user):
    put(nova, demo, instances=10, cores=20)
    put(nova, demo, user, cores=1)
    nova.create(name="one")
    message = nova.create(name="two", expect=403).json()["forbidden"]["message"]
    assert message.startswith("Quota exceeded for cores: Requested 1, but already used 1 of 1")


def test_user_limits_fit_the_projects_remains(nova, demo, user):
    put(nova, demo, instances=5)
    put(nova, demo, user, instances=3)
    answer = put(nova, demo, STRANGER, expect=400, instances=3)
    assert answer["badRequest"]["message"] == (
        "Quota limit 3 for instances must be less than or equal to 2."
    )
    # the project cannot go below what its users were given
    answer = put(nova, demo, expect=400, instances=2)
    assert answer["badRequest"]["message"] == (
        "Quota limit 2 for instances must be greater than or equal to already used and reserved 3."
    )
    put(nova, demo, STRANGER, instances=3, force=True)


def test_detail_counts_the_users_servers(nova, demo, user):
    put(nova, demo, user, instances=4)
    nova.create(name="mine")
    path = SETS + demo + "/detail?user_id="
    mine = nova.get(path + user, user="admin").json()["quota_set"]["instances"]
    assert mine == {"limit": 4, "in_use": 1, "reserved": 0}
    theirs = nova.get(path + STRANGER, user="admin").json()["quota_set"]["instances"]
    assert theirs == {"limit": 10, "in_use": 0, "reserved": 0}


def test_deleting_the_projects_quotas_deletes_its_users(nova, demo, user):
    put(nova, demo, user, instances=1)
    assert nova.delete(SETS + demo, user="admin").status == 202
    shown = nova.get(SETS + demo + "?user_id=" + user).json()["quota_set"]
    assert shown["instances"] == quotas.NOVA_DEFAULTS["instances"]


def test_a_member_may_not_set_a_user_quota(nova, demo, user):
    path = SETS + demo + "?user_id=" + user
    result = nova.put(path, {"quota_set": {"instances": 1}})
    assert result.status == 403
    assert nova.delete(path).status == 403


def test_a_resize_counts_against_the_owners_limit(nova, demo, user):
    server = nova.create(flavorRef="3")  # m1.medium: 2 vCPUs
    put(nova, demo, user, cores=3)
    result = nova.action(server, {"resize": {"flavorRef": "4"}}, version="2.57")
    assert result.status == 403
    assert result.json()["forbidden"]["message"] == (
        "Quota exceeded for cores: Requested 2, but already used 2 of 3 cores"
    )
    # the project's own limit leaves room: only the user's limit refused it
    put(nova, demo, user, cores=4)
    assert nova.action(server, {"resize": {"flavorRef": "4"}}).status == 202
