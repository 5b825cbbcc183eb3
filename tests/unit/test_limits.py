"""The limits manager and ``limits show --absolute|--rate [--project]
[--reserved]`` (requests-mock, nova's samples)."""

import copy
import json

import pytest

from .fakes import COMPUTE
from .fakes import PROJECT_ID
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to
from .test_quotas import pinned

TENANT = "6f70656e737461636b20342065766572"


def sample(*parts):
    return copy.deepcopy(load_fixture("compute", *parts))


@pytest.mark.parametrize("version", ["2.1", "2.36", "2.39", "2.57"])
def test_limits_samples(mock_cloud, version):
    folder = ("limits",) + (() if version == "2.1" else ("v" + version,))
    body = sample(*folder, "limit-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/limits", json=body)
    got = pinned(version).limits.get()
    assert got.absolute == body["limits"]["absolute"]
    assert got.rate == []


#: Cinder's ``GET /limits`` (its api-ref's limits-show-response)
CINDER_LIMITS = {
    "limits": {
        "rate": [],
        "absolute": {
            "totalSnapshotsUsed": 0,
            "maxTotalBackups": 10,
            "maxTotalVolumeGigabytes": 1000,
            "maxTotalSnapshots": 10,
            "maxTotalBackupGigabytes": 1000,
            "totalBackupGigabytesUsed": 0,
            "maxTotalVolumes": 10,
            "totalVolumesUsed": 0,
            "totalBackupsUsed": 0,
            "totalGigabytesUsed": 0,
        },
    }
}


@pytest.fixture(autouse=True)
def cinder_limits(mock_cloud):
    mock_cloud.mock.get(VOLUME + "/limits", json=CINDER_LIMITS)


def test_limits_show_absolute_and_rate(cli, mock_cloud):
    body = sample("limits", "v2.57", "limit-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/limits", json=body)
    code, out, err = cli("limits", "show", "--absolute", "-f", "json")
    assert code == 0, err
    shown = {r["Name"]: r["Value"] for r in json.loads(out)}
    # OSC 10.5's names: openstacksdk's attribute and its aka, Cinder's too
    assert shown["total_cores"] == shown["max_total_cores"] == 20
    assert shown["total_cores_used"] == 0 and shown["keypairs"] == 100
    assert shown["max_total_volumes"] == 10 and shown["total_gigabytes_used"] == 0
    assert list(shown) == sorted(shown) and len(shown) == 2 * 9 + 2 + 10
    code, out, err = cli("limits", "show", "--rate", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == []
    # a rate limit as nova's API reference describes them (none since
    # Newton)
    body["limits"]["rate"] = [
        {
            "uri": "*",
            "regex": ".*",
            "limit": [
                {
                    "verb": "POST",
                    "value": 10,
                    "remaining": 2,
                    "unit": "MINUTE",
                    "next-available": "2011-12-15T22:42:45Z",
                }
            ],
        }
    ]
    mock_cloud.mock.get(COMPUTE + "/limits", json=body)
    code, out, err = cli("limits", "show", "--rate", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {
            "Verb": "POST",
            "URI": "*",
            "Value": 10,
            "Remain": 2,
            "Unit": "MINUTE",
            "Next Available": "2011-12-15T22:42:45Z",
        }
    ]


def test_limits_show_absolute_or_rate_not_both(cli, mock_cloud):
    code, out, err = cli("limits", "show", "--absolute", "--rate")
    assert code == 2
    assert requests_to(mock_cloud.mock, "GET", "/limits") == []


def test_limits_project_is_tenant_id(cli, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/limits", json=sample("limits", "v2.57", "limit-get-resp.json"))
    code, out, err = cli("limits", "show", "--project", TENANT)
    assert code == 0, err
    code, out, err = cli("limits", "show", "--project", "admin")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "GET", COMPUTE + "/limits")
    assert [r.qs for r in sent] == [{"tenant_id": [TENANT]}, {"tenant_id": [PROJECT_ID]}]
    sent = requests_to(mock_cloud.mock, "GET", VOLUME + "/limits")
    assert [r.qs for r in sent] == [{"project_id": [TENANT]}, {"project_id": [PROJECT_ID]}]
    assert sent[0].headers["OpenStack-API-Version"] == "volume 3.39"


def test_limits_reserved_until_2_74(cli, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/limits", json=sample("limits", "v2.57", "limit-get-resp.json"))
    code, out, err = cli("--os-compute-api-version", "2.75", "limits", "show", "--reserved")
    assert code == 1
    assert err.strip() == (
        "Counting reserved usage (--reserved) requires compute API version "
        "between 2.1 and 2.74 (in use: 2.75); change --os-compute-api-version."
    )
    assert requests_to(mock_cloud.mock, "GET", "/limits") == []
    code, out, err = cli("--os-compute-api-version", "2.74", "limits", "show", "--reserved")
    assert code == 0, err
    # unpinned, at openstacksdk's 2.1, which takes it
    code, out, err = cli("limits", "show", "--reserved")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "GET", COMPUTE + "/limits")
    assert [r.qs for r in sent] == [{"reserved": ["1"]}] * 2
    assert [r.headers["OpenStack-API-Version"] for r in sent] == ["compute 2.74", "compute 2.1"]


def test_limits_show_reads_at_2_1_as_openstacksdk(cli, mock_cloud):
    # Nova's 2.1 sample: the image meta, personality and nova-network
    # limits later versions drop, which OSC 10.5 prints
    mock_cloud.mock.get(COMPUTE + "/limits", json=sample("limits", "limit-get-resp.json"))
    code, out, err = cli("limits", "show", "--absolute", "-f", "json")
    assert code == 0, err
    shown = {r["Name"]: r["Value"] for r in json.loads(out)}
    assert shown["image_meta"] == shown["max_image_meta"] == 128
    assert shown["personality"] == 5 and shown["personality_size"] == 10240
    assert shown["floating_ips"] == shown["max_total_floating_ips"] == -1
    assert shown["security_groups_used"] == 0
    code, out, err = cli("--os-compute-api-version", "2.57", "limits", "show")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "GET", COMPUTE + "/limits")
    assert [r.headers["OpenStack-API-Version"] for r in sent] == ["compute 2.1", "compute 2.57"]
