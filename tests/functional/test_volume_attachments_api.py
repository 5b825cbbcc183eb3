"""Cinder's attachments API against the local cloud (demo user, cloud
``local``): ``server add volume`` attaches through it (the attachment is
listed by ``volume attachment list``), and the ``volume attachment``
commands reserve, connect, complete and delete a record of their own."""

import uuid

import pytest

from tests.functional.harness import IMAGE
from tests.functional.harness import as_json
from tests.functional.harness import ok

WAIT = ("--wait", "--wait-interval", "0.1")


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


@pytest.fixture
def volume(occli):
    shown = as_json(occli("volume", "create", unique("vol"), "--size", "1", *WAIT, "-f", "json"))
    yield shown
    occli("volume", "delete", shown["id"], "--force")


@pytest.fixture
def vm(occli):
    shown = as_json(
        occli(
            "server", "create", unique("att-vm"), "--image", IMAGE, "--flavor", "m1.tiny",
            "--network", "private", *WAIT, "-f", "json",
        )
    )  # fmt: skip
    yield shown
    occli("server", "delete", shown["id"], *WAIT)


def test_server_add_volume_is_an_attachment(occli, vm, volume):
    ok(occli("server", "add", "volume", vm["name"], volume["name"]))
    rows = as_json(
        occli("volume", "attachment", "list", "--volume-id", volume["id"], "-f", "json")
    )
    assert [(r["Server ID"], r["Status"]) for r in rows] == [(vm["id"], "attached")]
    shown = as_json(occli("volume", "attachment", "show", rows[0]["ID"], "-f", "json"))
    assert shown["Properties"]["attachment_id"] == rows[0]["ID"]
    # Nova uses it: Cinder's 409, exit 1
    code, out, err = occli("volume", "attachment", "delete", rows[0]["ID"])
    assert code == 1
    assert "using the Compute API" in err and "(HTTP 409)" in err
    ok(occli("server", "remove", "volume", vm["name"], volume["name"]))
    assert (
        as_json(occli("volume", "attachment", "list", "--volume-id", volume["id"], "-f", "json"))
        == []
    )


def test_reserve_connect_complete_delete(occli, vm, volume):
    made = as_json(occli("volume", "attachment", "create", volume["id"], vm["id"], "-f", "json"))
    assert made["Status"] == "reserved"
    assert as_json(occli("volume", "show", volume["id"], "-f", "json"))["status"] == "reserved"
    connected = as_json(
        occli(
            "volume", "attachment", "set", made["ID"], "--host", "node1", "--mountpoint",
            "/dev/vdb", "-f", "json",
        )
    )  # fmt: skip
    assert connected["Status"] == "attaching"
    assert connected["Properties"]["driver_volume_type"] == "iscsi"
    ok(occli("volume", "attachment", "complete", made["ID"]))
    assert as_json(occli("volume", "show", volume["id"], "-f", "json"))["status"] == "in-use"
    # the server does not use it (the record only): a delete frees the volume
    ok(occli("volume", "attachment", "delete", made["ID"]))
    assert as_json(occli("volume", "show", volume["id"], "-f", "json"))["status"] == "available"


def test_openstacksdk_attachment_calls(occli_env, volume):
    """openstacksdk's block storage attachment calls (another client than
    occli) reserve, connect, complete, list and delete a record."""
    import openstack

    conn = openstack.connect(cloud="local")
    server_id = str(uuid.uuid4())
    made = conn.block_storage.create_attachment(volume["id"], instance=server_id)
    assert (made.status, made.instance) == ("reserved", server_id)
    connector = {"host": "node1", "mountpoint": "/dev/vdb", "initiator": "iqn.x"}
    updated = conn.block_storage.update_attachment(made.id, connector=connector)
    assert updated.connection_info["driver_volume_type"] == "iscsi"
    conn.block_storage.complete_attachment(made.id)
    listed = list(conn.block_storage.attachments(volume_id=volume["id"]))
    assert [(a.id, a.status) for a in listed] == [(made.id, "attached")]
    conn.block_storage.delete_attachment(made.id, ignore_missing=False)
    assert conn.block_storage.get_volume(volume["id"]).status == "available"
