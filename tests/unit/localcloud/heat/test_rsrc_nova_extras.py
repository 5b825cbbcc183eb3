"""OS::Nova::KeyPair, OS::Nova::ServerGroup and OS::Nova::Flavor in stacks
run by the engine: each a real one of the local Nova, gone after the
delete, and each refusal as Nova or Heat words it."""

import copy
import logging

import pytest

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness

PUBLIC_KEY = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBnUGfUqz1GtaN8eu6mm5V8D1Ay6qxGa2OLVIDbXSXJh "
    "stack@example"
)


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


@pytest.fixture
def admin(cloud):
    return harness.context(cloud, "local-admin")


def run(cloud, ctx, name, template):
    made = harness.engine(cloud).create_stack(
        ctx, name, template, {}, {}, {}, {"disable_rollback": True}
    )
    return made["id"], harness.wait(cloud, made["id"])


def outputs(cloud, ctx, row):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, row)
    return {o["output_key"]: o.get("output_value") for o in found}


def delete(cloud, ctx, stack_id):
    harness.engine(cloud).delete_stack(ctx, stack_id)
    return harness.wait(cloud, stack_id)


def compute(cloud, method, path, cloud_name="local", version="2.91", **kwargs):
    return cloud.session(cloud_name).request(
        cloud.url + "/compute/v2.1" + path,
        method,
        headers={"OpenStack-API-Version": "compute %s" % version},
        raise_exc=False,
        **kwargs,
    )


# -- key pairs ----------------------------------------------------------------


def test_generated_key_pair_keeps_its_private_key_redacted(cloud, ctx, caplog):
    template = tmpl(
        {
            "kp": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": "stack-key", "save_private_key": True},
            }
        },
        {
            "ref": {"value": {"get_resource": "kp"}},
            "public": {"value": {"get_attr": ["kp", "public_key"]}},
            "private": {"value": {"get_attr": ["kp", "private_key"]}},
        },
    )
    caplog.set_level(logging.DEBUG)
    stack_id, row = run(cloud, ctx, "keys", template)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    assert out["ref"] == "stack-key"
    shown = compute(cloud, "GET", "/os-keypairs/stack-key").json()["keypair"]
    assert out["public"] == shown["public_key"]
    private = out["private"]
    assert "PRIVATE KEY" in private
    uuid = harness.resources(cloud, stack_id)["kp"]["id"]
    with cloud.cloud.store.read() as db:
        stored = db.execute(
            "SELECT redact FROM heat_resource_data WHERE resource_id = ? AND key = ?",
            (uuid, "private_key"),
        ).fetchone()
    assert stored["redact"]
    secret = private.splitlines()[1]
    assert not any(secret in str(e) for e in harness.events(cloud, stack_id))
    assert secret not in caplog.text

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert compute(cloud, "GET", "/os-keypairs/stack-key").status_code == 404


def test_imported_key_pair_has_no_private_key(cloud, ctx):
    template = tmpl(
        {
            "kp": {
                "type": "OS::Nova::KeyPair",
                "properties": {
                    "name": "imported",
                    "public_key": PUBLIC_KEY,
                    "save_private_key": True,
                },
            }
        },
        {
            "public": {"value": {"get_attr": ["kp", "public_key"]}},
            "private": {"value": {"get_attr": ["kp", "private_key"]}},
        },
    )
    stack_id, row = run(cloud, ctx, "imp", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, row)
    assert (out["public"], out["private"]) == (PUBLIC_KEY, "")
    assert compute(cloud, "GET", "/os-keypairs/imported").json()["keypair"]["public_key"] == (
        PUBLIC_KEY
    )
    delete(cloud, ctx, stack_id)
    assert compute(cloud, "GET", "/os-keypairs/imported").status_code == 404


