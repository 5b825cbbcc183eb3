"""Per-user compute quotas in the SDK and the CLI (requests-mock):
novaclient's ``quotas.get/update/delete(tenant_id, user_id=...)`` and its
``--user`` option on ``quota show``, ``quota set`` and ``quota delete``,
answered with the real Nova 34's recorded bodies
(``tests/fixtures/compute/realcloud/nova-34-user-quotas.json``)."""

import json

import pytest

from .fakes import COMPUTE
from .fakes import load_fixture

SETS = COMPUTE + "/os-quota-sets/"
OTHER = "5c6a3e8f0b2d4e71a9c3d2f1e0b4a6c8"
USER = "3c4bf09d9df8495e9f966f2d35a80a88"
RECORDED = load_fixture("compute", "realcloud", "nova-34-user-quotas.json")["exchanges"]


def body(key):
    return RECORDED[key]["body"]


def calls(mock, method):
    return [r for r in mock.request_history if r.method == method and "/os-quota-sets/" in r.url]


def test_the_manager_names_the_user(client, mock_cloud):
    m = mock_cloud.mock
    m.get(SETS + OTHER + "?user_id=" + USER, json=body("user_show"))
    m.get(SETS + OTHER + "/detail?user_id=" + USER, json=body("user_detail_in_use"))
    m.put(SETS + OTHER + "?user_id=" + USER, json=body("user_set"))
    m.delete(SETS + OTHER + "?user_id=" + USER, status_code=202)
    assert client.quotas.get(OTHER, user_id=USER).instances == 1
    assert client.quotas.get(OTHER, detail=True, user_id=USER).instances["in_use"] == 1
    assert client.quotas.update(OTHER, user_id=USER, instances=1, cores=4).cores == 4
    client.quotas.delete(OTHER, user_id=USER)
    sent = [(r.method, r.qs) for r in calls(m, "GET") + calls(m, "PUT") + calls(m, "DELETE")]
    assert sent == [(method, {"user_id": [USER]}) for method in ("GET", "GET", "PUT", "DELETE")]
    assert calls(m, "PUT")[0].json() == {"quota_set": {"instances": 1, "cores": 4}}


def test_quota_show_user_shows_compute_only(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(SETS + OTHER + "/detail?user_id=" + USER, json=body("user_detail_in_use"))
    code, out, err = cli("quota", "show", "--user", USER, "--usage", OTHER, "-f", "json")
    assert code == 0, err
    shown = {row["Resource"]: row for row in json.loads(out)}
    assert shown["instances"] == {"Resource": "instances", "Limit": 1, "In Use": 1, "Reserved": 0}
    assert "ports" not in shown and "volumes" not in shown
    # one user's key pairs nova counts (OSC's N/A is for a project's)
    assert shown["key-pairs"]["In Use"] == 0
    assert [r.path for r in m.request_history if "9696" in r.url or "8776" in r.url] == []


def test_quota_set_user(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(SETS + OTHER + "?user_id=" + USER, json=body("user_set_force"))
    code, out, err = cli("quota", "set", "--user", USER, "--force", "--instances", "9", OTHER)
    assert (code, out) == (0, ""), err
    (put,) = calls(m, "PUT")
    assert put.qs == {"user_id": [USER]}
    assert put.json() == {"quota_set": {"instances": 9, "force": True}}


def test_quota_set_user_carries_novas_refusal(cli, mock_cloud):
    m = mock_cloud.mock
    refused = RECORDED["user_set_over_project"]
    m.put(SETS + OTHER + "?user_id=" + USER, status_code=400, json=refused["body"])
    code, out, err = cli("quota", "set", "--user", USER, "--instances", "6", OTHER)
    assert code == 1
    assert "Quota limit 6 for instances must be less than or equal to 5." in err


@pytest.mark.parametrize(
    "argv",
    [
        ("set", "--user", USER, "--ports", "3", OTHER),
        ("set", "--user", USER, "--class", "--instances", "3", "default"),
        ("show", "--user", USER, "--network", OTHER),
        ("show", "--user", USER, "--default", OTHER),
    ],
)
def test_user_takes_compute_limits_only(cli, mock_cloud, argv):
    code, out, err = cli("quota", *argv)
    assert code == 2, err
    assert "--user" in err
    assert calls(mock_cloud.mock, "PUT") == calls(mock_cloud.mock, "GET") == []


def test_quota_delete_user_reverts_compute_only(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(SETS + OTHER + "?user_id=" + USER, status_code=202)
    code, out, err = cli("quota", "delete", "--user", USER, OTHER)
    assert (code, out) == (0, ""), err
    assert [r.qs for r in m.request_history if r.method == "DELETE"] == [{"user_id": [USER]}]
