"""Issue 19, follow-up to finding 3: Nova creates and updates a server's
ports with the user's context, so Neutron's port policy applies to them. A
project that does not own the shared ``private`` network (the admin
project's) cannot choose an address there through Nova either:

- a boot with ``networks: [{"uuid": private, "fixed_ip": …}]`` is accepted
  (202) and the build fails on every host: the server ends in ERROR with
  nova's ``MaxRetriesExceeded`` fault, with no port and off its host;
- ``os-interface`` attach with ``fixed_ips`` is nova's 403 carrying
  neutronclient's text;
- ``addFixedIp``/``removeFixedIp`` (≤ 2.43) are casts: 202, the compute
  manager logs Neutron's refusal and the server keeps its addresses.

The network's owner and the admins still may, and so may a member on a
network of its own project."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.security import authz_credentials as creds

COMPUTE = "/compute/v2.1"
NEUTRON = "/network/v2.0"
LATEST = {"OpenStack-API-Version": "compute latest"}
MULTINIC = {"OpenStack-API-Version": "compute 2.43"}
PRIVATE = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
CREATE_RULE = (
    "((rule:create_port and (rule:create_port:fixed_ips and"
    " (rule:create_port:fixed_ips:ip_address))) and rule:create_port:device_id)"
    " is disallowed by policy"
)


def _cloud(tmp_path_factory, name, **config):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp(name)), build_time=0, **config))
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    tokens = {
        "member": client.password_token("demo"),
        "admin": client.password_token("admin"),
    }
    images = client.call("GET", "/image/v2/images", token=tokens["member"]).json()["images"]
    image = next(i["id"] for i in images if i["name"].startswith("cirros"))
    # the tests boot more servers than nova's default quota allows
    projects = client.call("GET", "/v3/projects", token=tokens["admin"], query="name=demo")
    client.call(
        "PUT",
        COMPUTE + "/os-quota-sets/" + projects.json()["projects"][0]["id"],
        token=tokens["admin"],
        json_body={"quota_set": {"instances": -1, "cores": -1, "ram": -1}},
    )
    return {"cloud": cloud, "client": client, "tokens": tokens, "image": image}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env = _cloud(tmp_path_factory, "nova-port-policy")
    own = _call(env, "POST", NEUTRON + "/networks", {"network": {"name": "demo-net"}})
    network = own.json()["network"]["id"]
    _call(
        env,
        "POST",
        NEUTRON + "/subnets",
        {"subnet": {"network_id": network, "cidr": "192.168.40.0/24", "ip_version": 4}},
    )
    env["own"] = network
    yield env
    env["cloud"].close()


@pytest.fixture(scope="module")
def one_host(tmp_path_factory):
    env = _cloud(tmp_path_factory, "nova-port-policy-one-host", compute_hosts=1)
    yield env
    env["cloud"].close()


def _call(env, method, path, body=None, kind="member", headers=LATEST, expect=None):
    result = env["client"].request(
        method, path, token=env["tokens"][kind], headers=headers, json_body=body
    )
    if expect is not None:
        assert result.status == expect, (method, path, result.status, result.body[:500])
    return result


def _boot(env, nets, kind="member"):
    body = {"server": {"name": "vm", "imageRef": env["image"], "flavorRef": "1", "networks": nets}}
    server = _call(env, "POST", COMPUTE + "/servers", body, kind=kind, expect=202)
    return _show(env, server.json()["server"]["id"], kind)


def _show(env, server_id, kind="member"):
    return _call(env, "GET", COMPUTE + "/servers/" + server_id, kind=kind, expect=200).json()[
        "server"
    ]


def _addresses(server):
    return sorted(a["addr"] for net in server["addresses"].values() for a in net)


def _ports(env):
    with env["cloud"].store.read() as db:
        return {
            table: sorted(tuple(r) for r in db.execute("SELECT * FROM %s" % table))
            for table in ("network_ports", "network_port_ips", "network_port_security_groups")
        }


def _device_ports(env, server_id):
    with env["cloud"].store.read() as db:
        return db.execute(
            "SELECT id FROM network_ports WHERE device_id = ?", (server_id,)
        ).fetchall()


# -- boot --------------------------------------------------------------------------


def test_boot_choosing_an_address_of_private_is_for_its_owner(env):
    before = _ports(env)
    server = _boot(env, [{"uuid": PRIVATE, "fixed_ip": "10.0.0.50"}])
    assert server["status"] == "ERROR"
    reason = (
        "Exceeded maximum number of retries. Exceeded max scheduling attempts 3 for instance"
        " %s. Last exception: %s\nNeutron server returns request_ids: ['req-"
        % (server["id"], CREATE_RULE)
    )
    assert server["fault"]["code"] == 500
    # nova keeps 255 characters of it (the request ids are cut off)
    assert server["fault"]["message"] == reason[:255]
    assert "details" not in server["fault"]
    assert server["addresses"] == {}
    # no port left behind
    assert _ports(env) == before
    assert _device_ports(env, server["id"]) == []
    admin_view = _show(env, server["id"], "admin")
    assert admin_view["OS-EXT-SRV-ATTR:host"] is None
    details = admin_view["fault"]["details"]
    assert details.startswith("Traceback (most recent call last):\n")
    assert "\nnova.exception.MaxRetriesExceeded: " + reason in details
    # an ERROR server counts in the project's instances, as in nova
    limits = _call(env, "GET", COMPUTE + "/limits", expect=200).json()["limits"]["absolute"]
    assert limits["totalInstancesUsed"] >= 1
    # the address is still free: the network's owner (an admin) takes it
    owner = _boot(env, [{"uuid": PRIVATE, "fixed_ip": "10.0.0.50"}], kind="admin")
    assert (owner["status"], _addresses(owner)) == ("ACTIVE", ["10.0.0.50"])
    # the member still boots there without choosing, and chooses on its own
    assert _boot(env, [{"uuid": PRIVATE}])["status"] == "ACTIVE"
    own = _boot(env, [{"uuid": env["own"], "fixed_ip": "192.168.40.50"}])
    assert (own["status"], _addresses(own)) == ("ACTIVE", ["192.168.40.50"])


def test_with_fewer_hosts_than_attempts_the_hosts_are_exhausted(one_host):
    server = _boot(one_host, [{"uuid": PRIVATE, "fixed_ip": "10.0.0.51"}])
    assert server["status"] == "ERROR"
    assert server["fault"]["message"] == (
        "Exceeded maximum number of retries. Exhausted all hosts available for retrying build"
        " failures for instance %s." % server["id"]
    )
    assert _device_ports(one_host, server["id"]) == []


# -- os-interface ------------------------------------------------------------------


def _attach(env, server_id, net, address=None, kind="member"):
    attachment = {"net_id": net}
    if address is not None:
        attachment["fixed_ips"] = [{"ip_address": address}]
    path = COMPUTE + "/servers/%s/os-interface" % server_id
    return _call(env, "POST", path, {"interfaceAttachment": attachment}, kind=kind)


def test_attach_choosing_an_address_of_private_is_for_its_owner(env):
    server = _boot(env, [{"uuid": PRIVATE}])
    before = _ports(env)
    result = _attach(env, server["id"], PRIVATE, "10.0.0.60")
    assert result.status == 403
    message = result.json()["forbidden"]["message"]
    assert message.startswith(CREATE_RULE + "\nNeutron server returns request_ids: ['req-")
    assert _ports(env) == before
    assert _addresses(_show(env, server["id"])) == _addresses(server)
    # an admin may (the same address: nothing was taken); the member may
    # attach without choosing, and choose on a network of its own
    assert _attach(env, server["id"], PRIVATE, "10.0.0.60", kind="admin").status == 200
    assert _attach(env, server["id"], PRIVATE).status == 200
    assert _attach(env, server["id"], env["own"], "192.168.40.60").status == 200
    after = _addresses(_show(env, server["id"]))
    assert len(after) == 4
    assert {"10.0.0.60", "192.168.40.60"} <= set(after)


# -- addFixedIp / removeFixedIp ------------------------------------------------------


def _action(env, server_id, body, kind="member"):
    path = COMPUTE + "/servers/%s/action" % server_id
    _call(env, "POST", path, body, kind=kind, headers=MULTINIC, expect=202)
    return _addresses(_show(env, server_id))


def test_add_fixed_ip_on_private_is_for_its_owner(env):
    server = _boot(env, [{"uuid": PRIVATE}])
    before = _ports(env)
    add = {"addFixedIp": {"networkId": PRIVATE}}
    assert _action(env, server["id"], add) == _addresses(server)
    assert _ports(env) == before
    assert len(_action(env, server["id"], add, kind="admin")) == 2
    own = _boot(env, [{"uuid": env["own"]}])
    assert len(_action(env, own["id"], {"addFixedIp": {"networkId": env["own"]}})) == 2


def test_remove_fixed_ip_on_private_is_for_its_owner(env):
    server = _boot(env, [{"uuid": PRIVATE}])
    both = _action(env, server["id"], {"addFixedIp": {"networkId": PRIVATE}}, kind="admin")
    before = _ports(env)
    remove = {"removeFixedIp": {"address": both[1]}}
    assert _action(env, server["id"], remove) == both
    assert _ports(env) == before
    assert _action(env, server["id"], remove, kind="admin") == [both[0]]
    own = _boot(env, [{"uuid": env["own"]}])
    pair = _action(env, own["id"], {"addFixedIp": {"networkId": env["own"]}})
    assert _action(env, own["id"], {"removeFixedIp": {"address": pair[1]}}) == [pair[0]]
