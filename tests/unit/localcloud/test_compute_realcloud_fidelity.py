"""Regressions for the differences the fidelity suite (tests/fidelity, make
fidelity) found between the local cloud and the real Nova 34; each compares
with the real answer recorded in tests/fixtures/compute/realcloud/
(nova-34-fidelity-*.json)."""

import pytest

from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import fault_of

FRAMING = Recorded("nova-34-fidelity-framing.json")


@pytest.mark.parametrize(
    "key",
    (
        "unrouted_get",
        "unrouted_subresource",
        "patch_flavors",
        "delete_flavors_collection",
        "show_service_by_id",
        "flavor_missing",
    ),
)
def test_unrouted_and_fault_answers(shared_nova, key):
    """Unknown paths and methods get webob's plain JSON 404 (no charset, no
    405); nova's faults carry ``charset=UTF-8``."""
    exchange = FRAMING[key]
    request = exchange["request"]
    result = shared_nova.call(
        request["method"], request["path"], json=request.get("body"), user="admin",
        version=request["version"],
    )  # fmt: skip
    assert result.status == exchange["status"]
    assert result.json() == exchange["body"]
    assert result.header("Content-Type") == exchange["headers"]["content-type"]


def test_empty_204_says_json(shared_nova):
    exchange = FRAMING["keypair_delete_204"]
    created = shared_nova.post(
        "/os-keypairs", {"keypair": {"name": "fid-rec-204"}}, user="admin", version="2.10"
    )
    assert created.status == FRAMING["keypair_create"]["status"]
    result = shared_nova.delete("/os-keypairs/fid-rec-204", user="admin", version="2.10")
    assert result.status == exchange["status"] == 204
    assert result.header("Content-Type") == exchange["headers"]["content-type"]
    assert result.body == b""


VALIDATION = Recorded("nova-34-fidelity-validation.json")


@pytest.mark.parametrize("key", sorted(VALIDATION.exchanges))
def test_first_schema_error_with_whole_value(shared_nova, key):
    """nova reports the first schema error in schema order (keypair name
    before the 2.92 public_key requirement) with the whole value, and uses
    its own keypair name patterns."""
    exchange = VALIDATION[key]
    request = exchange["request"]
    result = shared_nova.call(
        request["method"], request["path"], json=request["body"], user="admin",
        version=request["version"],
    )  # fmt: skip
    assert fault_of(result) == VALIDATION.fault(key)


AGGREGATES = Recorded("nova-34-fidelity-aggregates.json")


@pytest.fixture
def one_host(tmp_path):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data", compute_hosts=1)
    yield Nova(cloud)
    cloud.close()


def test_zone_move_refusals(one_host):
    """A host running servers (two, as in the recording) can neither join an
    aggregate with a zone nor be removed from one, even when it is not a
    member: nova 34 checks the zone move first, with its own reason."""
    nova = one_host
    for _ in range(2):
        nova.create(user="admin")
    created = nova.post(
        "/os-aggregates",
        {"aggregate": {"name": "fid-rec-agg", "availability_zone": "fid-rec-az"}},
        user="admin",
    )
    agg_id = created.json()["aggregate"]["id"]
    swaps = ((str(AGGREGATES.ids["aggregate"]), str(agg_id)), ("realcloud-compute1", "host1"))
    for key in ("add_host_zone_move", "remove_nonmember_zone_move", "remove_unknown_host"):
        body = AGGREGATES[key]["request"]["body"]
        action, args = next(iter(body.items()))
        if args["host"] == "realcloud-compute1":
            body = {action: {"host": "host1"}}
        result = nova.post("/os-aggregates/%s/action" % agg_id, body, user="admin", version="2.41")
        status, name, message = AGGREGATES.fault(key)
        for real, local in swaps:
            message = message.replace("aggregate %s" % real, "aggregate %s" % local)
            message = message.replace(real, local) if real == "realcloud-compute1" else message
        assert fault_of(result) == (status, name, message), key
    result = nova.post(
        "/os-aggregates/999999/action", {"remove_host": {"host": "host1"}}, user="admin"
    )
    status, name, message = AGGREGATES.fault("remove_missing_aggregate")
    assert fault_of(result) == (status, name, message.replace("realcloud-compute1", "host1"))


