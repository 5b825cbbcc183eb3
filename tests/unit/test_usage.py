"""Usage and the usage audit log: managers and ``usage list/show/audit``
(requests-mock, nova's samples)."""

import copy
import datetime
import json

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import PROJECT_ID
from .fakes import load_fixture
from .test_quotas import pinned

USAGE = COMPUTE + "/os-simple-tenant-usage"
AUDIT = COMPUTE + "/os-instance_usage_audit_log"
TENANT = "6f70656e737461636b20342065766572"


def sample(*parts):
    return copy.deepcopy(load_fixture("compute", *parts))


def gets(mock, part):
    return [r for r in mock.request_history if r.method == "GET" and part in r.url]


# -- usage manager -----------------------------------------------------------


def test_list_follows_the_pages_and_merges_projects(client, mock_cloud):
    first = sample("os-simple-tenant-usage", "v2.40", "simple-tenant-usage-get-detail.json")
    second = sample("os-simple-tenant-usage", "v2.40", "simple-tenant-usage-get-all.json")
    mock_cloud.mock.get(USAGE, [{"json": first}, {"json": second}])
    start = datetime.datetime(
        2016, 10, 12, 20, 22, 4, 868106, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
    )
    usages = client.usage.list(start=start, end=datetime.date(2016, 10, 13), detailed=True)
    first_get, second_get = gets(mock_cloud.mock, "/os-simple-tenant-usage")
    assert first_get.qs == {
        "start": ["2016-10-12t18:22:04.868106"],
        "end": ["2016-10-13t00:00:00.000000"],
        "detailed": ["1"],
    }
    # the next page: the marker of the sample's next link
    assert second_get.qs["marker"] == ["1f1deceb-17b5-4c04-84c7-e0d4499c8fe0"]
    assert [u.tenant_id for u in usages] == [TENANT, "0000000e737461636b20342065000000"]
    merged = usages[0].to_dict()
    assert merged["total_hours"] == 3.0
    assert merged["total_memory_mb_usage"] == 1536.0
    assert [s["name"] for s in merged["server_usages"]] == [
        "instance-2",
        "instance-1",
        "instance-2",
    ]
    assert usages[0].id == TENANT


def test_list_before_2_40_is_one_request(mock_cloud):
    body = sample("os-simple-tenant-usage", "simple-tenant-usage-get.json")
    mock_cloud.mock.get(USAGE, json=body)
    usages = pinned("2.39").usage.list()
    assert [u.to_dict() for u in usages] == body["tenant_usages"]
    (request,) = gets(mock_cloud.mock, "/os-simple-tenant-usage")
    assert request.qs == {}


def test_get_the_token_project_and_pages(client, mock_cloud):
    first = sample("os-simple-tenant-usage", "v2.40", "simple-tenant-usage-get-specific.json")
    mock_cloud.mock.get(
        USAGE + "/" + PROJECT_ID, [{"json": first}, {"json": {"tenant_usage": {}}}]
    )
    usage = client.usage.get(start="2012-10-08T00:00:00")
    assert usage.to_dict() == first["tenant_usage"]
    requests = gets(mock_cloud.mock, "/os-simple-tenant-usage/")
    assert [r.qs.get("marker") for r in requests] == [
        None,
        ["1f1deceb-17b5-4c04-84c7-e0d4499c8fe0"],
    ]


def test_an_empty_usage(client, mock_cloud):
    mock_cloud.mock.get(USAGE + "/" + TENANT, json={"tenant_usage": {}})
    usage = client.usage.get(TENANT)
    assert usage.to_dict() == {}


@pytest.mark.parametrize(
    "start, end",
    [
        (datetime.datetime(2024, 2, 1), datetime.datetime(2024, 1, 1)),
        (datetime.date(2024, 1, 1), datetime.date(2024, 1, 1)),
        (5, None),
    ],
)
def test_a_bad_period_is_a_usage_error(client, mock_cloud, start, end):
    with pytest.raises(exceptions.ValidationError):
        client.usage.list(start=start, end=end)
    assert gets(mock_cloud.mock, "/os-simple-tenant-usage") == []


# -- audit log manager --------------------------------------------------------------


