"""The local cloud answers the requests the real Nova 34 was sent
(``tests/fixtures/compute/realcloud/``) as it did: the recordings are
replayed in order against a one-host local cloud, the real ids swapped
for the local ones, and every status is compared, plus the fault name
and message of every error and the JSON shape of chosen answers.

What differs on purpose is listed in DEVIATIONS (with the reason).
"""

import json

import pytest

from tests.shape import assert_same_shape
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud
from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import fault_of

REAL_CIRROS = "155d900f-4e14-4e4c-a73d-069cbf4541e6"
# the real cloud's "latest" (2.100 and later) is the local maximum here;
# answers that changed after 2.96 are skipped (SKIPPED)
LATEST = "2.96"

SKIPPED = {
    # 2.102 dropped rxtx_factor: the real "latest" refused it
    "create_rxtx_0",
    "create_rxtx_str_0",
    # 2.102 dropped rxtx_factor from the sort keys too
    "list_bad_sort_key",
}
DEVIATIONS = {
    # nova 34 answers 500 (an InvalidInput its controller does not expect);
    # the local cloud never answers 500: a 400 with nova's InvalidInput text
    "create_rxtx_str_0_2_96": 400,
    # the real rig runs the fake virt driver (501); the local cloud plays a
    # libvirt host, whose uptime nova reports
    "uptime_2_1": 200,
    "uptime_2_53": 200,
}
# flavor keys 2.102 dropped (not compared with answers recorded at latest)
AFTER_2_96 = ("rxtx_factor", "OS-FLV-DISABLED:disabled")
# answers whose JSON shape is compared with the recording (and keys left
# out of the comparison)
SHAPES = {
    "create_public_auto_id": (),
    "show_private_as_admin": (),
    "create_private": (),
    "show_with_specs_2_61": (),
    "update_desc": (),
    "update_desc_null": (),
    "stats_2_87": (),
    "show_2_88": (),
    "show_with_servers_empty_2_75": (),
    "show_with_servers_empty_2_74": (),
    "list_with_servers_empty_2_75": (),
    "search_2_1": (),
    "servers_empty_2_1": (),
    "servers_2_1": (),
    "force_down": (),
    "show_forced_down_2_88": (),
    "show_with_servers_2_88": (),
    "az_detail": (),
    "gen_x509": (),
    "gen_ssh": (),
    "show_x509": (),
    "list_user_admin": (),
    "list_user_admin_paged": (),
    "show_admin_for_user": (),
}

MAPS = frozenset({"metadata", "extra_specs", "hosts"})
# answers equal to the recorded ones (real ids swapped)
EQUAL = {
    "add_access",
    "access_list",
    "access_empty",
    "remove_access",
    "specs_create",
    "specs_index",
    "specs_index_member_access",
    "specs_show",
    "specs_update",
    "specs_update_new_key",
    "specs_create_unknown_hw_2_85",
}


class Replay:
    """Sends recorded requests to a local cloud, real ids swapped."""

    def __init__(self, nova, recorded):
        self.nova = nova
        self.recorded = recorded
        self.swaps = [
            (REAL_CIRROS, CIRROS),
            (recorded.ids["member_project_id"], nova.project_id("demo")),
        ]
        # whole paths swapped as they are (a short id would also match
        # the start of some local uuid)
        self.paths = {}

    def swap(self, text):
        for real, local in self.swaps:
            text = text.replace(real, local)
        return text

    def learn(self, real, local):
        if real != local:
            self.swaps.append((str(real), str(local)))

    def send(self, key):
        exchange = self.recorded[key]
        request = exchange["request"]
        version = request["version"]
        body = request["body"]
        if body is not None:
            body = json.loads(self.swap(json.dumps(body)))
        path = self.paths.get(request["path"]) or self.swap(request["path"])
        return self.nova.call(
            request["method"],
            path,
            json=body,
            user="admin" if exchange["user"] == "admin" else "demo",
            version=LATEST if version == "latest" else version,
        )

    def check(self, key, result):
        exchange = self.recorded[key]
        expected = DEVIATIONS.get(key, exchange["status"])
        assert result.status == expected, (key, result.body[:300])
        if expected >= 400 and exchange["status"] == expected:
            status, name, message = self.recorded.fault(key)
            assert fault_of(result) == (status, name, self.swap(message)), key
        if key in EQUAL:
            assert result.json() == json.loads(self.swap(json.dumps(exchange["body"]))), key
        if key in SHAPES:
            ignore = SHAPES[key]
            if exchange["request"]["version"] == "latest":
                ignore += AFTER_2_96
            # hosts by name (the real cloud's host is not ours)
            assert_same_shape(
                result.json(), exchange["body"], ignore=ignore, nullable=("uptime",), maps=MAPS
            )

    def run(self, hooks=None):
        for key in self.recorded.exchanges:
            if key in SKIPPED:
                continue
            if hooks and key in hooks:
                hooks[key](self)
            result = self.send(key)
            self.check(key, result)
            yield key, result


