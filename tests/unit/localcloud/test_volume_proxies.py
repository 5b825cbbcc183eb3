"""Nova's deprecated ``os-volumes`` and ``os-snapshots`` proxies to the
local cloud's Cinder: served up to 2.35, 404 from 2.36."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")


def test_volumes_proxy(cinder):
    created = cinder.nova(
        "POST", "/os-volumes", {"volume": {"size": 1, "display_name": "p"}}, version="2.35"
    )
    assert created.status == 200
    volume = created.json()["volume"]
    assert (volume["displayName"], volume["attachments"]) == ("p", [{}])
    assert created.header("Location").endswith("/os-volumes/" + volume["id"])
    shown = cinder.nova("GET", "/os-volumes/" + volume["id"], version="2.35").json()["volume"]
    assert shown["status"] == "available" and shown["volumeType"] == "__DEFAULT__"
    server = cinder.server()
    cinder.show_server(server)
    assert cinder.attach(server, volume["id"]).status == 200
    listed = cinder.nova("GET", "/os-volumes/detail", version="2.1").json()["volumes"]
    assert listed[0]["attachments"] == [
        {"id": volume["id"], "volumeId": volume["id"], "serverId": server, "device": "/dev/vdb"}
    ]
    assert cinder.nova("GET", "/os-volumes", version="2.36").status == 404
    theirs = cinder.nova("GET", "/os-volumes/" + volume["id"], user="alt", version="2.35")
    assert (theirs.status, message(theirs)) == (
        404,
        "Volume %s could not be found." % volume["id"],
    )
    refused = cinder.nova("DELETE", "/os-volumes/" + volume["id"], version="2.35")
    assert refused.status == 400


def test_snapshots_proxy(cinder):
    volume = cinder.create()
    cinder.show(volume["id"])
    body = {"snapshot": {"volume_id": volume["id"], "display_name": "s"}}
    created = cinder.nova("POST", "/os-snapshots", body, version="2.35")
    assert created.status == 200
    snap = created.json()["snapshot"]
    assert (snap["displayName"], snap["volumeId"], snap["size"]) == ("s", volume["id"], 1)
    listed = cinder.nova("GET", "/os-snapshots", version="2.35").json()["snapshots"]
    assert [s["id"] for s in listed] == [snap["id"]]
    assert cinder.nova("GET", "/os-snapshots/" + snap["id"], version="2.36").status == 404
    deleted = cinder.nova("DELETE", "/os-snapshots/" + snap["id"], version="2.35")
    assert deleted.status == 202
    assert cinder.nova("GET", "/os-snapshots/" + snap["id"], version="2.35").status == 404


def test_quota_is_nova_403(cinder):
    demo = cinder.projects["demo"]
    body = {"quota_set": {"volumes": 0}}
    assert cinder.put("/os-quota-sets/" + demo, body, user="admin", project=False).status == 200
    result = cinder.nova("POST", "/os-volumes", {"volume": {"size": 1}}, version="2.35")
    assert (result.status, message(result)) == (
        403,
        "VolumeLimitExceeded: Maximum number of volumes allowed (0) exceeded for quota 'volumes'.",
    )