def test_audit_log(client, mock_cloud):
    index = sample("os-instance-usage-audit-log", "inst-usage-audit-log-index-get-resp.json")
    show = sample("os-instance-usage-audit-log", "inst-usage-audit-log-show-get-resp.json")
    mock_cloud.mock.get(AUDIT, json=index)
    mock_cloud.mock.get(AUDIT + "/2012-07-01%2000%3A00%3A00.000000", json=show)
    assert client.usage_audit_logs.get().to_dict() == index["instance_usage_audit_logs"]
    got = client.usage_audit_logs.get(before=datetime.datetime(2012, 7, 1))
    assert got.overall_status == "3 of 4 hosts done. 3 errors."
    with pytest.raises(exceptions.ValidationError):
        client.usage_audit_logs.get(before=20120701)


# -- usage commands -----------------------------------------------------------------


def test_usage_list(cli, mock_cloud):
    body = sample("os-simple-tenant-usage", "v2.40", "simple-tenant-usage-get-all.json")
    mock_cloud.mock.get(USAGE, json=body)
    code, out, err = cli(
        "usage",
        "list",
        "--start",
        "2018-10-01",
        "--end",
        "2018-10-10T12:00:00+02:00",
        "-f",
        "json",
    )
    assert code == 0, err
    rows = json.loads(out)
    # the server usages in JSON, as OSC's (their number in a table)
    assert [len(row.pop("Servers")) for row in rows] == [1, 2]
    assert rows == [
        {
            "Project": "0000000e737461636b20342065000000",
            "RAM MB-Hours": 512.0,
            "CPU Hours": 1.0,
            "Disk GB-Hours": 1.0,
        },
        {
            "Project": TENANT,
            "RAM MB-Hours": 1024.0,
            "CPU Hours": 2.0,
            "Disk GB-Hours": 2.0,
        },
    ]
    (request,) = gets(mock_cloud.mock, "/os-simple-tenant-usage")
    assert request.qs == {
        "start": ["2018-10-01t00:00:00.000000"],
        "end": ["2018-10-10t10:00:00.000000"],
        "detailed": ["1"],
    }
    code, out, err = cli("usage", "list", "--start", "2018-10-01")
    assert code == 0, err
    assert out.startswith("Usage from 2018-10-01 to ")


def test_usage_show(cli, mock_cloud):
    body = sample("os-simple-tenant-usage", "simple-tenant-usage-get-specific.json")
    mock_cloud.mock.get(USAGE + "/" + TENANT, json=body)
    code, out, err = cli("usage", "show", "--project", TENANT, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    (server,) = shown.pop("Servers")  # as OSC's: openstacksdk's ServerUsage
    assert server["project_id"] == TENANT and "tenant_id" not in server
    assert server["instance_id"] == body["tenant_usage"]["server_usages"][0]["instance_id"]
    assert shown == {
        "Project": TENANT,
        "RAM MB-Hours": 512.0,
        "CPU Hours": 1.0,
        "Disk GB-Hours": 1.0,
    }
    code, out, err = cli("usage", "show", "--project", TENANT)
    assert code == 0, err
    assert "| Servers       | 1 " in out and "| CPU Hours     | 1.00 " in out
    mock_cloud.mock.get(USAGE + "/" + PROJECT_ID, json={"tenant_usage": {}})
    code, out, err = cli("usage", "show", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["Servers"] == []


@pytest.mark.parametrize(
    "argv", [("--start", "yesterday"), ("--start", "2024-02-01", "--end", "2024-01-01")]
)
def test_usage_period_errors_send_nothing(cli, mock_cloud, argv):
    code, out, err = cli("usage", "list", *argv)
    assert code == 2, err
    assert gets(mock_cloud.mock, "/os-simple-tenant-usage") == []


def test_usage_list_refused_by_policy(cli, mock_cloud):
    mock_cloud.mock.get(
        USAGE,
        status_code=403,
        json={
            "forbidden": {
                "code": 403,
                "message": "Policy doesn't allow "
                "os_compute_api:os-simple-tenant-usage:list to be performed.",
            }
        },
    )
    code, out, err = cli("usage", "list")
    assert code == 1
    assert "os-simple-tenant-usage:list" in err


def test_usage_audit(cli, mock_cloud):
    mock_cloud.mock.get(
        AUDIT + "/2012-07-01%2000%3A00%3A00",
        json=sample("os-instance-usage-audit-log", "inst-usage-audit-log-show-get-resp.json"),
    )
    code, out, err = cli("usage", "audit", "--before", "2012-07-01 00:00:00", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["Overall Status"] == "3 of 4 hosts done. 3 errors."
    assert shown["Hosts Not Run"] == ["329fa448-f6bb-4e72-b954-faa66c30d4fa"]
    assert shown["Log"]["2c8ef37b-f0cc-4a9e-92a6-32df0095cb12"]["state"] == "DONE"
