"""Quota managers and ``quota show/set/delete`` (requests-mock, nova's
samples): URLs, bodies, the microversions that removed limits (refused
before any request) and the output."""

import copy
import json

import pytest

from occli import exceptions

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import NETWORK
from .fakes import PASSWORD
from .fakes import PROJECT_ID
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

SETS = COMPUTE + "/os-quota-sets/"
CLASSES = COMPUTE + "/os-quota-class-sets/"
OTHER = "5c6a3e8f0b2d4e71a9c3d2f1e0b4a6c8"


def sample(folder, version, name):
    parts = ("compute", folder) + (() if version == "2.1" else ("v" + version,)) + (name,)
    return copy.deepcopy(load_fixture(*parts))


def pinned(version):
    from keystoneauth1 import session
    from keystoneauth1.identity import v3

    from occli.client import Client

    auth = v3.Password(
        auth_url=AUTH_URL,
        username="admin",
        password=PASSWORD,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )
    return Client(session=session.Session(auth=auth), compute_api_version=version)


def compute_calls(mock, method):
    return [
        r
        for r in mock.request_history
        if r.method == method and r.url.startswith(COMPUTE + "/os-quota")
    ]


# -- managers ------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2.1", "2.36", "2.57"])
def test_get_detail_and_defaults_of_the_token_project(mock_cloud, version):
    m = mock_cloud.mock
    show = sample("os-quota-sets", version, "quotas-show-get-resp.json")
    detail = sample("os-quota-sets", version, "quotas-show-detail-get-resp.json")
    defaults = sample("os-quota-sets", version, "quotas-show-defaults-get-resp.json")
    m.get(SETS + PROJECT_ID, json=show)
    m.get(SETS + PROJECT_ID + "/detail", json=detail)
    m.get(SETS + PROJECT_ID + "/defaults", json=defaults)
    client = pinned(version)
    assert client.quotas.get().to_dict() == show["quota_set"]
    got = client.quotas.get(detail=True)
    assert got.cores == detail["quota_set"]["cores"]
    assert client.quotas.defaults().to_dict() == defaults["quota_set"]
    sent = [r.headers["OpenStack-API-Version"] for r in compute_calls(m, "GET")]
    assert sent == ["compute " + version] * 3


@pytest.mark.parametrize("version", ["2.1", "2.36", "2.57"])
def test_update_sends_the_sample_body(mock_cloud, version):
    m = mock_cloud.mock
    request = sample("os-quota-sets", version, "quotas-update-post-req.json")
    answer = sample("os-quota-sets", version, "quotas-update-post-resp.json")
    m.put(SETS + OTHER, json=answer)
    got = pinned(version).quotas.update(OTHER, **request["quota_set"])
    assert got.to_dict() == answer["quota_set"]
    (put,) = compute_calls(m, "PUT")
    assert put.json() == request


def test_update_with_force(client, mock_cloud):
    answer = sample("os-quota-sets", "2.57", "quotas-update-force-post-resp.json")
    mock_cloud.mock.put(SETS + OTHER, json=answer)
    client.quotas.update(OTHER, force=True, instances=45)
    (put,) = compute_calls(mock_cloud.mock, "PUT")
    assert put.json() == {"quota_set": {"instances": 45, "force": True}}


@pytest.mark.parametrize(
    "version, limit, removed",
    [
        ("2.36", "floating_ips", "2.36"),
        ("2.36", "fixed_ips", "2.36"),
        ("2.36", "security_groups", "2.36"),
        ("2.40", "networks", "2.36"),
        ("2.36", "security_group_rules", "2.36"),
        ("2.57", "injected_files", "2.57"),
        ("2.57", "injected_file_content_bytes", "2.57"),
        ("2.90", "injected_file_path_bytes", "2.57"),
    ],
)
def test_removed_limits_are_refused_before_any_request(mock_cloud, version, limit, removed):
    client = pinned(version)
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        client.quotas.update(OTHER, **{limit: 1})
    assert str(err.value).startswith(
        "The %s quota (removed in compute API %s) requires compute API "
        "version between 2.1 and %s (in use: %s)"
        % (limit, removed, "2.35" if removed == "2.36" else "2.56", version)
    )
    assert compute_calls(mock_cloud.mock, "PUT") == []


