"""The 500s the fuzzer's integer bounds found (issue 19, finding 9), one
regression test each: an id past SQLite's INTEGER names nothing (404), a
count past it is refused (400), and digits past Python's int() limit (4300
digits: ``int()`` raises ValueError) get the service's own 400 (or, for
the console length, nova's reading of it) instead of a 500."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.wsgi_client import Client

# past Python's default int_max_str_digits (4300)
DIGITS = "9" * 5000
COMPUTE = "/compute/v2.1"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("bounds")), build_time=0))
    client = Client(cloud)
    crashes = []
    cloud.log_exception = crashes.append
    tokens = {user: client.token(user) for user in ("demo", "admin")}
    body = {"server": {"name": "b", "flavorRef": "1", "imageRef": CIRROS, "networks": "none"}}
    headers = {"OpenStack-API-Version": "compute 2.37"}
    server = client.post(COMPUTE + "/servers", json=body, headers=headers, token=tokens["demo"])
    assert server.status == 202, server.body
    volume = client.post("/volume/v3/volumes", json={"volume": {"size": 1}}, token=tokens["demo"])
    assert volume.status == 202, volume.body
    yield {
        "cloud": cloud,
        "client": client,
        "tokens": tokens,
        "crashes": crashes,
        "server": server.json()["server"]["id"],
        "volume": volume.json()["volume"]["id"],
    }
    cloud.close()


def _call(world, method, path, user="demo", **kw):
    before = len(world["crashes"])
    result = world["client"].request(method, path, token=world["tokens"][user], **kw)
    assert len(world["crashes"]) == before, "unhandled exception"
    return result


def _message(result):
    ((_, fault),) = result.json().items()
    return fault["message"]


@pytest.mark.parametrize("rule_id", [str(2**63), str(10**30), str(-(10**30))])
def test_deleting_a_fault_rule_past_sqlite_integer_is_404(world, rule_id):
    result = _call(world, "DELETE", "/localcloud/faults/" + rule_id, user="admin")
    assert result.status == 404
    assert _message(result) == "No fault rule %s." % rule_id


def test_a_fault_count_past_sqlite_integer_is_400(world):
    body = {"method": "GET", "path": "^/nothing$", "count": 2**63, "kind": "status"}
    result = _call(world, "POST", "/localcloud/faults", user="admin", json=body)
    assert result.status == 400
    assert _message(result) == "count must be at most %d" % (2**63 - 1)
    assert world["cloud"].faults.rules() == []


@pytest.mark.parametrize(
    "path, name",
    [
        ("/servers", "limit"),
        ("/servers/detail", "limit"),
        ("/flavors", "limit"),
        ("/os-server-groups", "limit"),
        ("/os-server-groups", "offset"),
        ("/servers/{server}/os-volume_attachments", "limit"),
        ("/servers/{server}/os-volume_attachments", "offset"),
    ],
)
def test_compute_paging_digits_past_int_limit_are_400(world, path, name):
    path = COMPUTE + path.format(server=world["server"]) + "?%s=%s" % (name, DIGITS)
    result = _call(world, "GET", path)
    assert result.status == 400
    assert _message(result) == "Invalid input received: %s must be an integer" % name


def _action(world, body):
    path = COMPUTE + "/servers/%s/action" % world["server"]
    return _call(world, "POST", path, json=body)


def test_console_output_length_past_int_limit_is_an_empty_tail(world):
    result = _action(world, {"os-getConsoleOutput": {"length": DIGITS}})
    assert result.status == 200
    assert result.json() == {"output": ""}


def test_backup_rotation_past_int_limit_is_400(world):
    body = {"createBackup": {"name": "b", "backup_type": "daily", "rotation": DIGITS}}
    result = _action(world, body)
    assert result.status == 400
    assert _message(result) == "Invalid input received: rotation must be an integer"


@pytest.mark.parametrize("path", ["/os-quota-sets/{project}", "/os-quota-class-sets/fuzz"])
def test_quota_digits_past_int_limit_are_over_the_maximum(world, path):
    with world["cloud"].store.read() as db:
        project = world["cloud"].identity.project_id(db, "demo")
    member = "quota_set" if "quota-sets" in path else "quota_class_set"
    result = _call(
        world,
        "PUT",
        COMPUTE + path.format(project=project),
        user="admin",
        json={member: {"cores": DIGITS}},
    )
    assert result.status == 400
    assert _message(result) == (
        "Invalid input for field/attribute cores. Value: inf. inf is greater than the"
        " maximum of 2147483647"
    )


def test_volume_size_digits_past_int_limit_are_over_the_maximum(world):
    result = _call(world, "POST", "/volume/v3/volumes", json={"volume": {"size": DIGITS}})
    assert result.status == 400
    assert _message(result) == (
        "Invalid input for field/attribute size. Value: inf. inf is greater than the"
        " maximum of 2147483647"
    )


def test_volume_extend_digits_past_int_limit_are_over_the_maximum(world):
    path = "/volume/v3/volumes/%s/action" % world["volume"]
    result = _call(world, "POST", path, json={"os-extend": {"new_size": DIGITS}})
    assert result.status == 400
    assert _message(result) == (
        "Invalid input for field/attribute new_size. Value: inf. inf is greater than the"
        " maximum of 2147483647"
    )
