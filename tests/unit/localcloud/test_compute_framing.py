"""The compute service's framing: version documents, microversion
negotiation, response headers, fault bodies and project-id URLs."""

import types

import pytest

from occli.localcloud import microversions
from occli.localcloud.app import version_gate
from occli.localcloud.compute.api.microversions import MAX_VERSION
from occli.localcloud.compute.api.servers import VOLUMES_BOOT_MAX_VERSION
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault

# -- version documents ------------------------------------------------------


def test_version_list_needs_no_token(nova):
    result = nova.client.get("/compute/")
    assert result.status == 200
    versions = {v["id"]: v for v in result.json()["versions"]}
    assert versions["v2.1"]["version"] == MAX_VERSION == "2.96"
    assert versions["v2.1"]["min_version"] == "2.1"
    assert versions["v2.0"]["status"] == "DEPRECATED"
    assert versions["v2.1"]["links"][0]["href"] == "http://cloud.test:8775/compute/v2.1/"


@pytest.mark.parametrize(
    "path,ident", [("/compute/v2.1/", "v2.1"), ("/compute/v2.1", "v2.1"), ("/compute/v2/", "v2.0")]
)
def test_version_documents(nova, path, ident):
    result = nova.client.get(path)
    assert result.status == 200
    doc = result.json()["version"]
    assert doc["id"] == ident
    assert doc["media-types"][0]["base"] == "application/json"
    assert [link["rel"] for link in doc["links"]] == ["self", "describedby"]


# -- microversions ------------------------------------------------------------


def test_no_header_means_2_1_and_headers_echoed(nova):
    result = nova.get("/flavors")
    assert result.header("OpenStack-API-Version") == "compute 2.1"
    assert result.header("X-OpenStack-Nova-API-Version") == "2.1"
    assert result.header("Vary") == "OpenStack-API-Version, X-OpenStack-Nova-API-Version"
    assert result.header("X-Compute-Request-Id") == result.header("X-OpenStack-Request-Id")
    assert result.header("X-Compute-Request-Id").startswith("req-")


@pytest.mark.parametrize(
    "headers,expected",
    [
        ({"OpenStack-API-Version": "compute 2.55"}, "2.55"),
        ({"OpenStack-API-Version": "compute latest"}, "2.96"),
        ({"X-OpenStack-Nova-API-Version": "2.19"}, "2.19"),
        ({"OpenStack-API-Version": "image 2.5, compute 2.30"}, "2.30"),
        ({"OpenStack-API-Version": "compute 2.60", "X-OpenStack-Nova-API-Version": "2.3"}, "2.60"),
        ({"OpenStack-API-Version": "image 2.5"}, "2.1"),
    ],
)
def test_requested_version(nova, headers, expected):
    result = nova.get("/flavors", headers=headers)
    assert result.status == 200
    assert result.header("X-OpenStack-Nova-API-Version") == expected
    assert result.header("OpenStack-API-Version") == "compute " + expected


@pytest.mark.parametrize(
    "headers",
    [
        {"OpenStack-API-Version": "compute 2"},
        {"OpenStack-API-Version": "compute 2.a"},
        {"OpenStack-API-Version": "compute two"},
        {"OpenStack-API-Version": "compute 2.01"},
        {"X-OpenStack-Nova-API-Version": "02.1"},
    ],
)
def test_malformed_version_is_400(nova, headers):
    result = nova.get("/flavors", headers=headers)
    assert result.status == 400
    name, code, message = fault(result)
    assert (name, code) == ("badRequest", 400)
    assert "is of invalid format" in message


@pytest.mark.parametrize("value", ["2.0", "2.97", "2.104", "3.0", "1.1"])
def test_unsupported_version_is_406(nova, value):
    result = nova.get("/flavors", version=value)
    assert result.status == 406
    name, code, message = fault(result)
    assert (name, code) == ("computeFault", 406)
    assert message == (
        "Version %s is not supported by the API. Minimum is 2.1 and maximum is 2.96." % value
    )


def test_error_responses_carry_version_headers(nova):
    result = nova.get("/servers/%s" % CIRROS, version="2.40")
    assert result.status == 404
    assert fault(result) == ("itemNotFound", 404, "Instance %s could not be found." % CIRROS)
    assert result.header("OpenStack-API-Version") == "compute 2.40"
    assert result.header("Vary")


def test_missing_token_is_keystone_shaped_401(nova):
    result = nova.client.get("/compute/v2.1/servers")
    assert result.status == 401
    assert result.json()["error"]["code"] == 401
    assert result.header("WWW-Authenticate").startswith("Keystone uri=")


def test_unknown_route_and_method(nova):
    """nova's router: webob's plain 404 for an unknown path and for a known
    path with another method (never 405); see test_compute_realcloud_fidelity."""
    for result in (nova.get("/no-such-thing"), nova.call("PATCH", "/servers")):
        assert result.status == 404
        assert result.json()["title"] == "Not Found"


# -- project id in URLs -------------------------------------------------------


def test_project_id_segment_is_accepted_and_kept_in_links(nova):
    project = nova.project_id("demo")
    server_id = nova.create()
    result = nova.get("/%s/servers/%s" % (project, server_id))
    assert result.status == 200
    links = {link["rel"]: link["href"] for link in result.json()["server"]["links"]}
    assert links["self"] == (
        "http://cloud.test:8775/compute/v2.1/%s/servers/%s" % (project, server_id)
    )
    assert links["bookmark"] == (
        "http://cloud.test:8775/compute/%s/servers/%s" % (project, server_id)
    )
    plain = nova.show(server_id)["links"][0]["href"]
    assert project not in plain


def test_project_id_mismatch_is_400(nova):
    other = nova.project_id("admin")
    result = nova.get("/%s/servers" % other)
    assert result.status == 400
    assert fault(result)[2].startswith("Malformed request URL: URL's project_id '%s'" % other)


def test_non_hex_project_segment_is_404(nova):
    assert nova.get("/not_a_project/servers").status == 404


# -- version gate (os-volumes_boot) ----------------------------------------


def test_version_gate_hides_routes_outside_the_range():
    handler = version_gate(lambda req: "ok", max_version="2.102")

    def call(version):
        return handler(types.SimpleNamespace(microversion=microversions.APIVersion(version)))

    assert call("2.1") == "ok"
    assert call("2.102") == "ok"
    with pytest.raises(Exception) as info:
        call("2.103")
    assert info.value.status == 404
    assert VOLUMES_BOOT_MAX_VERSION == "2.102"


def test_volumes_boot_is_served_at_max_version(nova):
    body = {
        "server": {
            "name": "bfv",
            "flavorRef": "1",
            "networks": "none",
            "block_device_mapping_v2": [
                {
                    "boot_index": 0,
                    "uuid": CIRROS,
                    "source_type": "image",
                    "destination_type": "volume",
                    "volume_size": 1,
                    "delete_on_termination": True,
                }
            ],
        }
    }
    result = nova.post("/os-volumes_boot", body, version="latest")
    assert result.status == 202, result.body
    server_id = result.json()["server"]["id"]
    assert "/servers/" in result.header("Location")
    shown = nova.get("/os-volumes_boot/" + server_id, version="latest")
    assert shown.json()["server"]["image"] == ""
    assert nova.post("/os-volumes_boot/%s/action" % server_id, {"pause": None}).status == 400
    assert nova.post("/os-volumes_boot/%s/action" % server_id, {"os-stop": None}).status == 202
    assert nova.delete("/os-volumes_boot/" + server_id).status == 204