ZONES = Recorded("nova-34-fidelity-aggregate-zones.json")


def test_aggregate_zone_names(one_host):
    """A bad zone reports nova's oneOf (string or null), a bad name its
    InvalidName text; set_metadata takes any zone text."""
    nova = one_host
    agg_id = None
    for key, exchange in ZONES.exchanges.items():
        request = exchange["request"]
        path = request["path"].replace(str(ZONES.ids["aggregate"]), str(agg_id))
        result = nova.call(
            request["method"], path, json=request["body"], user="admin",
            version=request["version"],
        )  # fmt: skip
        if key == "create_ok":
            agg_id = result.json()["aggregate"]["id"]
        if exchange["status"] >= 400:
            assert fault_of(result) == ZONES.fault(key), key
        else:
            assert result.status == exchange["status"], key
            assert (
                result.json()["aggregate"]["availability_zone"]
                == (exchange["body"]["aggregate"]["availability_zone"])
            )


SERVER_LIST = Recorded("nova-34-fidelity-server-list.json")


@pytest.mark.parametrize("key", sorted(SERVER_LIST.exchanges))
def test_server_list_query_errors(shared_nova, key):
    """nova's index query schema (sort_key before limit), the DB layer's
    sort direction text and oslo's strict boolean text for all_tenants."""
    exchange = SERVER_LIST[key]
    request = exchange["request"]
    user = "admin" if exchange["user"] == "admin" else "demo"
    result = shared_nova.get(request["path"], user=user, version=request["version"])
    assert fault_of(result) == SERVER_LIST.fault(key)


def test_sort_key_enum_from_2_73():
    from occli.localcloud.compute.api import server_list_query
    from occli.localcloud.microversions import APIVersion

    enum = server_list_query.sort_key_enum
    old = enum(APIVersion("2.72"))
    assert old[-len(server_list_query.IGNORED_SORT_KEYS) :] == server_list_query.IGNORED_SORT_KEYS
    assert enum(APIVersion("2.73"))[0] == "locked"
    assert set(enum(APIVersion("2.75"))) == (
        set(old) - set(server_list_query.IGNORED_SORT_KEYS) | {"locked"}
    )


LIST_QUERIES = Recorded("nova-34-fidelity-list-queries.json")


@pytest.mark.parametrize("key", sorted(LIST_QUERIES.exchanges))
def test_list_query_schemas(shared_nova, key):
    """``limit`` is a non-negative integer in every compute list's query
    schema; from 2.53 the hypervisor routes take no other parameter."""
    exchange = LIST_QUERIES[key]
    request = exchange["request"]
    path = request["path"]
    if "/os-hypervisors/" in path and "detail" not in path:
        local = shared_nova.get("/os-hypervisors", user="admin", version="2.53")
        real_id = path.split("/")[2].split("?")[0]
        path = path.replace(real_id, local.json()["hypervisors"][0]["id"])
    user = "admin" if exchange["user"] == "admin" else "demo"
    result = shared_nova.get(path, user=user, version=request["version"])
    if exchange["status"] >= 400:
        assert fault_of(result) == LIST_QUERIES.fault(key)
    else:
        assert result.status == exchange["status"]


MISC = Recorded("nova-34-fidelity-misc.json")


@pytest.mark.parametrize("key", [k for k in sorted(MISC.exchanges) if k.startswith("keypair")])
def test_keypair_query_schemas_from_2_75(shared_nova, key):
    exchange = MISC[key]
    request = exchange["request"]
    result = shared_nova.call(
        request["method"], request["path"], user="admin", version=request["version"]
    )
    if exchange["status"] >= 400:
        assert fault_of(result) == MISC.fault(key)
    else:
        assert result.status == exchange["status"]


def test_start_stop_of_an_id_that_never_existed(shared_nova):
    """os-start/os-stop/trigger_crash_dump look the instance mapping up
    first: an unknown id has none; a deleted server keeps its mapping."""
    nova = shared_nova
    for key in ("stop_never_existed", "start_never_existed", "crash_dump_never_existed",
                "pause_never_existed"):  # fmt: skip
        request = MISC[key]["request"]
        result = nova.post(request["path"], request["body"], user="admin",
                           version=request["version"])  # fmt: skip
        assert fault_of(result) == MISC.fault(key), key
    server_id = nova.create(user="admin")
    assert nova.delete("/servers/" + server_id, user="admin").status == 204
    result = nova.action(server_id, {"os-stop": None}, user="admin", version="2.47")
    real_id = MISC.ids["deleted_server"]
    assert fault_of(result) == MISC.fault("stop_deleted", ((real_id, server_id),))


