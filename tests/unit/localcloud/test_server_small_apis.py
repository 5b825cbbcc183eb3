"""Local cloud: ``/servers/{id}/ips``, ``/extensions``,
``os-server-password``, ``injectNetworkInfo``, ``accessIPv6`` as nova
stores it, and the framing fixes (406 headers, the root document without a
request id, aggregate ``updated_at``) against nova 34's answers
(tests/fixtures/compute/realcloud/nova-34-server-extras.json)."""

import json
from pathlib import Path

from tests.unit.localcloud.compute_harness import fault

REAL = json.loads(
    (
        Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-server-extras.json"
    ).read_text()
)["exchanges"]


def test_ips_and_one_network(shared_nova):
    server_id = shared_nova.create()
    detail = shared_nova.show(server_id)
    ips = shared_nova.get("/servers/%s/ips" % server_id).json()["addresses"]
    assert set(ips) == set(detail["addresses"]) and ips
    network, entries = next(iter(ips.items()))
    assert entries == [
        {"addr": e["addr"], "version": e["version"]} for e in detail["addresses"][network]
    ]
    one = shared_nova.get("/servers/%s/ips/%s" % (server_id, network)).json()
    assert one == {network: entries}
    missing = shared_nova.get("/servers/%s/ips/nowhere" % server_id)
    real = REAL["ips_network_unknown"]
    assert (missing.status, missing.json()) == (real["status"], real["body"])
    other = shared_nova.create(user="admin")
    assert shared_nova.get("/servers/%s/ips" % other).status == 404


def test_extensions_are_nova_34s(shared_nova):
    listed = shared_nova.get("/extensions")
    assert listed.json() == REAL["extensions_member"]["body"]
    shown = shared_nova.get("/extensions/os-server-password").json()
    assert shown == REAL["extension_show"]["body"]
    unknown = shared_nova.get("/extensions/nope")
    assert (unknown.status, unknown.json()) == (404, REAL["extension_unknown"]["body"])


def test_server_password_get_and_clear(shared_nova):
    server_id = shared_nova.create()
    path = "/servers/%s/os-server-password" % server_id
    assert shared_nova.get(path).json() == REAL["server_password_get"]["body"]
    assert shared_nova.delete(path).status == 204
    missing = "00000000-0000-0000-0000-000000000000"
    answer = shared_nova.get("/servers/%s/os-server-password" % missing)
    assert (answer.status, answer.json()) == (404, REAL["server_password_other_project"]["body"])
    other = shared_nova.create(user="admin")
    assert shared_nova.delete("/servers/%s/os-server-password" % other).status == 404


def test_inject_network_info_is_admin_only(shared_nova):
    server_id = shared_nova.create()
    member = shared_nova.action(server_id, {"injectNetworkInfo": None})
    real = REAL["inject_network_info_member"]
    assert (member.status, member.json()) == (real["status"], real["body"])
    assert shared_nova.action(server_id, {"injectNetworkInfo": None}, user="admin").status == 202
    # nova ignores the body; an admin passes a lock
    shared_nova.action(server_id, {"lock": None})
    body = {"injectNetworkInfo": {"a": 1}}
    assert shared_nova.action(server_id, body, user="admin").status == 202


def test_access_ipv6_is_stored_compressed(shared_nova):
    long_form = "0000:0000:0000:0000:0000:babe:220.12.22.2"
    server_id = shared_nova.create(accessIPv6=long_form)
    assert (
        shared_nova.show(server_id)["accessIPv6"]
        == (REAL["create_access_ipv6"]["body"]["server"]["accessIPv6"])
    )
    updated = shared_nova.put(
        "/servers/" + server_id,
        {"server": {"accessIPv6": "2001:0db8:0000:0000:0000:0000:0000:0001"}},
    ).json()["server"]
    assert updated["accessIPv6"] == REAL["update_access_ipv6"]["body"]["server"]["accessIPv6"]
    image = shared_nova.show(server_id)["image"]["id"]
    rebuilt = shared_nova.action(
        server_id, {"rebuild": {"imageRef": image, "accessIPv6": long_form}}
    )
    assert rebuilt.json()["server"]["accessIPv6"] == "::babe:dc0c:1602"


def test_rebuild_gates_and_checks_match_nova(shared_nova):
    server_id = shared_nova.create()
    image = shared_nova.show(server_id)["image"]["id"]
    for name, field, value, version in (
        ("rebuild_key_name_2.53", "key_name", "nokey", "2.53"),
        ("rebuild_user_data_2.56", "user_data", "aGVsbG8=", "2.56"),
        ("rebuild_hostname_2.89", "hostname", "h", "2.89"),
        ("rebuild_trusted_image_certificates_2.62", "trusted_image_certificates", ["a"], "2.62"),
        ("rebuild_description_2.18", "description", "d", "2.18"),
    ):
        answer = shared_nova.action(
            server_id, {"rebuild": {"imageRef": image, field: value}}, version=version
        )
        expected = REAL[name]["body"]["badRequest"]["message"].replace(
            "155d900f-4e14-4e4c-a73d-069cbf4541e6", image
        )
        assert fault(answer) == ("badRequest", 400, expected)
    for name, body, version in (
        ("rebuild_key_unknown", {"key_name": "nokey-h11"}, "2.54"),
        ("rebuild_preserve_ephemeral_bad", {"preserve_ephemeral": "maybe"}, "2.96"),
        ("rebuild_certs_empty", {"trusted_image_certificates": []}, "2.63"),
    ):
        answer = shared_nova.action(
            server_id, {"rebuild": dict(body, imageRef=image)}, version=version
        )
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])


def test_version_too_high_echoes_version_headers(shared_nova):
    answer = shared_nova.get("/servers", version="2.200")
    real = REAL["version_too_high"]
    assert answer.status == 406
    for name in ("OpenStack-API-Version", "X-OpenStack-Nova-API-Version"):
        assert answer.header(name) == real["headers"][name]
    assert answer.header("X-OpenStack-Request-Id").startswith("req-")


def test_root_version_document_has_no_request_id(shared_nova):
    root = shared_nova.client.get("/compute/")
    assert REAL["root_versions"]["headers"]["X-OpenStack-Request-Id"] is None
    assert root.status == 200
    assert root.header("X-OpenStack-Request-Id") is None
    assert root.header("X-Compute-Request-Id") is None
    versioned = shared_nova.client.get("/compute/v2.1/")
    assert versioned.header("X-OpenStack-Request-Id").startswith("req-")
