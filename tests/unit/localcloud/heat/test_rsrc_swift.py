"""OS::Swift::Container in stacks run by the engine: a real container of
the local object store in the stack's project account, its URLs and
counts as attributes, and Heat's refusal to delete a non-empty one unless
PurgeOnDelete."""

import pytest

from tests.unit.localcloud.heat import harness


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


def account_url(cloud, ctx):
    return cloud.url + "/object-store/v1/AUTH_%s" % ctx.project_id


def container_status(cloud, ctx, name):
    return (
        cloud.session("local")
        .get(account_url(cloud, ctx) + "/" + name, raise_exc=False)
        .status_code
    )


CONTAINER = tmpl(
    {
        "box": {
            "type": "OS::Swift::Container",
            "properties": {"X-Account-Meta": {"Owner": "stack"}},
        }
    },
    {
        "name": {"value": {"get_resource": "box"}},
        "domain": {"value": {"get_attr": ["box", "DomainName"]}},
        "website": {"value": {"get_attr": ["box", "WebsiteURL"]}},
        "root": {"value": {"get_attr": ["box", "RootURL"]}},
        "count": {"value": {"get_attr": ["box", "ObjectCount"]}},
        "bytes": {"value": {"get_attr": ["box", "BytesUsed"]}},
        "head": {"value": {"get_attr": ["box", "HeadContainer"]}},
    },
)


def test_container_is_real_with_heats_attributes_and_gone_after_delete(cloud, ctx):
    stack_id, row = run(cloud, ctx, "objs", CONTAINER)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    name = out["name"]
    assert name.startswith("objs-box-")
    assert container_status(cloud, ctx, name) in (200, 204)
    session = cloud.session("local")
    session.put(account_url(cloud, ctx) + "/%s/hello.txt" % name, data=b"hello")
    account = session.head(account_url(cloud, ctx))
    assert account.headers["X-Account-Meta-Owner"] == "stack"
    assert out["root"] == account_url(cloud, ctx)
    assert out["website"] == account_url(cloud, ctx) + "/" + name
    assert out["domain"] == "127.0.0.1"
    assert (out["count"], out["bytes"]) == ("0", "0")
    assert out["head"]["x-container-object-count"] == "0"
    row = harness.row(cloud, stack_id)
    now = outputs(cloud, ctx, row)
    assert (now["count"], now["bytes"]) == ("1", "5")

    # heat refuses to delete what is still in it
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "FAILED")
    assert row["status_reason"] == (
        "Resource DELETE failed: ResourceActionNotSupported: resources.box: Deleting "
        "non-empty container (%s) when PurgeOnDelete is False is not supported for resource."
        % name
    )
    assert container_status(cloud, ctx, name) == 200

    session.delete(account_url(cloud, ctx) + "/%s/hello.txt" % name)
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert container_status(cloud, ctx, name) == 404


def test_purge_on_delete_empties_then_deletes_a_named_container(cloud, ctx):
    template = tmpl(
        {
            "box": {
                "type": "OS::Swift::Container",
                "properties": {"name": "purged", "PurgeOnDelete": True},
            }
        },
        {"name": {"value": {"get_resource": "box"}}},
    )
    stack_id, row = run(cloud, ctx, "purge", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, row)["name"] == "purged"
    session = cloud.session("local")
    for n in range(3):
        session.put(account_url(cloud, ctx) + "/purged/obj%d" % n, data=b"x")
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert container_status(cloud, ctx, "purged") == 404


def test_a_container_already_gone_counts_as_deleted(cloud, ctx):
    template = tmpl({"box": {"type": "OS::Swift::Container", "properties": {"name": "vanishing"}}})
    stack_id, row = run(cloud, ctx, "gone", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    cloud.session("local").delete(account_url(cloud, ctx) + "/vanishing")
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]


def test_a_refused_container_name_fails_the_resource(cloud, ctx):
    template = tmpl({"box": {"type": "OS::Swift::Container", "properties": {"name": "n" * 300}}})
    stack_id, row = run(cloud, ctx, "long", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"].startswith(
        "Resource CREATE failed: BadRequest: resources.box: "
        "Container name length of 300 longer than 256 (HTTP 400)"
    )
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]


def test_heats_container_headers_reach_the_container(cloud, ctx):
    template = tmpl(
        {
            "box": {
                "type": "OS::Swift::Container",
                "properties": {
                    "name": "headed",
                    "X-Container-Meta": {"Web-Index": "index.html"},
                    "X-Container-Read": ".r:*",
                    "X-Container-Write": "%s:*" % ctx.project_id,
                },
            }
        },
        {"head": {"value": {"get_attr": ["box", "HeadContainer"]}}},
    )
    stack_id, row = run(cloud, ctx, "headed", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    head = outputs(cloud, ctx, row)["head"]
    assert head["x-container-meta-web-index"] == "index.html"
    assert head["x-container-read"] == ".r:*"
    assert head["x-container-write"] == "%s:*" % ctx.project_id
    served = cloud.session("local").head(account_url(cloud, ctx) + "/headed").headers
    assert served["X-Container-Meta-Web-Index"] == "index.html"
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