def test_an_admin_makes_and_deletes_another_users_key_pair(cloud, admin):
    template = tmpl(
        {
            "kp": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": "for-demo", "public_key": PUBLIC_KEY, "user": "demo"},
            }
        }
    )
    stack_id, row = run(cloud, admin, "others", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    demo = compute(cloud, "GET", "/os-keypairs/for-demo").json()["keypair"]
    assert demo["user_id"] != admin.user_id
    row = delete(cloud, admin, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert compute(cloud, "GET", "/os-keypairs/for-demo").status_code == 404


def test_an_unknown_user_is_heats_entity_not_found(cloud, admin):
    template = tmpl(
        {
            "kp": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": "nobody", "public_key": PUBLIC_KEY, "user": "nosuch"},
            }
        }
    )
    stack_id, row = run(cloud, admin, "nouser", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == (
        "Resource CREATE failed: EntityNotFound: resources.kp: "
        "The KeystoneUser (nosuch) could not be found."
    )
    delete(cloud, admin, stack_id)


def test_a_key_pair_name_taken_is_novas_conflict(cloud, ctx):
    compute(cloud, "POST", "/os-keypairs", json={"keypair": {"name": "taken"}})
    template = tmpl(
        {
            "kp": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": "taken", "public_key": PUBLIC_KEY},
            }
        }
    )
    stack_id, row = run(cloud, ctx, "dup", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource CREATE failed: Conflict: resources.kp: "
        "Key pair 'taken' already exists. (HTTP 409)"
    )
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    # the failed resource never owned it: the user's own key pair stays
    assert compute(cloud, "GET", "/os-keypairs/taken").status_code == 200


# -- server groups ------------------------------------------------------------


def test_server_group_is_real_and_gone_after_delete(cloud, ctx):
    template = tmpl(
        {
            "grp": {
                "type": "OS::Nova::ServerGroup",
                "properties": {
                    "policies": ["anti-affinity"],
                    "rules": {"max_server_per_host": 2},
                },
            },
            "near": {
                "type": "OS::Nova::ServerGroup",
                "properties": {"name": "near", "policies": ["affinity"]},
            },
        },
        {
            "grp": {"value": {"get_resource": "grp"}},
            "near": {"value": {"get_resource": "near"}},
            "shown": {"value": {"get_attr": ["near", "show", "policy"]}},
        },
    )
    stack_id, row = run(cloud, ctx, "groups", template)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    grp = compute(cloud, "GET", "/os-server-groups/%s" % out["grp"]).json()["server_group"]
    assert grp["name"].startswith("groups-grp-")
    assert (grp["policy"], grp["rules"]) == ("anti-affinity", {"max_server_per_host": 2})
    assert grp["project_id"] == ctx.project_id
    near = compute(cloud, "GET", "/os-server-groups/%s" % out["near"]).json()["server_group"]
    assert (near["name"], near["policy"]) == ("near", "affinity")
    assert out["shown"] == "affinity"

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    for group_id in (out["grp"], out["near"]):
        assert compute(cloud, "GET", "/os-server-groups/%s" % group_id).status_code == 404


def test_server_group_refusals(cloud, ctx):
    bad_policy = tmpl(
        {"grp": {"type": "OS::Nova::ServerGroup", "properties": {"policies": ["x"]}}}
    )
    with pytest.raises(errors.BadRequest) as refused:
        run(cloud, ctx, "badpolicy", bad_policy)
    assert refused.value.extra.get("type") == "StackValidationFailed"
    assert refused.value.message.startswith("Property error: resources.grp.properties.policies: ")
    assert "is not an allowed value" in refused.value.message

    rules_on_affinity = tmpl(
        {
            "grp": {
                "type": "OS::Nova::ServerGroup",
                "properties": {"policies": ["affinity"], "rules": {"max_server_per_host": 1}},
            }
        }
    )
    stack_id, row = run(cloud, ctx, "badrules", rules_on_affinity)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource CREATE failed: BadRequest: resources.grp: "
        "Only anti-affinity policy supports rules. (HTTP 400)"
    )
    delete(cloud, ctx, stack_id)


# -- flavors ------------------------------------------------------------------

FLAVOR = tmpl(
    {
        "flv": {
            "type": "OS::Nova::Flavor",
            "properties": {
                "ram": 256,
                "vcpus": 1,
                "disk": 1,
                "is_public": False,
                "tenants": ["demo"],
                "extra_specs": {"hw:cpu_policy": "shared"},
            },
        }
    },
    {
        "id": {"value": {"get_resource": "flv"}},
        "public": {"value": {"get_attr": ["flv", "is_public"]}},
        "specs": {"value": {"get_attr": ["flv", "extra_specs"]}},
    },
)


def test_admin_flavor_is_real_private_to_its_tenants_and_gone_after_delete(cloud, ctx, admin):
    stack_id, row = run(cloud, admin, "flavors", FLAVOR)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, admin, row)
    assert out["public"] is False
    assert out["specs"] == {"hw:cpu_policy": "shared"}
    flavor = compute(cloud, "GET", "/flavors/%s" % out["id"], "local-admin").json()["flavor"]
    assert flavor["name"].startswith("flavors-flv-")
    assert (flavor["ram"], flavor["vcpus"], flavor["disk"]) == (256, 1, 1)
    access = compute(cloud, "GET", "/flavors/%s/os-flavor-access" % out["id"], "local-admin")
    assert [a["tenant_id"] for a in access.json()["flavor_access"]] == [ctx.project_id]
    # the member of the project it is shared with sees it
    assert compute(cloud, "GET", "/flavors/%s" % out["id"]).status_code == 200

    changed = copy.deepcopy(FLAVOR)
    changed["resources"]["flv"]["properties"].update(
        extra_specs={"hw:mem_page_size": "large"}, tenants=["admin"]
    )
    harness.engine(cloud).update_stack(admin, stack_id, changed, {}, {}, {}, {}, existing=False)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, admin, row)["id"] == out["id"]
    specs = compute(cloud, "GET", "/flavors/%s/os-extra_specs" % out["id"], "local-admin")
    assert specs.json()["extra_specs"] == {"hw:mem_page_size": "large"}
    access = compute(cloud, "GET", "/flavors/%s/os-flavor-access" % out["id"], "local-admin")
    assert [a["tenant_id"] for a in access.json()["flavor_access"]] == [admin.project_id]

    row = delete(cloud, admin, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert compute(cloud, "GET", "/flavors/%s" % out["id"], "local-admin").status_code == 404


def test_a_members_flavor_is_refused_by_novas_policy(cloud, ctx):
    template = tmpl({"flv": {"type": "OS::Nova::Flavor", "properties": {"ram": 64, "vcpus": 1}}})
    stack_id, row = run(cloud, ctx, "memberflavor", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource CREATE failed: Forbidden: resources.flv: "
        "Policy doesn't allow os_compute_api:os-flavor-manage:create to be performed. (HTTP 403)"
    )
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
