"""Issue 19, findings 3 and 4: on the shared ``private`` network (the admin
project's) a project that does not own it gets ports and may name a subnet,
but choosing ``fixed_ips[].ip_address`` or setting
``port_security_enabled`` is the network owner's and the admins' (neutron's
port policy), on create and on update. Every credential kind of the
authorization matrix (authz_credentials.KINDS) is tried; a refused request
changes nothing."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.security import authz_credentials as creds
from tests.security.authz_credentials import KINDS
from tests.security.authz_credentials import OWN_URL_KINDS

NEUTRON = "/network/v2.0"
PRIVATE = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
SUBNET = "6c2a6a0d-35fb-4e5c-8b35-1d7a4c9e2f10"
# Neutron's URLs name no project and Swift's temp URLs are Swift's: the
# kinds that differ only there add nothing
CASE_KINDS = [k for k in KINDS if k not in OWN_URL_KINDS and not KINDS[k].temp_url]
MEMBERS = ("a_member", "b_member", "ac_unrestricted", "ac_restricted")

CREATE_RULES = {
    "ip_address": "(rule:create_port and (rule:create_port:fixed_ips and"
    " (rule:create_port:fixed_ips:ip_address)))",
    "port_security": "(rule:create_port and rule:create_port:port_security_enabled)",
}
UPDATE_RULES = {
    "ip_address": "(rule:update_port and (rule:update_port:fixed_ips and"
    " (rule:update_port:fixed_ips:ip_address)))",
    "port_security": "(rule:update_port and rule:update_port:port_security_enabled)",
}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("shared-net")), build_time=0))
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    tokens = creds.make_tokens(client)
    yield {"cloud": cloud, "client": client, "tokens": tokens, "addresses": iter(range(10, 250))}
    cloud.close()


def _call(env, kind, method, path, body=None):
    token = env["tokens"].get(kind) if KINDS[kind].sends_token else None
    return env["client"].request(method, NEUTRON + path, token=token, json_body=body)


def _network_rows(env):
    with env["cloud"].store.read() as db:
        return {
            table: sorted(tuple(r) for r in db.execute("SELECT * FROM %s" % table))
            for table in ("network_ports", "network_port_ips", "network_port_security_groups")
        }


def _attribute(env, what):
    """The body part of case ``what``: an address of the shared subnet
    (a fresh one each time) or port security off (with no security group:
    Neutron refuses to turn it off while a port has one)."""
    if what == "ip_address":
        return {"fixed_ips": [{"ip_address": "10.0.77.%d" % next(env["addresses"])}]}
    return {"port_security_enabled": False, "security_groups": []}


def _expected(kind):
    """The status ``kind`` gets for a refused-to-non-owners attribute."""
    k = KINDS[kind]
    if not k.valid:
        return 401
    return None if k.admin and k.project else 403


def _refusal(kind, rules, what):
    """The NeutronError ``kind``'s 403 names: the attribute's rule for
    members; readers fail the action itself, tokens without a project too."""
    k = KINDS[kind]
    if kind in MEMBERS:
        return rules[what]
    action = "create" if rules is CREATE_RULES else "update"
    return "rule:%s_port" % action if k.project else None


@pytest.mark.parametrize("what", ["ip_address", "port_security"])
@pytest.mark.parametrize("kind", CASE_KINDS)
def test_create_with_an_owner_attribute(env, kind, what):
    before = _network_rows(env)
    result = _call(
        env, kind, "POST", "/ports", {"port": {"network_id": PRIVATE, **_attribute(env, what)}}
    )
    expected = _expected(kind)
    if expected is None:  # the admin owns the network
        assert result.status == 201, result.body
        return
    assert result.status == expected, (kind, result.body)
    assert _network_rows(env) == before
    rule = _refusal(kind, CREATE_RULES, what)
    if rule is not None:
        assert result.json()["NeutronError"] == {
            "type": "PolicyNotAuthorized",
            "message": "%s is disallowed by policy" % rule,
            "detail": "",
        }


def _own_port(env, kind):
    """A port of ``kind``'s project on the shared network, made with a
    subnet only (open to the network's users), or A's for the kinds that
    cannot make one."""
    maker = kind if kind in MEMBERS or KINDS[kind].admin and KINDS[kind].project else "a_member"
    result = _call(
        env,
        maker,
        "POST",
        "/ports",
        {"port": {"network_id": PRIVATE, "fixed_ips": [{"subnet_id": SUBNET}]}},
    )
    assert result.status == 201, (maker, result.body)
    return result.json()["port"]


@pytest.mark.parametrize("what", ["ip_address", "port_security"])
@pytest.mark.parametrize("kind", CASE_KINDS)
def test_update_with_an_owner_attribute(env, kind, what):
    port = _own_port(env, kind)
    before = _network_rows(env)
    result = _call(env, kind, "PUT", "/ports/" + port["id"], {"port": _attribute(env, what)})
    expected = _expected(kind)
    if expected is None:
        assert result.status == 200, result.body
        return
    assert result.status == expected, (kind, result.body)
    assert _network_rows(env) == before
    rule = _refusal(kind, UPDATE_RULES, what)
    if rule is not None:
        assert result.json()["NeutronError"]["message"] == "%s is disallowed by policy" % rule
