"""The local Heat acts through real Keystone trusts (issue 21): a stack's
create makes a trust from its owner to Heat's service user with the
owner's roles, the engine's calls act as the owner within the trust's
roles, the owner's role removal or the trust's deletion stops the stack
from acting (Keystone's texts), and the stack's delete deletes the trust.

Each test has an owner of its own (a user with ``member`` on project
``demo``), made through Keystone's admin API, so taking its role or its
trust away touches no other test."""

import uuid

import pytest
import requests

from occli.localcloud import errors
from occli.localcloud.app import Context
from tests.unit.localcloud.heat import harness

VOLUME = {"type": "OS::Cinder::Volume", "properties": {"size": 1}}


def tmpl(resources):
    return {"heat_template_version": "2018-08-31", "resources": resources}


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def admin(cloud):
    return cloud.session("local-admin")


class Owner:
    """A fresh member of project ``demo``: its id, password token and the
    Context Heat's API hands the engine for it."""

    def __init__(self, cloud, admin):
        self.cloud = cloud
        self.admin = admin
        demo = harness.context(cloud)
        self.project_id = demo.project_id
        name = "owner-" + uuid.uuid4().hex[:8]
        made = admin.post(
            cloud.url + "/v3/users",
            json={"user": {"name": name, "password": "owner-secret"}},
        )
        self.user_id = made.json()["user"]["id"]
        roles = admin.get(cloud.url + "/v3/roles", params={"name": "member"}).json()["roles"]
        self.member_id = roles[0]["id"]
        admin.put(self._grant_url())
        answer = requests.post(
            cloud.url + "/v3/auth/tokens",
            json={
                "auth": {
                    "identity": {
                        "methods": ["password"],
                        "password": {"user": {"id": self.user_id, "password": "owner-secret"}},
                    },
                    "scope": {"project": {"id": self.project_id}},
                }
            },
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        self.token = answer.headers["X-Subject-Token"]
        self.ctx = Context(
            user_id=self.user_id,
            user_name=name,
            project_id=self.project_id,
            project_name="demo",
            roles=[r["name"] for r in answer.json()["token"]["roles"]],
        )

    def _grant_url(self):
        return self.cloud.url + "/v3/projects/%s/users/%s/roles/%s" % (
            self.project_id,
            self.user_id,
            self.member_id,
        )

    def revoke_member(self):
        assert self.admin.delete(self._grant_url()).status_code == 204

    def delete_trust(self, trust_id):
        answer = requests.delete(
            self.cloud.url + "/v3/OS-TRUST/trusts/" + trust_id,
            headers={"X-Auth-Token": self.token},
            timeout=10,
        )
        assert answer.status_code == 204, answer.text


@pytest.fixture
def owner(cloud, admin):
    return Owner(cloud, admin)


def create(cloud, owner, name, template):
    made = harness.engine(cloud).create_stack(
        owner.ctx, name, template, {}, {}, {}, {"disable_rollback": True}
    )
    return made["id"], harness.wait(cloud, made["id"])


def update(cloud, owner, stack_id, template):
    harness.engine(cloud).update_stack(
        owner.ctx, stack_id, template, {}, {}, {}, {"disable_rollback": True}
    )
    return harness.wait(cloud, stack_id)


def trust_of(cloud, stack_id):
    return harness.row(cloud, stack_id)["trust"]["trust_id"]


def show_trust(cloud, admin, trust_id):
    answer = admin.get(cloud.url + "/v3/OS-TRUST/trusts/" + trust_id, raise_exc=False)
    return answer.json()["trust"] if answer.status_code == 200 else answer.status_code


def show_volume(cloud, owner, volume_id):
    url = cloud.url + "/volume/v3/%s/volumes/%s" % (owner.project_id, volume_id)
    answer = requests.get(url, headers={"X-Auth-Token": owner.token}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["volume"]


def test_a_stack_create_makes_a_trust_to_heat_with_the_owner_s_roles(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "trusted", tmpl({}))
    assert row["status"] == "COMPLETE", row["status_reason"]
    trust = show_trust(cloud, admin, trust_of(cloud, stack_id))
    heat = admin.get(cloud.url + "/v3/users", params={"name": "heat"}).json()["users"]
    assert [u["name"] for u in heat] == ["heat"]
    assert trust["trustor_user_id"] == owner.user_id
    assert trust["trustee_user_id"] == heat[0]["id"]
    assert trust["project_id"] == owner.project_id
    assert trust["impersonation"] is True
    assert trust["expires_at"] is None and trust["remaining_uses"] is None
    roles = admin.get(cloud.url + "/v3/OS-TRUST/trusts/%s/roles" % trust["id"]).json()["roles"]
    assert sorted(r["name"] for r in roles) == ["member", "reader"]
    assert harness.row(cloud, stack_id)["trust"]["trustor_user_id"] == owner.user_id


def test_the_engine_acts_as_the_trustor_within_the_trust(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "acting", tmpl({"vol": VOLUME}))
    assert row["status"] == "COMPLETE", row["status_reason"]
    volume_id = harness.resources(cloud, stack_id)["vol"]["physical_resource_id"]
    volume = show_volume(cloud, owner, volume_id)
    assert volume["user_id"] == owner.user_id
    assert volume["os-vol-tenant-attr:tenant_id"] == owner.project_id


def test_the_owner_losing_the_member_role_makes_an_update_fail(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "demoted", tmpl({}))
    assert row["status"] == "COMPLETE", row["status_reason"]
    owner.revoke_member()
    row = update(cloud, owner, stack_id, tmpl({"vol": VOLUME}))
    assert (row["action"], row["status"]) == ("UPDATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource UPDATE failed: Forbidden: resources.vol: Trustee has no delegated roles."
        " (HTTP 403)"
    ), row["status_reason"]


def test_a_trust_the_owner_deleted_makes_the_next_action_fail(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "untrusted", tmpl({}))
    trust_id = trust_of(cloud, stack_id)
    owner.delete_trust(trust_id)
    row = update(cloud, owner, stack_id, tmpl({"vol": VOLUME}))
    assert (row["action"], row["status"]) == ("UPDATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource UPDATE failed: NotFound: resources.vol: Could not find trust: %s."
        " (HTTP 404)" % trust_id
    ), row["status_reason"]


def test_a_stack_delete_deletes_its_trust(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "done", tmpl({"vol": VOLUME}))
    trust_id = trust_of(cloud, stack_id)
    assert show_trust(cloud, admin, trust_id)["id"] == trust_id
    harness.engine(cloud).delete_stack(owner.ctx, stack_id)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert show_trust(cloud, admin, trust_id) == 404


def test_a_refused_create_leaves_no_trust(cloud, admin, owner):
    engine = harness.engine(cloud)
    before = admin.get(
        cloud.url + "/v3/OS-TRUST/trusts", params={"trustor_user_id": owner.user_id}
    ).json()["trusts"]
    bad = tmpl({"x": {"type": "OS::No::Such"}})
    with pytest.raises(errors.Error, match="could not be found"):
        engine.create_stack(owner.ctx, "bad", bad, {}, {}, {}, {})
    after = admin.get(
        cloud.url + "/v3/OS-TRUST/trusts", params={"trustor_user_id": owner.user_id}
    ).json()["trusts"]
    assert before == after == []


def test_a_stack_stored_before_trusts_keeps_acting_for_its_owner(cloud, admin, owner):
    stack_id, row = create(cloud, owner, "legacy", tmpl({}))
    with cloud.cloud.store.transaction() as db:
        stored = harness.row(cloud, stack_id)["trust"]
        for key in ("trust_id", "trustor_user_id"):
            stored.pop(key)
        harness.stacks.update(db, stack_id, trust=stored)
    row = update(cloud, owner, stack_id, tmpl({"vol": VOLUME}))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    volume_id = harness.resources(cloud, stack_id)["vol"]["physical_resource_id"]
    assert show_volume(cloud, owner, volume_id)["user_id"] == owner.user_id