@pytest.fixture
def one_host(tmp_path):
    cloud = make_cloud(tmp_path / "data", compute_hosts=1)
    yield Nova(cloud)
    cloud.close()


def test_flavors_as_nova_34(one_host):
    replay = Replay(one_host, Recorded("nova-34-flavors.json"))
    seen = set()
    for key, result in replay.run():
        seen.add(key)
        body = result.json() if result.body else None
        real = replay.recorded[key]["body"]
        if key in ("create_public_auto_id", "create_zero_disk"):
            # the real cloud's new uuid stands for the local one from now on
            replay.learn(real["flavor"]["id"], body["flavor"]["id"])
        elif key == "create_private":
            # nova's messages name its internal flavor id
            replay.learn("flavor 1 and", "flavor %d and" % _seq(one_host))
            replay.learn("for 1 /", "for %d /" % _seq(one_host))
        elif key == "boot_public":
            replay.learn(real["server"]["id"], body["server"]["id"])
        elif key in ("list_as_member", "list_member_with_access"):
            names = {f["name"] for f in body["flavors"]}
            assert ("probe-priv" in names) is (key != "list_as_member")
    assert "rebuild_after_flavor_delete" in seen


def _seq(nova):
    with nova.cloud.store.read() as db:
        return db.execute("SELECT seq FROM compute_flavors WHERE id = 'probe-priv'").fetchone()[0]


def test_hypervisors_and_services_as_nova_34(one_host):
    recorded = Recorded("nova-34-hypervisors-services.json")
    replay = Replay(one_host, recorded)
    nova = one_host
    local = nova.get("/os-hypervisors", user="admin", version="2.53").json()["hypervisors"][0]
    real_uuid = recorded["show_2_88"]["body"]["hypervisor"]["id"]
    real_service = recorded["show_2_88"]["body"]["hypervisor"]["service"]
    services = nova.get("/os-services?binary=nova-compute", user="admin", version="2.53").json()[
        "services"
    ]
    old_ids = nova.get("/os-services?binary=nova-compute", user="admin").json()["services"]
    replay.learn(real_uuid, local["id"])
    replay.learn(real_service["id"], services[0]["id"])
    replay.paths["/os-services/4"] = "/os-services/%d" % old_ids[0]["id"]
    replay.learn("realcloud-compute1", "host1")
    replay.learn("/realc/", "/host/")

    def boot(replay):
        # the recording booted a server between these two requests
        server = nova.create(name="ph", flavorRef="1", networks="none", version="2.37")
        assert nova.show(server)["status"] == "ACTIVE"

    answers = dict(replay.run(hooks={"servers_2_1": boot}))
    uptime = answers["uptime_2_1"].json()["hypervisor"]["uptime"]
    assert " up " in uptime and "load average" in uptime
    # nova cannot ask a host that is forced down
    down = answers["show_forced_down_2_88"].json()["hypervisor"]
    assert (down["state"], down["uptime"]) == ("down", None)


def test_keypairs_as_nova_34(one_host):
    recorded = Recorded("nova-34-keypairs.json")
    replay = Replay(one_host, recorded)
    with one_host.cloud.store.read() as db:
        identity = one_host.cloud.identity
        replay.learn(recorded.ids["member_user_id"], identity.user_id(db, "demo"))
        replay.learn(
            recorded["list_user_member"]["request"]["path"].rsplit("=", 1)[1],
            identity.user_id(db, "admin"),
        )
    answers = dict(replay.run(hooks={"show_x509": _import_keys}))
    x509 = answers["gen_x509"].json()["keypair"]
    assert x509["public_key"].startswith("-----BEGIN CERTIFICATE-----")
    ssh = answers["gen_ssh"].json()["keypair"]
    assert ssh["public_key"].endswith(" Generated-by-Nova")


def _import_keys(replay):
    """The recording imported pk-a, pk-b and pk-c (the generated public key)
    after generating pk-x509 and pk-ssh."""
    public = json.loads(replay.nova.get("/os-keypairs/pk-ssh").body)["keypair"]["public_key"]
    for name in ("pk-a", "pk-b", "pk-c"):
        assert (
            replay.nova.post(
                "/os-keypairs", {"keypair": {"name": name, "public_key": public}}, version="2.2"
            ).status
            == 201
        )