DISK_CONFIG = Recorded("nova-34-fidelity-disk-config.json")


@pytest.mark.parametrize("key", ("default", "auto", "manual"))
def test_disk_config_defaults_to_the_image_property(shared_nova, key):
    """Without OS-DCF:diskConfig nova takes the image's auto_disk_config
    property (the seeded images have none: MANUAL), in the create answer
    and in the server."""
    request = DISK_CONFIG["create_" + key]["request"]
    body = {"server": dict(request["body"]["server"], flavorRef="1", imageRef=CIRROS)}
    created = shared_nova.post("/servers", body, user="admin", version=request["version"])
    assert created.status == DISK_CONFIG["create_" + key]["status"]
    expected = DISK_CONFIG["show_" + key]["body"]["server"]["OS-DCF:diskConfig"]
    assert created.json()["server"]["OS-DCF:diskConfig"] == expected
    server = shared_nova.show(created.json()["server"]["id"], user="admin", version="2.47")
    assert server["OS-DCF:diskConfig"] == expected


def test_disk_config_from_an_image_property(shared_nova):
    from occli.localcloud.compute import build

    class Images:
        def get_visible_image(self, db, caller, image_id):
            return {"id": image_id, "auto_disk_config": image_id}

    assert build.image_disk_config(None, None, Images(), "True")
    assert build.image_disk_config(None, None, Images(), "yes")
    assert not build.image_disk_config(None, None, Images(), "disabled")
    assert not build.image_disk_config(None, None, Images(), "")


def test_power_state_of_libvirt_pause_and_suspend(shared_nova):
    """The rig's fake driver keeps power state RUNNING through pause and
    suspend (virt/fake.py: both do nothing), so its answer is no reference
    here: nova's libvirt driver pauses the domain (PAUSED, 3) and suspends
    by a managed save, leaving the domain shut off, which virt/libvirt/
    guest.py maps to SHUTDOWN (4)."""
    nova = shared_nova
    server_id = nova.create(user="admin")
    steps = (("pause", "PAUSED", 3), ("unpause", "ACTIVE", 1),
             ("suspend", "SUSPENDED", 4), ("resume", "ACTIVE", 1))  # fmt: skip
    for action, status, power in steps:
        assert nova.action(server_id, {action: None}, user="admin").status == 202
        server = nova.show(server_id, user="admin")
        assert (server["status"], server["OS-EXT-STS:power_state"]) == (status, power)


UNROUTED_401 = Recorded("nova-34-fidelity-unrouted-401.json")


@pytest.mark.parametrize(
    "key", ("unrouted_no_token", "unrouted_bogus_token", "wrong_method_no_token")
)
def test_unrouted_api_paths_need_a_token_first(shared_nova, key):
    """keystonemiddleware sits before nova's router: an unknown API path
    or method without a valid token is its 401, not the router's 404."""
    exchange = UNROUTED_401[key]
    request = exchange["request"]
    result = shared_nova.client.request(
        request["method"],
        "/compute" + request["path"][1:],
        json=request.get("body"),
        headers=request.get("headers"),
    )
    assert result.status == exchange["status"]
    assert result.json() == exchange["body"]
    assert result.header("WWW-Authenticate").startswith("Keystone uri=")


def test_paths_outside_the_apis_get_the_choices(shared_nova):
    exchange = UNROUTED_401["outside_v21_no_token"]
    for method in ("GET", "POST"):
        result = shared_nova.client.request(method, "/compute/no-such-root")
        assert result.status == exchange["status"] == 300
        body = result.json()
        for choice in body["choices"]:
            (link,) = choice["links"]
            link["href"] = link["href"].replace("http://cloud.test:8775/compute", "")
        expected = exchange["body"]
        for choice in expected["choices"]:
            (link,) = choice["links"]
            link["href"] = link["href"].replace("http://127.0.0.1:8774", "")
        assert body == expected
        assert result.header("x-openstack-request-id") is None
