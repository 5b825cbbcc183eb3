"""Paging markers stay inside the caller's projects (issue 9 H): another
project's server id as ``?marker=`` is ``marker [..] not found`` like an
unknown id, not an oracle for its existence and sort position. (Nova
itself looks markers up elevated; the local cloud is stricter.)"""

import pytest

from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud


@pytest.fixture(scope="module")
def nova(tmp_path_factory):
    cloud = make_cloud(tmp_path_factory.mktemp("marker"))
    nova = Nova(cloud)
    nova.demo_server = nova.create(name="mine")
    nova.admin_server = nova.create(name="theirs", user="admin")
    gone = nova.create(name="gone", user="admin")
    assert nova.delete("/servers/" + gone, user="admin").status == 204
    nova.admin_deleted = gone
    yield nova
    cloud.close()


@pytest.mark.parametrize("path", ["/servers", "/servers/detail", "/os-volumes_boot"])
def test_another_projects_server_is_not_a_marker(nova, path):
    for marker in (nova.admin_server, nova.admin_deleted):
        result = nova.get("%s?marker=%s" % (path, marker))
        assert fault(result) == ("badRequest", 400, "marker [%s] not found" % marker)
    result = nova.get("%s?marker=%s" % (path, nova.demo_server))
    assert result.status == 200 and result.json()["servers"] == []


def test_admin_markers_follow_the_listed_projects(nova):
    own = "/servers?marker=" + nova.demo_server
    assert nova.get(own, user="admin").status == 400
    result = nova.get(own + "&all_tenants=1", user="admin")
    assert result.status == 200, result.body


def test_keypair_markers_are_the_callers_own(nova):
    for user in ("demo", "admin"):
        body = {
            "keypair": {
                "name": "kp-" + user,
                "public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gk"
                "RYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M",
            }
        }
        assert nova.post("/os-keypairs", body, user=user, version="2.35").status == 201
    result = nova.get("/os-keypairs?marker=kp-admin", version="2.35")
    assert fault(result) == ("badRequest", 400, "Marker kp-admin could not be found.")
    assert nova.get("/os-keypairs?marker=kp-demo", version="2.35").status == 200
