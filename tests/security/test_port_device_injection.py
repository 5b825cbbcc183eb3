"""Issue 19, finding 5: Neutron accepts any ``device_id`` on a port, so
project B (or an admin, for its own project) may make a port naming A's
server; Nova builds a server from its own project's ports
(``list_ports(tenant_id=, device_id=)``), so such a port never shows in
A's ``addresses``, ``/ips``, ``os-interface`` or ``os-security-groups``,
A's ``addSecurityGroup``/``removeSecurityGroup`` work on A's ports only,
and deleting A's server leaves the port alone. A port of A's own project
bound to its server through Neutron is the server's (nova lists it).
Every credential kind of the authorization matrix makes the port."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.security import authz_credentials as creds
from tests.security.authz_credentials import KINDS
from tests.security.authz_credentials import OWN_URL_KINDS

COMPUTE = "/compute/v2.1"
NEUTRON = "/network/v2.0"
LATEST = {"OpenStack-API-Version": "compute latest"}
PRIVATE = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
CASE_KINDS = [k for k in KINDS if k not in OWN_URL_KINDS and not KINDS[k].temp_url]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("injection")), build_time=0))
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    tokens = creds.make_tokens(client)
    images = client.call("GET", "/image/v2/images", token=tokens["a_member"]).json()["images"]
    image = next(i["id"] for i in images if i["name"].startswith("cirros"))
    web = client.call(
        "POST",
        NEUTRON + "/security-groups",
        token=tokens["a_member"],
        json_body={"security_group": {"name": "a-web"}},
    )
    yield {
        "cloud": cloud,
        "client": client,
        "tokens": tokens,
        "image": image,
        "web": web.json()["security_group"]["id"],
    }
    cloud.close()


def _a(env, method, path, body=None, kind="a_member", expect=(200, 201, 202, 204)):
    return env["client"].call(
        method, path, token=env["tokens"][kind], headers=LATEST, json_body=body, expect=expect
    )


def _server(env):
    """A new ACTIVE server of A's on the shared network."""
    server = _a(
        env,
        "POST",
        COMPUTE + "/servers",
        {
            "server": {
                "name": "a-vm",
                "imageRef": env["image"],
                "flavorRef": "1",
                "networks": "auto",
            }
        },
    ).json()["server"]
    assert _a(env, "GET", COMPUTE + "/servers/" + server["id"]).json()["server"]["status"] == (
        "ACTIVE"
    )
    return server["id"]


def _inject(env, kind, server_id):
    token = env["tokens"].get(kind) if KINDS[kind].sends_token else None
    return env["client"].request(
        "POST",
        NEUTRON + "/ports",
        token=token,
        json_body={
            "port": {
                "network_id": PRIVATE,
                "device_id": server_id,
                "device_owner": "compute:nova",
                "name": "injected",
            }
        },
    )


def _views(env, server_id):
    """What A reads of its server's network: addresses, /ips, the
    interfaces, the security groups."""
    base = COMPUTE + "/servers/" + server_id
    return {
        "addresses": _a(env, "GET", base).json()["server"]["addresses"],
        "server_groups": _a(env, "GET", base).json()["server"]["security_groups"],
        "ips": _a(env, "GET", base + "/ips").json()["addresses"],
        "interfaces": _a(env, "GET", base + "/os-interface").json()["interfaceAttachments"],
        "groups": _a(env, "GET", base + "/os-security-groups").json()["security_groups"],
    }


def _port_row(env, port_id):
    with env["cloud"].store.read() as db:
        port = db.execute("SELECT * FROM network_ports WHERE id = ?", (port_id,)).fetchone()
        if port is None:
            return None
        ips = db.execute(
            "SELECT subnet_id, ip_address FROM network_port_ips WHERE port_id = ?", (port_id,)
        ).fetchall()
        groups = db.execute(
            "SELECT security_group_id FROM network_port_security_groups WHERE port_id = ?",
            (port_id,),
        ).fetchall()
        return tuple(port), [tuple(r) for r in ips], [tuple(r) for r in groups]


def _foreign(kind):
    """Whether ``kind``'s port belongs to a project other than A."""
    return KINDS[kind].project in ("B", "admin")


@pytest.fixture
def server_id(env):
    """A new server of A's, deleted after the case (nova's default quota
    is 10 instances)."""
    server_id = _server(env)
    yield server_id
    _a(env, "DELETE", COMPUTE + "/servers/" + server_id, expect=(204, 404))


