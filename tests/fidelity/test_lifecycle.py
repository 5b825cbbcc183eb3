"""Instance actions, rescue, the state reset, password changes, crash dumps,
diagnostics and topology, and the shelve refusals, on a member's server.
(Shelving itself cannot run on the real rig: its Glance stub refuses the
snapshot image, so nova answers 500.)"""

import pytest

from tests.fidelity.test_servers import wait

ACTIONS = "/servers/{lc}/os-instance-actions"


@pytest.fixture(scope="module")
def lc(pair, flavor):
    """A member's ACTIVE server in both clouds (``ids["lc"]``)."""
    name = "fid-lc-" + pair.real.ids["member_project"][:6]

    def body(ids):
        return {
            "server": {
                "name": name,
                "flavorRef": ids["flavor"],
                "imageRef": ids["image"],
                "networks": "none",
            }
        }

    real, local = pair.check("POST", "/servers", body, version="2.47", user="member")
    pair.real.created.append(("server", real.body["server"]["id"]))
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["lc"] = answer.body["server"]["id"]
    wait(pair, "ACTIVE", key="lc")
    return name


def act(pair, body, version="2.47", user="member"):
    return pair.check("POST", "/servers/{lc}/action", body, version=version, user=user)


def actions_of(answer):
    return [a["action"] for a in answer.body["instanceActions"]]


def test_rescue_cycle_and_refusals(pair, lc):
    act(pair, {"rescue": {"rescue_image_ref": "bogus"}})
    act(pair, {"rescue": {"extra": 1}})
    act(pair, {"unrescue": None})  # not rescued: 409
    real, local = act(pair, {"rescue": None})
    assert real.body.keys() == local.body.keys() == {"adminPass"}
    wait(pair, "RESCUE", key="lc")
    act(pair, {"rescue": None})  # rescued: 409
    act(pair, {"shelve": None})  # rescued: 409
    act(pair, {"changePassword": {"adminPass": "x"}})  # rescued: 409
    act(pair, {"trigger_crash_dump": None}, version="2.17")  # RESCUE allows it
    act(pair, {"unrescue": None})
    wait(pair, "ACTIVE", key="lc")
    act(pair, lambda ids: {"rescue": {"adminPass": "s3cret", "rescue_image_ref": ids["image"]}})


def test_state_password_and_shelve_refusals(pair, lc):
    wait(pair, "RESCUE", key="lc")
    act(pair, {"unrescue": None})
    wait(pair, "ACTIVE", key="lc")
    act(pair, {"unshelve": None})  # not shelved: 409
    act(pair, {"unshelve": {"host": "x"}}, version="2.90")
    act(pair, {"shelveOffload": None})  # policy before state: 403
    act(pair, {"shelveOffload": None}, user="admin")  # ACTIVE: 409
    act(pair, {"os-resetState": {"state": "error"}})  # admin only: 403
    act(pair, {"os-resetState": {"state": "bogus"}}, user="admin")
    act(pair, {"os-resetState": {"state": "error"}}, user="admin")
    pair.check("GET", "/servers/{lc}", version="2.47", values=("server.status",))
    act(pair, {"os-resetState": {"state": "active"}}, user="admin")
    act(pair, {"changePassword": {"adminPass": "n3w"}})
    act(pair, {"changePassword": {}})
    act(pair, {"trigger_crash_dump": None}, version="2.16")


@pytest.mark.parametrize("version", ("2.47", "2.48"))
def test_diagnostics(pair, lc, version):
    pair.check("GET", "/servers/{lc}/diagnostics", version=version, user="member")
    real, local = pair.check("GET", "/servers/{lc}/diagnostics", version=version)
    assert real.body == local.body


@pytest.mark.parametrize("version", ("2.77", "2.78"))
def test_topology(pair, lc, version):
    pair.check("GET", "/servers/{lc}/topology", version=version, user="member",
               values=("nodes", "pagesize_kb"))  # fmt: skip


@pytest.mark.parametrize("version", ("2.1", "2.57", "2.58", "2.66"))
def test_actions_list(pair, lc, version):
    real, local = pair.check("GET", ACTIONS, version=version, user="member")
    assert actions_of(real) == actions_of(local)


@pytest.mark.parametrize(
    "query,version",
    (
        ("?limit=1", "2.58"),
        ("?limit=x", "2.58"),
        ("?limit=-1", "2.58"),
        ("?marker=req-nope", "2.58"),
        ("?foo=1", "2.58"),
        ("?foo=1", "2.57"),
        ("?changes-since=bad", "2.58"),
        ("?changes-since=2999-01-01T00:00:00Z", "2.58"),
        ("?changes-before=2000-01-01T00:00:00Z", "2.65"),
        ("?changes-before=2000-01-01T00:00:00Z", "2.66"),
        ("?changes-before=2000-01-01T00:00:00Z&changes-since=2001-01-01T00:00:00Z", "2.66"),
    ),
)
def test_actions_list_queries(pair, lc, query, version):
    pair.check("GET", ACTIONS + query, version=version, user="member", ignore=("links",))


def _shape(answer):
    """An action's keys and its events' keys (the differential check reads
    any one-member body with a ``message`` as a fault, as this one is)."""
    action = answer.body["instanceAction"]
    events = [sorted(e) for e in action.get("events", ())]
    return answer.status, sorted(action), action["action"], events


@pytest.mark.parametrize("version", ("2.50", "2.51", "2.62", "2.84"))
@pytest.mark.parametrize("user", ("member", "admin"))
def test_action_show(pair, lc, version, user):
    real, local = pair.both("GET", ACTIONS, version="2.58", user="member")
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["lc_create"] = answer.body["instanceActions"][-1]["request_id"]
    real, local = pair.both("GET", ACTIONS + "/{lc_create}", version=version, user=user)
    assert _shape(real) == _shape(local)
    pair.check("GET", ACTIONS + "/req-nope", version=version, user=user)
