"""OS::Cinder::Volume and OS::Cinder::VolumeAttachment in stacks run by the
engine: each volume a real one of the local Cinder in the stack's project,
attached through the local Nova, gone after the delete; every refusal
with Heat's text."""

import copy
import time

import pytest

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    fixture.cloud.seed_image("cirros", disk_format="qcow2", container_format="bare")
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


def update(cloud, ctx, stack_id, template):
    harness.engine(cloud).update_stack(ctx, stack_id, template, {}, {}, {}, {}, existing=False)
    return harness.wait(cloud, stack_id)


def outputs(cloud, ctx, row):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, row)
    return {o["output_key"]: o.get("output_value") for o in found}


def delete(cloud, ctx, stack_id):
    harness.engine(cloud).delete_stack(ctx, stack_id)
    return harness.wait(cloud, stack_id)


def volumes_url(cloud, ctx):
    return cloud.url + "/volume/v3/%s/volumes" % ctx.project_id


def show_volume(cloud, ctx, volume_id):
    answer = cloud.session("local").get(volumes_url(cloud, ctx) + "/" + volume_id, raise_exc=False)
    return answer.json()["volume"] if answer.status_code == 200 else answer.status_code


VOLUME = tmpl(
    {
        "vol": {
            "type": "OS::Cinder::Volume",
            "properties": {"size": 1, "name": "data", "metadata": {"tier": "gold"}},
        }
    },
    {
        "id": {"value": {"get_resource": "vol"}},
        "size": {"value": {"get_attr": ["vol", "size"]}},
        "status": {"value": {"get_attr": ["vol", "status"]}},
        "name": {"value": {"get_attr": ["vol", "display_name"]}},
        "meta": {"value": {"get_attr": ["vol", "metadata_values"]}},
        "meta_text": {"value": {"get_attr": ["vol", "metadata"]}},
        "bootable": {"value": {"get_attr": ["vol", "bootable"]}},
        "shown": {"value": {"get_attr": ["vol", "show", "id"]}},
    },
)


def test_volume_is_real_in_the_stack_project_and_gone_after_delete(cloud, ctx):
    stack_id, row = run(cloud, ctx, "vols", VOLUME)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    volume = show_volume(cloud, ctx, out["id"])
    assert volume["status"] == "available"
    assert volume["name"] == "data"
    assert volume["size"] == 1
    assert volume["metadata"] == {"tier": "gold"}
    assert volume["os-vol-tenant-attr:tenant_id"] == ctx.project_id
    # heat's attribute values: str() of what Cinder shows
    assert out["size"] == "1"
    assert out["status"] == "available"
    assert out["name"] == "data"
    assert out["meta"] == {"tier": "gold"}
    assert out["meta_text"] == '{"tier": "gold"}'
    assert out["bootable"] == "false"
    assert out["shown"] == out["id"]

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert show_volume(cloud, ctx, out["id"]) == 404


def test_volume_from_an_image_by_name_gets_the_physical_name(cloud, ctx):
    template = tmpl(
        {"vol": {"type": "OS::Cinder::Volume", "properties": {"size": 1, "image": "cirros"}}},
        {"id": {"value": {"get_resource": "vol"}}},
    )
    stack_id, row = run(cloud, ctx, "boot", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    volume = show_volume(cloud, ctx, outputs(cloud, ctx, row)["id"])
    assert volume["bootable"] == "true"
    assert volume["name"].startswith("boot-vol-")
    delete(cloud, ctx, stack_id)


def test_volume_rename_metadata_and_extend_in_place(cloud, ctx):
    stack_id, row = run(cloud, ctx, "grow", VOLUME)
    assert row["status"] == "COMPLETE", row["status_reason"]
    before = outputs(cloud, ctx, row)["id"]
    changed = copy.deepcopy(VOLUME)
    changed["resources"]["vol"]["properties"] = {
        "size": 3,
        "name": "bigger",
        "metadata": {"tier": "silver"},
    }
    row = update(cloud, ctx, stack_id, changed)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, row)["id"] == before
    volume = show_volume(cloud, ctx, before)
    assert (volume["size"], volume["name"]) == (3, "bigger")
    assert volume["metadata"] == {"tier": "silver"}
    assert volume["status"] == "available"

    shrunk = copy.deepcopy(changed)
    shrunk["resources"]["vol"]["properties"]["size"] = 2
    row = update(cloud, ctx, stack_id, shrunk)
    assert (row["action"], row["status"]) == ("UPDATE", "FAILED")
    assert row["status_reason"] == (
        "Resource UPDATE failed: NotSupported: resources.vol: Shrinking volume is not supported."
    )
    assert show_volume(cloud, ctx, before)["size"] == 3
    delete(cloud, ctx, stack_id)