def test_limits_just_before_their_removal_are_sent(mock_cloud):
    m = mock_cloud.mock
    m.put(SETS + OTHER, json=sample("os-quota-sets", "2.1", "quotas-update-post-resp.json"))
    pinned("2.35").quotas.update(OTHER, floating_ips=3, injected_files=2)
    pinned("2.56").quotas.update(OTHER, injected_files=2)
    assert [r.json() for r in compute_calls(m, "PUT")] == [
        {"quota_set": {"floating_ips": 3, "injected_files": 2}},
        {"quota_set": {"injected_files": 2}},
    ]


@pytest.mark.parametrize(
    "limits",
    [
        {},
        {"instances": -2},
        {"instances": "3"},
        {"instances": True},
        {"cores": 2**31},
        {"cpus": 3},
    ],
)
def test_bad_values_are_usage_errors(client, mock_cloud, limits):
    with pytest.raises(exceptions.ValidationError):
        client.quotas.update(OTHER, **limits)
    assert compute_calls(mock_cloud.mock, "PUT") == []


def test_delete_reverts(client, mock_cloud):
    mock_cloud.mock.delete(SETS + OTHER, status_code=202)
    result = client.quotas.delete(OTHER)
    assert result.body == {}
    with pytest.raises(exceptions.ValidationError):
        client.quotas.delete(None)


@pytest.mark.parametrize("version", ["2.1", "2.50", "2.57"])
def test_quota_classes(mock_cloud, version):
    m = mock_cloud.mock
    shown = sample("os-quota-class-sets", version, "quota-classes-show-get-resp.json")
    request = sample("os-quota-class-sets", version, "quota-classes-update-post-req.json")
    answer = sample("os-quota-class-sets", version, "quota-classes-update-post-resp.json")
    m.get(CLASSES + "default", json=shown)
    m.put(CLASSES + "default", json=answer)
    client = pinned(version)
    assert client.quota_classes.get().to_dict() == shown["quota_class_set"]
    got = client.quota_classes.update("default", **request["quota_class_set"])
    assert got.to_dict() == answer["quota_class_set"]
    (put,) = compute_calls(m, "PUT")
    assert put.json() == request


def test_quota_classes_lost_network_limits_in_2_50(mock_cloud):
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        pinned("2.50").quota_classes.update("default", floating_ips=1)
    assert "removed in compute API 2.50" in str(err.value)
    with pytest.raises(exceptions.UnsupportedVersion):
        pinned("2.57").quota_classes.update("default", injected_files=1)
    assert compute_calls(mock_cloud.mock, "PUT") == []


def test_nova_errors_carry_the_message(client, mock_cloud):
    mock_cloud.mock.put(
        SETS + OTHER,
        status_code=400,
        json={
            "badRequest": {
                "code": 400,
                "message": "Quota limit 1 for instances must be greater "
                "than or equal to already used and reserved 2.",
            }
        },
    )
    with pytest.raises(exceptions.BadRequest) as err:
        client.quotas.update(OTHER, instances=1)
    assert "already used and reserved 2" in str(err.value)


# -- commands --------------------------------------------------------------------


def rows(out):
    return {r["Resource"]: r for r in json.loads(out)}


def test_quota_show_lists_the_token_project(cli, mock_cloud):
    # nova's answer at 2.56 (its 2.36 sample: 2.57 dropped the injected files)
    body = sample("os-quota-sets", "2.36", "quotas-show-get-resp.json")
    mock_cloud.mock.get(SETS + PROJECT_ID, json=body)
    code, out, err = cli("quota", "show", "--compute", "-f", "json")
    assert code == 0, err
    (sent,) = requests_to(mock_cloud.mock, "GET", SETS + PROJECT_ID)
    # openstacksdk's microversion, which OSC's rows come from
    assert sent.headers["OpenStack-API-Version"] == "compute 2.56"
    assert list(json.loads(out)[0]) == ["Resource", "Limit"]
    # OSC 10.5's rows: nova's own names first, openstacksdk's fields nova
    # lacks as nulls, then the ones OSC renames
    assert [(r["Resource"], r["Limit"]) for r in json.loads(out)] == [
        ("cores", 20),
        ("instances", 10),
        ("ram", 51200),
        ("fixed_ips", None),
        ("floating_ips", None),
        ("networks", None),
        ("security_group_rules", None),
        ("security_groups", None),
        ("injected-file-size", 10240),
        ("injected-path-size", 255),
        ("injected-files", 5),
        ("key-pairs", 100),
        ("properties", 128),
        ("server-group-members", 10),
        ("server-groups", 10),
    ]
    # the token's project by name is the same project
    code, out, err = cli("quota", "show", "admin", "--compute", "-f", "json")
    assert code == 0, err
    assert len(requests_to(mock_cloud.mock, "GET", "/os-quota-sets/" + PROJECT_ID)) == 2


