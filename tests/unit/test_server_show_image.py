"""``server show``'s image as OSC prints it (openstackclient/compute/v2/
server.py ``_prep_server_detail``): ``name (id)`` from one Glance GET, the
id when that GET fails, "N/A (booted from volume)" without an image; no
Glance request when ``-c`` leaves the image out (requests-mock)."""

import json

import pytest

from .fakes import COMPUTE
from .fakes import IMAGE
from .test_server_commands import IMAGE_ID
from .test_server_commands import SID
from .test_server_commands import api_requests
from .test_server_commands import server_body

GLANCE_IMAGE = IMAGE + "/v2/images/" + IMAGE_ID


@pytest.fixture
def server(mock_cloud):
    """One server (SID) booted from IMAGE_ID; Glance's answer is the test's."""
    mock_cloud.mock.get(COMPUTE + "/servers/" + SID, json=server_body())
    return mock_cloud


def shown_image(cli, *extra):
    code, out, err = cli("server", "show", SID, *extra)
    assert code == 0, err
    return out, err


def test_the_image_by_name_and_id(cli, server):
    server.mock.get(GLANCE_IMAGE, json={"id": IMAGE_ID, "name": "cirros"})
    out, _ = shown_image(cli, "-f", "json")
    assert json.loads(out)["image"] == "cirros (%s)" % IMAGE_ID
    out, _ = shown_image(cli, "-f", "value", "-c", "image")
    assert out == "cirros (%s)\n" % IMAGE_ID


@pytest.mark.parametrize(
    "status, body",
    [
        (404, {"code": 404, "title": "Not Found", "message": "No image found"}),
        (403, {"code": 403, "title": "Forbidden", "message": "Forbidden"}),
    ],
)
def test_a_failing_image_get_shows_the_id(cli, server, status, body):
    # a deleted image, or another project's private one: OSC's bare id
    server.mock.get(GLANCE_IMAGE, status_code=status, json=body)
    out, err = shown_image(cli, "-f", "json")
    assert json.loads(out)["image"] == IMAGE_ID
    assert err == ""
    assert [r.path for r in api_requests(server)][-1].endswith("/v2/images/" + IMAGE_ID)


def test_an_unnamed_image_as_osc(cli, server):
    server.mock.get(GLANCE_IMAGE, json={"id": IMAGE_ID, "name": None})
    out, _ = shown_image(cli, "-f", "json")
    assert json.loads(out)["image"] == "None (%s)" % IMAGE_ID


def test_no_glance_request_when_c_leaves_the_image_out(cli, server):
    glance = server.mock.get(GLANCE_IMAGE, json={"id": IMAGE_ID, "name": "cirros"})
    out, _ = shown_image(cli, "-f", "json", "-c", "status", "-c", "name")
    assert json.loads(out) == {"name": "new-server-test", "status": "ACTIVE"}
    assert glance.call_count == 0
    # -c matched as cliff matches it
    out, _ = shown_image(cli, "-f", "json", "-c", "Image")
    assert glance.call_count == 1


def test_booted_from_volume_needs_no_glance(cli, server):
    body = server_body()
    body["server"]["image"] = ""
    server.mock.get(COMPUTE + "/servers/" + SID, json=body)
    glance = server.mock.get(GLANCE_IMAGE, json={"id": IMAGE_ID, "name": "cirros"})
    out, _ = shown_image(cli, "-f", "json")
    assert json.loads(out)["image"] == "N/A (booted from volume)"
    assert glance.call_count == 0