@pytest.mark.parametrize(
    "props, kind, text",
    [
        (
            {"name": "nosize"},
            "StackValidationFailed",
            'If neither "backup_id" nor "size" is provided, one and only one of '
            '"source_volid", "snapshot_id" must be specified, but currently specified '
            "options: [].",
        ),
        (
            {"size": 1, "image": "cirros", "imageRef": "cirros"},
            "ResourcePropertyConflict",
            "Cannot define the following properties at the same time: image, imageRef.",
        ),
    ],
)
def test_volume_sources_are_validated_as_heat_does(cloud, ctx, props, kind, text):
    template = tmpl({"vol": {"type": "OS::Cinder::Volume", "properties": props}})
    with pytest.raises(errors.BadRequest) as refused:
        run(cloud, ctx, "badvol", template)
    assert refused.value.message == text
    assert refused.value.extra.get("type") == kind


def test_a_refusal_of_cinder_fails_the_resource(cloud, ctx):
    # Cinder's os-update_readonly_flag is served: a read-only volume is made
    template = tmpl(
        {"vol": {"type": "OS::Cinder::Volume", "properties": {"size": 1, "read_only": True}}}
    )
    stack_id, row = run(cloud, ctx, "ro", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert delete(cloud, ctx, stack_id)["status"] == "COMPLETE"
    # more than the gigabytes quota: Cinder's 413 is the resource's failure
    template = tmpl({"vol": {"type": "OS::Cinder::Volume", "properties": {"size": 5000}}})
    stack_id, row = run(cloud, ctx, "too-big", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"].startswith("Resource CREATE failed: "), row["status_reason"]
    assert "exceeds allowed gigabytes quota" in row["status_reason"]
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]


def test_a_volume_in_error_fails_as_heat_reports_it():
    fixture = harness.start(build_time=60.0)
    try:
        fixture.cloud.seed_image("cirros", disk_format="qcow2", container_format="bare")
        context = harness.context(fixture)
        template = tmpl(
            {"vol": {"type": "OS::Cinder::Volume", "properties": {"size": 1, "image": "cirros"}}}
        )
        made = harness.engine(fixture).create_stack(
            context, "err", template, {}, {}, {}, {"disable_rollback": True}
        )
        deadline = time.monotonic() + 30
        volume_id = None
        while volume_id is None:
            assert time.monotonic() < deadline, "the volume was never made"
            found = harness.resources(fixture, made["id"]).get("vol") or {}
            volume_id = found.get("physical_resource_id")
            time.sleep(0.02)
        # what a failed copy of the image leaves in a real Cinder
        with fixture.cloud.store.transaction() as db:
            db.execute(
                "UPDATE volumes SET status = 'error', pending = NULL WHERE id = ?", (volume_id,)
            )
        row = harness.wait(fixture, made["id"])
        assert (row["action"], row["status"]) == ("CREATE", "FAILED")
        assert row["status_reason"] == (
            "Resource CREATE failed: ResourceInError: resources.vol: "
            'Went to status error due to "Unknown"'
        )
        row = delete(fixture, context, made["id"])
        assert row["status"] == "COMPLETE", row["status_reason"]
        assert show_volume(fixture, context, volume_id) == 404
    finally:
        fixture.stop()


ATTACHED = tmpl(
    {
        "srv": {
            "type": "OS::Nova::Server",
            "properties": {"image": "cirros", "flavor": "m1.tiny"},
        },
        "vol": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
        "att": {
            "type": "OS::Cinder::VolumeAttachment",
            "properties": {
                "instance_uuid": {"get_resource": "srv"},
                "volume_id": {"get_resource": "vol"},
                "mountpoint": "/dev/vdb",
            },
        },
    },
    {
        "server": {"value": {"get_resource": "srv"}},
        "vol": {"value": {"get_resource": "vol"}},
        "att": {"value": {"get_resource": "att"}},
        "attachments": {"value": {"get_attr": ["vol", "attachments_list"]}},
    },
)


def attachments(cloud, server_id):
    url = cloud.url + "/compute/v2.1/servers/%s/os-volume_attachments" % server_id
    return cloud.session("local").get(url).json()["volumeAttachments"]


def test_attachment_is_real_and_detached_on_delete(cloud, ctx):
    stack_id, row = run(cloud, ctx, "att", ATTACHED)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    assert out["att"] == out["vol"]
    volume = show_volume(cloud, ctx, out["vol"])
    assert volume["status"] == "in-use"
    assert [a["server_id"] for a in volume["attachments"]] == [out["server"]]
    assert [(a["volumeId"], a["device"]) for a in attachments(cloud, out["server"])] == [
        (out["vol"], "/dev/vdb")
    ]
    assert [a["server_id"] for a in out["attachments"]] == [out["server"]]

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert show_volume(cloud, ctx, out["vol"]) == 404
    server = cloud.session("local").get(
        cloud.url + "/compute/v2.1/servers/%s" % out["server"], raise_exc=False
    )
    assert server.status_code == 404


def test_attachment_update_detaches_then_attaches_anew(cloud, ctx):
    stack_id, row = run(cloud, ctx, "reatt", ATTACHED)
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, row)
    changed = copy.deepcopy(ATTACHED)
    changed["resources"]["att"]["properties"]["mountpoint"] = "/dev/vdc"
    row = update(cloud, ctx, stack_id, changed)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert [(a["volumeId"], a["device"]) for a in attachments(cloud, out["server"])] == [
        (out["vol"], "/dev/vdc")
    ]
    assert show_volume(cloud, ctx, out["vol"])["status"] == "in-use"
    delete(cloud, ctx, stack_id)


