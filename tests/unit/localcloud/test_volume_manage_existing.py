"""Manage existing (3.8 ``POST /manageable_volumes``, the legacy
``POST /os-volume-manage``): Cinder 29's body checks and texts
(cinder/api/contrib/volume_manage.py, cinder/api/schemas/volume_manage.py),
the admin-only policy, and the volume ``managing`` then ``error_managing``
as the LVM driver finds no such logical volume."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")

HOST = "localcloud@lvm#lvm"


def _manage(cinder, volume, path="/manageable_volumes", user="admin", version="3.8"):
    return cinder.post(path, {"volume": volume}, user=user, version=version)


@pytest.mark.parametrize("path", ["/manageable_volumes", "/os-volume-manage"])
def test_a_managed_volume_ends_in_error_managing(cinder, path):
    result = _manage(
        cinder,
        {"host": HOST, "ref": {"source-name": "lv1"}, "name": " kept ", "bootable": "yes"},
        path=path,
    )
    assert result.status == 202, result.body
    volume = result.json()["volume"]
    assert (volume["status"], volume["size"], volume["name"]) == ("managing", 0, "kept")
    assert volume["bootable"] == "true"
    shown = cinder.get("/volumes/%s" % volume["id"], user="admin").json()["volume"]
    assert shown["status"] == "error_managing"
    assert cinder.delete("/volumes/%s" % volume["id"], user="admin").status == 202


def test_the_route_is_from_3_8(cinder):
    assert _manage(cinder, {"host": HOST, "ref": "lv1"}, version="3.7").status == 404
    assert _manage(cinder, {"host": HOST, "ref": "lv1"}, path="/os-volume-manage",
                   version="3.0").status == 202  # fmt: skip


def test_manage_refusals(cinder):
    missing = _manage(cinder, {"ref": "lv1"})
    assert missing.status == 400
    assert message(missing) == "Invalid input received: Host field is missing."
    both = _manage(cinder, {"host": HOST, "cluster": "c1", "ref": "lv1"}, version="3.16")
    assert both.status == 400
    assert message(both) == (
        "Invalid input received: One and only one of cluster and host must be set."
    )
    assert _manage(cinder, {"host": HOST, "cluster": "c1", "ref": "lv1"}).status == 400
    no_ref = _manage(cinder, {"host": HOST})
    assert no_ref.status == 400
    assert "'ref' is a required property" in message(no_ref)
    assert _manage(cinder, {"host": HOST, "ref": 1}).status == 400
    assert _manage(cinder, {"host": HOST, "ref": "lv1", "size": 1}).status == 400
    other = _manage(cinder, {"host": "elsewhere@lvm", "ref": "lv1"})
    assert other.status == 400
    assert message(other) == "Host 'elsewhere@lvm' not found"
    clustered = _manage(cinder, {"cluster": "c1", "ref": "lv1"}, version="3.16")
    assert message(clustered) == "Cluster 'c1' not found"
    vtype = _manage(cinder, {"host": HOST, "ref": "lv1", "volume_type": "nope"})
    assert vtype.status == 400
    assert message(vtype) == "Invalid volume type: Cannot find requested 'nope' volume type"
    refused = _manage(cinder, {"host": HOST, "ref": "lv1"}, user="demo")
    assert refused.status == 403
    assert message(refused) == (
        "Policy doesn't allow volume_extension:volume_manage to be performed."
    )


def test_a_managed_volume_name_is_refused(cinder):
    made = cinder.post("/volumes", {"volume": {"size": 1}}, user="admin").json()["volume"]
    again = _manage(cinder, {"host": HOST, "ref": {"source-name": "volume-%s" % made["id"]}})
    assert again.status == 400
    assert message(again) == (
        "Invalid volume: Unable to manage existing volume. The volume is already managed"
    )


def test_a_disabled_backend_is_unavailable(cinder):
    body = {"host": "localcloud@lvm", "binary": "cinder-volume"}
    assert cinder.put("/os-services/disable", body, user="admin").status == 200
    result = _manage(cinder, {"host": HOST, "ref": "lv1"})
    assert result.status == 400
    assert message(result) == "Service is unavailable at this time."