@pytest.mark.parametrize("kind", CASE_KINDS)
def test_a_port_naming_another_projects_server(env, server_id, kind):
    before = _views(env, server_id)
    result = _inject(env, kind, server_id)
    k = KINDS[kind]
    if not k.valid:
        assert result.status == 401
        return
    if k.project is None or k.reader_only:
        assert result.status == 403, result.body
        assert _views(env, server_id) == before
        return
    # neutron takes any device_id (create_port:device_id: the port's project)
    assert result.status == 201, result.body
    port = result.json()["port"]
    views = _views(env, server_id)
    listed = {i["port_id"] for i in views["interfaces"]}
    if not _foreign(kind):
        # A's own port bound through Neutron: nova lists it
        assert port["id"] in listed
        return
    assert views == before
    assert port["id"] not in listed
    shown = _a(
        env,
        "GET",
        COMPUTE + "/servers/%s/os-interface/%s" % (server_id, port["id"]),
        kind="admin",
        expect=(404,),
    )
    assert shown.json()["itemNotFound"]["message"] == (
        "Instance %s does not have a port with id %s" % (server_id, port["id"])
    )
    injected = _port_row(env, port["id"])
    # A's security group actions work on A's ports only
    action = COMPUTE + "/servers/%s/action" % server_id
    _a(env, "POST", action, {"addSecurityGroup": {"name": "a-web"}}, expect=(202,))
    names = {g["name"] for g in _views(env, server_id)["groups"]}
    assert names == {"default", "a-web"}
    _a(env, "POST", action, {"removeSecurityGroup": {"name": "a-web"}}, expect=(202,))
    assert _port_row(env, port["id"]) == injected
    # an admin detaching it through A's server leaves it alone (nova: a
    # port of another instance)
    _a(
        env,
        "DELETE",
        COMPUTE + "/servers/%s/os-interface/%s" % (server_id, port["id"]),
        kind="admin",
        expect=(202,),
    )
    assert _port_row(env, port["id"]) == injected
    # deleting A's server neither deletes nor unbinds it
    _a(env, "DELETE", COMPUTE + "/servers/" + server_id, expect=(204,))
    _a(env, "GET", COMPUTE + "/servers/" + server_id, expect=(404,))
    assert _port_row(env, port["id"]) == injected


def test_an_admin_cannot_attach_another_projects_port(env, server_id):
    """Nova's PortNotUsable: a port of project B is not A's server's, even
    for an admin who sees it."""
    port = (
        env["client"]
        .call(
            "POST",
            NEUTRON + "/ports",
            token=env["tokens"]["b_member"],
            json_body={"port": {"network_id": PRIVATE}},
        )
        .json()["port"]
    )
    before = _port_row(env, port["id"])
    refused = _a(
        env,
        "POST",
        COMPUTE + "/servers/%s/os-interface" % server_id,
        {"interfaceAttachment": {"port_id": port["id"]}},
        kind="admin",
        expect=(400,),
    )
    assert refused.json()["badRequest"]["message"] == (
        "Port %s not usable for instance %s." % (port["id"], server_id)
    )
    assert _port_row(env, port["id"]) == before


def test_an_admin_cannot_boot_on_another_projects_port(env):
    """The same at boot: 400, and nothing is made nor bound."""
    port = (
        env["client"]
        .call(
            "POST",
            NEUTRON + "/ports",
            token=env["tokens"]["b_member"],
            json_body={"port": {"network_id": PRIVATE}},
        )
        .json()["port"]
    )
    before = _port_row(env, port["id"])
    with env["cloud"].store.read() as db:
        servers = db.execute("SELECT COUNT(*) FROM servers").fetchone()[0]
    refused = _a(
        env,
        "POST",
        COMPUTE + "/servers",
        {
            "server": {
                "name": "admin-vm",
                "imageRef": env["image"],
                "flavorRef": "1",
                "networks": [{"port": port["id"]}],
            }
        },
        kind="admin",
        expect=(400,),
    )
    message = refused.json()["badRequest"]["message"]
    assert message.startswith("Port %s not usable for instance " % port["id"])
    assert _port_row(env, port["id"]) == before
    with env["cloud"].store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM servers").fetchone()[0] == servers