def test_deleting_a_volume_attached_outside_the_stack_is_refused(cloud, ctx):
    template = tmpl(
        {
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {"image": "cirros", "flavor": "m1.tiny"},
            },
            # deleted before the server (whose delete would detach it)
            "vol": {
                "type": "OS::Cinder::Volume",
                "depends_on": ["srv"],
                "properties": {"size": 1},
            },
        },
        {"server": {"value": {"get_resource": "srv"}}, "vol": {"value": {"get_resource": "vol"}}},
    )
    stack_id, row = run(cloud, ctx, "inuse", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, row)
    session = cloud.session("local")
    url = cloud.url + "/compute/v2.1/servers/%s/os-volume_attachments" % out["server"]
    session.post(url, json={"volumeAttachment": {"volumeId": out["vol"]}})

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "FAILED")
    assert row["status_reason"] == "Resource DELETE failed: Error: resources.vol: Volume in use"
    assert show_volume(cloud, ctx, out["vol"])["status"] == "in-use"

    session.delete(url + "/" + out["vol"])
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert show_volume(cloud, ctx, out["vol"]) == 404


def test_attaching_a_volume_already_in_use_fails_with_heats_wrapping(cloud, ctx):
    template = tmpl(
        {
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {"image": "cirros", "flavor": "m1.tiny"},
            },
            "vol": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
            "one": {
                "type": "OS::Cinder::VolumeAttachment",
                "properties": {
                    "instance_uuid": {"get_resource": "srv"},
                    "volume_id": {"get_resource": "vol"},
                },
            },
            "two": {
                "type": "OS::Cinder::VolumeAttachment",
                "depends_on": ["one"],
                "properties": {
                    "instance_uuid": {"get_resource": "srv"},
                    "volume_id": {"get_resource": "vol"},
                },
            },
        },
        {"server": {"value": {"get_resource": "srv"}}, "vol": {"value": {"get_resource": "vol"}}},
    )
    stack_id, row = run(cloud, ctx, "twice", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    out = outputs(cloud, ctx, row)
    assert row["status_reason"].startswith(
        "Resource CREATE failed: Error: resources.two: Failed to attach volume %s to server %s - "
        "Invalid volume: volume %s is already attached to instances: %s (HTTP 400)"
        % (out["vol"], out["server"], out["vol"], out["server"])
    )
    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert show_volume(cloud, ctx, out["vol"]) == 404