def test_quota_show_pinned_reads_at_the_pin(cli, mock_cloud):
    body = sample("os-quota-sets", "2.57", "quotas-show-get-resp.json")
    mock_cloud.mock.get(SETS + PROJECT_ID, json=body)
    code, out, err = cli(
        "--os-compute-api-version", "2.57", "quota", "show", "--compute", "-f", "json"
    )
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "GET", SETS + PROJECT_ID)
    assert [r.headers["OpenStack-API-Version"] for r in sent] == ["compute 2.57"]
    # nova has no injected-file limits there: openstacksdk's null rows, not renamed
    shown = rows(out)
    assert shown["injected_files"]["Limit"] is None and "injected-files" not in shown
    assert shown["key-pairs"]["Limit"] == 100


def test_quota_show_usage(cli, mock_cloud):
    body = sample("os-quota-sets", "2.57", "quotas-show-detail-get-resp.json")
    body["quota_set"]["instances"]["in_use"] = 3
    mock_cloud.mock.get(SETS + OTHER + "/detail", json=body)
    code, out, err = cli("quota", "show", "--compute", "--usage", OTHER, "-f", "json")
    assert code == 0, err
    assert rows(out)["instances"] == {
        "Resource": "instances",
        "Limit": 10,
        "In Use": 3,
        "Reserved": 0,
    }
    # OSC's: a null limit 0, key pairs' use N/A (nova counts them per user)
    assert rows(out)["fixed_ips"] == {
        "Resource": "fixed_ips",
        "Limit": 0,
        "In Use": 0,
        "Reserved": 0,
    }
    assert rows(out)["key-pairs"]["In Use"] == "N/A"


def test_quota_show_default_and_class(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(
        SETS + PROJECT_ID + "/defaults",
        json=sample("os-quota-sets", "2.57", "quotas-show-defaults-get-resp.json"),
    )
    m.get(
        CLASSES + "default",
        json=sample("os-quota-class-sets", "2.57", "quota-classes-show-get-resp.json"),
    )
    code, out, err = cli("quota", "show", "--compute", "--default", "-f", "json")
    assert code == 0, err
    assert rows(out)["cores"]["Limit"] == 20
    code, out, err = cli("quota", "show", "--class", "default", "-f", "value")
    assert code == 0, err
    assert "instances 10" in out.splitlines()


@pytest.mark.parametrize(
    "argv", [("--class", "--usage"), ("--class", "--default"), ("--default", "--usage")]
)
def test_quota_show_option_conflicts(cli, mock_cloud, argv):
    code, out, err = cli("quota", "show", *argv)
    assert code == 2
    assert compute_calls(mock_cloud.mock, "GET") == []


def test_quota_set_sends_each_option(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(SETS + OTHER, json=sample("os-quota-sets", "2.57", "quotas-update-post-resp.json"))
    code, out, err = cli(
        "quota",
        "set",
        OTHER,
        "--instances",
        "20",
        "--cores",
        "-1",
        "--ram",
        "4096",
        "--key-pairs",
        "3",
        "--server-groups",
        "2",
        "--server-group-members",
        "4",
        "--properties",
        "9",
    )
    assert (code, out) == (0, ""), err
    (put,) = compute_calls(m, "PUT")
    assert put.json() == {
        "quota_set": {
            "instances": 20,
            "cores": -1,
            "ram": 4096,
            "key_pairs": 3,
            "server_groups": 2,
            "server_group_members": 4,
            "metadata_items": 9,
        }
    }


def test_quota_set_removed_option_names_the_version(cli, mock_cloud):
    code, out, err = cli("quota", "set", OTHER, "--injected-files", "3")
    assert code == 1
    assert err.strip() == (
        "The --injected-files quota (removed in compute API 2.57) requires "
        "compute API version between 2.1 and 2.56 (in use: 2.96); pin a "
        "version with --os-compute-api-version."
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.40", "quota", "set", OTHER, "--fixed-ips", "3"
    )
    assert code == 1
    assert "--fixed-ips quota (removed in compute API 2.36)" in err
    assert compute_calls(mock_cloud.mock, "PUT") == []


def test_quota_set_before_the_removal(cli, mock_cloud):
    mock_cloud.mock.put(
        SETS + OTHER, json=sample("os-quota-sets", "2.1", "quotas-update-post-resp.json")
    )
    code, out, err = cli(
        "--os-compute-api-version",
        "2.35",
        "quota",
        "set",
        OTHER,
        "--injected-files",
        "3",
        "--injected-file-size",
        "100",
        "--injected-path-size",
        "50",
        "--floating-ips",
        "2",
        "--force",
    )
    assert code == 0, err
    (put,) = compute_calls(mock_cloud.mock, "PUT")
    assert put.json() == {
        "quota_set": {
            "injected_files": 3,
            "injected_file_content_bytes": 100,
            "injected_file_path_bytes": 50,
            "floating_ips": 2,
            "force": True,
        }
    }


@pytest.mark.parametrize(
    "argv",
    [
        (OTHER,),
        (OTHER, "--instances", "-2"),
        (OTHER, "--instances", "x"),
        ("--class", "default", "--force", "--instances", "2"),
    ],
)
def test_quota_set_usage_errors(cli, mock_cloud, argv):
    code, out, err = cli("quota", "set", *argv)
    assert code == 2, err
    assert compute_calls(mock_cloud.mock, "PUT") == []


def test_quota_set_class(cli, mock_cloud):
    mock_cloud.mock.put(
        CLASSES + "default",
        json=sample("os-quota-class-sets", "2.57", "quota-classes-update-post-resp.json"),
    )
    code, out, err = cli(
        "quota", "set", "--class", "default", "--instances", "50", "--cores", "50"
    )
    assert code == 0, err
    (put,) = compute_calls(mock_cloud.mock, "PUT")
    assert put.json() == {"quota_class_set": {"instances": 50, "cores": 50}}


def test_quota_delete(cli, mock_cloud):
    mock_cloud.mock.delete(SETS + OTHER, status_code=202)
    mock_cloud.mock.delete(NETWORK + "/v2.0/quotas/" + OTHER, status_code=204)
    mock_cloud.mock.delete(VOLUME + "/os-quota-sets/" + OTHER, status_code=200)
    code, out, err = cli("quota", "delete", OTHER)
    assert (code, out) == (0, ""), err
    assert len(compute_calls(mock_cloud.mock, "DELETE")) == 1
    code, out, err = cli("quota", "delete")
    assert code == 2


def test_quota_set_refused_by_policy(cli, mock_cloud):
    mock_cloud.mock.put(
        SETS + OTHER,
        status_code=403,
        json={
            "forbidden": {
                "code": 403,
                "message": "Policy doesn't allow "
                "os_compute_api:os-quota-sets:update to be performed.",
            }
        },
    )
    code, out, err = cli("quota", "set", OTHER, "--instances", "1")
    assert code == 1
    assert "os-quota-sets:update" in err and "HTTP 403" in err


def test_a_project_name_is_looked_up_in_keystone(cli, mock_cloud):
    from occli.client import Client

    if "projects" not in Client.builtin_managers():
        pytest.skip("no keystone project manager in this client")
    m = mock_cloud.mock
    identity = AUTH_URL + "/projects"
    m.get(
        identity + "/demo",
        status_code=404,
        json={
            "error": {
                "code": 404,
                "title": "Not Found",
                "message": "Could not find project: demo.",
            }
        },
    )
    m.get(
        identity + "?name=demo",
        json={"projects": [{"id": OTHER, "name": "demo", "domain_id": "default"}], "links": {}},
    )
    m.get(SETS + OTHER, json=sample("os-quota-sets", "2.57", "quotas-show-get-resp.json"))
    code, out, err = cli("quota", "show", "demo", "--compute")
    assert code == 0, err
    assert len(requests_to(m, "GET", "/os-quota-sets/" + OTHER)) == 1
    # one the caller may not look up is taken as an ID
    m.get(
        identity + "/secret",
        status_code=403,
        json={"error": {"code": 403, "title": "Forbidden", "message": "nope"}},
    )
    m.get(
        SETS + "secret",
        status_code=403,
        json={
            "forbidden": {
                "code": 403,
                "message": "Policy doesn't allow "
                "os_compute_api:os-quota-sets:show to be performed.",
            }
        },
    )
    code, out, err = cli("quota", "show", "secret", "--compute")
    assert code == 1
    assert "os-quota-sets:show" in err
