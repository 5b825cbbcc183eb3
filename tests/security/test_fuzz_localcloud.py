"""Property-based fuzzing of every JSON endpoint of the local cloud (issue 9
D): generated JSON (nested, unicode with surrogates and control characters,
huge, negative and float numbers, wrong types, ``NaN`` text, raw garbage)
is sent to every POST/PUT/PATCH route of every service, found in the
services' own route tables, with path parameters that are the caller's own
resource ids or random text, as a member and as an admin.

Properties: no unhandled exception and no 5xx, except the 500s Heat gives
on purpose (``orchestration.HEAT_PARITY_500S``); a 4xx changes no stored
data (every table is compared before and after).

Runs are deterministic (hypothesis profile ``ci``); set
``HYPOTHESIS_PROFILE=explore`` for more, random examples.
"""

import json
import os
import re
import sqlite3
import tempfile
import time
import traceback
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.network.seed import PRIVATE_NETWORK_ID
from occli.localcloud.network.seed import PUBLIC_NETWORK_ID
from occli.localcloud.orchestration.api.service import HEAT_PARITY_500S
from tests.security import fuzz_bounds as bounds
from tests.security.heat_idle import wait_engine_idle
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.wsgi_client import Client

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")

USERS = ("demo", "admin")
BODY_METHODS = ("POST", "PUT", "PATCH")
# (method, route pattern) of the 500s heat gives on purpose
ALLOWED_500 = {(entry["method"], entry["route"]) for entry in HEAT_PARITY_500S}

# keys the services look for, so generated bodies get past the first checks
KEYS = [
    "server",
    "name",
    "flavorRef",
    "imageRef",
    "min_count",
    "max_count",
    "networks",
    "uuid",
    "fixed_ip",
    "block_device_mapping_v2",
    "boot_index",
    "source_type",
    "destination_type",
    "volume_size",
    "metadata",
    "meta",
    "personality",
    "availability_zone",
    "host",
    "description",
    "keypair",
    "public_key",
    "type",
    "user_id",
    "aggregate",
    "add_host",
    "remove_host",
    "set_metadata",
    "cache",
    "id",
    "reboot",
    "rebuild",
    "resize",
    "createImage",
    "os-getConsoleOutput",
    "length",
    "lock",
    "unlock",
    "os-start",
    "os-stop",
    "confirmResize",
    "status",
    "disabled_reason",
    "forced_down",
    "binary",
    "os:scheduler_hints",
    "same_host",
    "auth",
    "identity",
    "methods",
    "password",
    "user",
    "domain",
    "scope",
    "project",
    "token",
    "application_credential",
    "secret",
    "roles",
    "expires_at",
    "group",
    "config",
    "inputs",
    "outputs",
    "options",
    "default",
    "server_id",
    "config_id",
    "action",
    "status_reason",
    "input_values",
    "output_values",
    "template",
    "heat_template_version",
    "resources",
    "method",
    "path",
    "count",
    "seconds",
]
# strings the services know (to get further) and nasty ones
STRINGS = [
    "",
    " ",
    "NaN",
    "Infinity",
    "-1",
    "0",
    "1e999",
    "99999999999999999999999999",
    "../../etc/passwd",
    "%00",
    "a" * 300,
    "active",
    "password",
    "demo",
    "admin",
    "Default",
    "default",
    "m1.tiny",
    "1",
    CIRROS,
    "host1",
    "nova",
    "SOFT",
    "HARD",
    "ssh",
    "x509",
    "String",
    "Number",
    "Json",
    "2.1",
    "latest",
]
NASTY = [
    "\udc80",
    "\ud800x",
    "a\udfff",
    "\x00",
    "a\nb",
    "\u2028",
    "\x1b[2J",
    "\ufeff",
    "\U0001f600",
]


def _text(max_size=12):
    return (
        st.text(max_size=max_size)
        | st.text(st.characters(categories=["Cc", "Zl", "Zs"]), max_size=4)
        | st.sampled_from(STRINGS)
        | st.sampled_from(NASTY)
    )


NUMBERS = (
    st.integers(-(2**70), 2**70)
    | st.sampled_from([0, -1, 1, 2**63, -(2**63) - 1, 10**30, -(10**30), 10**400])
    | st.floats(allow_nan=False, allow_infinity=False)
)
SCALARS = st.none() | st.booleans() | NUMBERS | _text()
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | _text(), inner, max_size=4)
    ),
    max_leaves=16,
)
# bodies a strict JSON parser must refuse, and plain garbage
RAW = st.sampled_from(
    [
        b"NaN",
        b'{"a": Infinity}',
        b'{"a": -Infinity}',
        b'{"a": 1e999}',
        b'{"a": NaN}',
        b"[" * 3000,
        b"[" * 3000 + b"]" * 3000,
        b'{"a": "\\udc80"}',
        b'{"\\ud800": 1}',
        b"\xff\xfe",
        b"",
        b"null",
        b'{"server": ' * 200 + b"1" + b"}" * 200,
    ]
) | st.binary(max_size=40)
KEY = st.sampled_from(KEYS) | _text()
# compute microversions: mostly valid ones
VERSIONS = st.sampled_from(
    [
        None,
        "2.1",
        "2.19",
        "2.37",
        "2.53",
        "2.74",
        "2.96",
        "latest",
        None,
        "2.1",
        "2.37",
        "2.53",
        "latest",
        "9.9",
        "x",
    ]
)


def _seeds(ids):
    """Valid bodies per path template (``ids``: the caller's resources):
    mutated, they get the fuzzing past the schemas into the handlers."""
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M"
    server = {
        "server": {
            "name": "s",
            "flavorRef": "1",
            "imageRef": CIRROS,
            "max_count": 2,
            "metadata": {"a": "b"},
            "description": "d",
        }
    }
    actions = [
        {"reboot": {"type": "SOFT"}},
        {"os-getConsoleOutput": {"length": 5}},
        {"rebuild": {"imageRef": CIRROS, "name": "r"}},
        {"resize": {"flavorRef": "2"}},
        {"createImage": {"name": "i"}},
        {"createBackup": {"name": "b", "backup_type": "daily", "rotation": 1}},
        {"os-getVNCConsole": {"type": "novnc"}},
        {"injectNetworkInfo": None},
        {"restore": None},
        {"lock": None},
        {"os-stop": None},
    ]
    deployment = {
        "config_id": ids["config_id"],
        "server_id": ids["server_id"],
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "input_values": {"a": 1},
    }
    compute = "/compute/v2.1"
    heat = "/orchestration/v1/{project_id}"
    return {
        "/v3/auth/tokens": [
            {
                "auth": {
                    "identity": {
                        "methods": ["password"],
                        "password": {
                            "user": {
                                "name": "nobody",
                                "domain": {"id": "default"},
                                "password": "x",
                            }
                        },
                    }
                }
            }
        ],
        "/v3/users/{user_id}/application_credentials": [
            {"application_credential": {"name": "n", "roles": [{"name": "member"}]}}
        ],
        compute + "/os-services/{service_id}": [
            {"status": "enabled"},
            {"host": "host1", "binary": "nova-compute"},
        ],
        compute + "/os-keypairs": [{"keypair": {"name": "k", "public_key": key, "type": "ssh"}}],
        compute + "/servers": [server, {"server": dict(server["server"], networks="none")}],
        compute + "/os-volumes_boot": [server],
        compute + "/servers/{server_id}": [{"server": {"name": "n"}}],
        compute + "/os-volumes_boot/{server_id}": [{"server": {"name": "n"}}],
        compute + "/servers/{server_id}/action": actions,
        compute + "/os-volumes_boot/{server_id}/action": actions,
        compute + "/servers/{server_id}/remote-consoles": [
            {"remote_console": {"protocol": "vnc", "type": "novnc"}}
        ],
        compute + "/servers/{server_id}/metadata": [{"metadata": {"a": "b"}}],
        compute + "/servers/{server_id}/metadata/{key}": [{"meta": {"k": "v"}}],
        compute + "/os-aggregates": [{"aggregate": {"name": "a", "availability_zone": "z"}}],
        compute + "/os-aggregates/{aggregate_id}": [{"aggregate": {"name": "b"}}],
        compute + "/os-aggregates/{aggregate_id}/action": [
            {"add_host": {"host": "host1"}},
            {"set_metadata": {"metadata": {"k": "v"}}},
        ],
        compute + "/os-aggregates/{aggregate_id}/images": [{"cache": [{"id": CIRROS}]}],
        compute + "/os-quota-sets/{tenant_id}": [
            {"quota_set": {"instances": 50, "cores": "100", "force": "True"}},
            {"quota_set": {"key_pairs": -1, "metadata_items": 200}},
        ],
        compute + "/os-quota-class-sets/{quota_class}": [
            {"quota_class_set": {"instances": 50, "server_groups": 3}}
        ],
        heat + "/software_configs": [
            {
                "name": "c",
                "group": "script",
                "config": "x",
                "inputs": [{"name": "i", "type": "Number", "default": 1}],
                "outputs": [{"name": "o"}],
                "options": {},
            }
        ],
        heat + "/software_deployments": [deployment],
        heat + "/software_deployments/{deployment_id}": [
            {"status": "COMPLETE", "output_values": {"o": 1}}
        ],
        heat + "/validate": [
            {
                "template": {
                    "heat_template_version": "2013-05-23",
                    "parameters": {"p": {"type": "number", "default": 1}},
                    "resources": {},
                }
            }
        ],
        "/localcloud/faults": [
            {"method": "GET", "path": "^/nothing$", "count": 1, "kind": "status", "status": 503}
        ],
        **_volume_seeds(ids),
        **_stack_seeds(heat),
    }


FUZZ_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"n": {"type": "number", "default": 8}},
    "resources": {"rand": {"type": "OS::Heat::RandomString", "properties": {"length": 8}}},
    "outputs": {"v": {"value": {"get_attr": ["rand", "value"]}}},
}


def _stack_seeds(heat):
    """Heat's stack routes (issue 25): create, preview, update, actions,
    signal and mark unhealthy bodies."""
    stack = heat + "/stacks/{stack_name}/{stack_id}"
    create = {"stack_name": "f", "template": FUZZ_TEMPLATE, "parameters": {"n": 4}, "tags": "a"}
    update = {"template": FUZZ_TEMPLATE, "parameters": {"n": 5}, "timeout_mins": 5}
    return {
        heat + "/stacks": [create, dict(create, disable_rollback=False, timeout_mins=1)],
        heat + "/stacks/preview": [create],
        stack: [update, {"parameters": {"n": 6}}],
        stack + "/preview": [update],
        stack + "/actions": [{"check": None}, {"suspend": None}],
        stack + "/resources/{resource_name}": [{"mark_unhealthy": False}],
        stack + "/resources/{resource_name}/signal": [{"data": "x"}],
    }


def _volume_seeds(ids):
    cinder = "/volume/v3"
    return {
        cinder + "/volumes": [
            {"volume": {"size": 1, "name": "v", "metadata": {"a": "b"}}},
            {"volume": {"size": "2", "imageRef": CIRROS}},
            {"volume": {"snapshot_id": ids["snapshot_id"]}},
            {"volume": {"source_volid": ids["volume_id"], "volume_type": "__DEFAULT__"}},
        ],
        cinder + "/volumes/{volume_id}": [{"volume": {"name": "n", "metadata": {"k": "v"}}}],
        cinder + "/volumes/{volume_id}/action": [{"os-extend": {"new_size": 3}}],
        cinder + "/volumes/{volume_id}/metadata": [{"metadata": {"a": "b"}}],
        cinder + "/volumes/{volume_id}/metadata/{key}": [{"meta": {"k": "v"}}],
        cinder + "/snapshots": [
            {"snapshot": {"volume_id": ids["volume_id"], "force": True, "name": "s"}}
        ],
        cinder + "/snapshots/{snapshot_id}": [{"snapshot": {"name": "n"}}],
        cinder + "/os-quota-sets/{target_id}": [{"quota_set": {"volumes": 20, "gigabytes": "50"}}],
        "/compute/v2.1/servers/{server_id}/os-volume_attachments": [
            {"volumeAttachment": {"volumeId": ids["volume_id"], "tag": "t"}}
        ],
        "/compute/v2.1/servers/{server_id}/os-volume_attachments/{volume_id}": [
            {"volumeAttachment": {"volumeId": ids["volume_id"], "delete_on_termination": True}}
        ],
    }


def _mutate(draw, value):
    """``value`` with each part changed by some chance: a leaf mostly for
    one of its own type (to get past the schemas' type checks) or for any
    JSON, an object's key dropped or one added."""
    roll = draw(st.integers(0, 19))
    if isinstance(value, dict):
        changed = {key: _mutate(draw, item) for key, item in value.items()}
        if roll == 0 and changed:
            del changed[draw(st.sampled_from(sorted(changed, key=str)))]
        elif roll == 1:
            changed[draw(KEY)] = draw(JSON)
        return changed
    if isinstance(value, list):
        return [_mutate(draw, item) for item in value]
    if roll < 3 and isinstance(value, str):
        return draw(_text())
    if roll < 3 and isinstance(value, (int, float)):
        return draw(NUMBERS)
    if roll == 3:
        return draw(JSON)
    return value


def _body(draw, seeds):
    """Mostly a mutated seed; else random JSON or raw garbage."""
    kind = draw(st.integers(0, 9))
    if seeds and kind < 7:
        return json.dumps(_mutate(draw, draw(st.sampled_from(seeds)))).encode()
    if kind < 9:
        return json.dumps(draw(JSON)).encode()
    return draw(RAW)


def _template(svc, route):
    """The route's path under the service, ``{name}`` for each parameter
    (regex-only routes, as Swift's, are read from their regex)."""
    if "{" in route.pattern or "(?P<" not in route.regex.pattern:
        return svc.prefix + route.pattern
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", route.regex.pattern)
    return svc.prefix + path.lstrip("^").replace("/?$", "")


class _RouteTablesOnly:
    """Enough of a cloud for the services' constructors to build their route
    tables (at collection time, without a database; ``data_dir`` a
    directory removed once they are built)."""

    class store:
        @staticmethod
        def migrate(component, migrations):
            pass

    def __init__(self, data_dir):
        self.config = Config(data_dir=data_dir)


def _services():
    """One instance of each service (their route tables)."""
    from occli.localcloud.cloud import default_services
    from occli.localcloud.faults import AdminService

    with tempfile.TemporaryDirectory() as data_dir:
        cloud = _RouteTablesOnly(data_dir)
        return [cls(cloud) for cls in [*default_services(), AdminService]]


SERVICES = _services()


def _json_routes():
    """``[(service name, method, pattern, path template)]`` of every route
    that takes a body (compute's ``/{project_id}`` twins left out: same
    handlers)."""
    found = []
    for svc in SERVICES:
        for route in svc.routes:
            if route.method not in BODY_METHODS:
                continue
            if svc.name in ("compute", "volume") and "/{project_id}/" in route.pattern:
                continue
            found.append((svc.name, route.method, route.pattern, _template(svc, route)))
    return found


ROUTES = _json_routes()


def _every_route():
    """``[(service name, method, pattern, path template, max_body, query
    names its handler's source reads, whether it is a ``/{project_id}/``
    twin)]`` of every route of every service (Swift's GET routes also as
    HEAD: Swift answers them apart)."""
    found = []
    for svc in SERVICES:
        for route in svc.routes:
            methods = [route.method]
            if svc.name == "objectstore" and route.method == "GET":
                methods.append("HEAD")
            for method in methods:
                found.append(
                    (
                        svc.name,
                        method,
                        route.pattern,
                        _template(svc, route),
                        svc.max_body,
                        bounds.names_in_source(route.handler),
                        svc.name in ("compute", "volume") and "/{project_id}/" in route.pattern,
                    )
                )
    return found


EVERY_ROUTE = _every_route()


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    """A full cloud; each user owns one of everything a path can name
    (``cloud.fuzz_ids[user][parameter]``); unhandled exceptions are
    recorded in ``cloud.fuzz_crashes``."""
    cloud = LocalCloud(
        Config(
            data_dir=str(tmp_path_factory.mktemp("fuzz")),
            build_time=0,
            max_servers_per_request=3,
            # no simulated agent reading servers in the background: a
            # refusal must be seen to change nothing
            heat_agent_opt_in=False,
        )
    )
    client = Client(cloud)
    cloud.fuzz_tokens = {u: client.token(u) for u in USERS}
    cloud.fuzz_ids = {u: _own_resources(cloud, client, u) for u in USERS}
    cloud.fuzz_crashes = []
    cloud.log_exception = lambda req: cloud.fuzz_crashes.append(
        "%s %.200s: %s" % (req.method, req.path, traceback.format_exc(limit=-2))
    )
    yield cloud
    cloud.close()


def _own_resources(cloud, client, user):
    token = cloud.fuzz_tokens[user]

    def call(method, path, body=None, expect=(200, 201, 202), headers=None):
        result = client.request(method, path, json=body, headers=headers, token=token)
        assert result.status in expect, (path, result.body)
        return result.json() if result.body else None

    with cloud.store.read() as db:
        project = cloud.identity.project_id(db, user)
        user_id = cloud.identity.user_id(db, user)
        service = db.execute(
            "SELECT uuid FROM compute_services WHERE binary = 'nova-compute'"
        ).fetchone()[0]
    server = call(
        "POST",
        "/compute/v2.1/servers",
        {
            "server": {
                "name": "fuzz-" + user,
                "flavorRef": "1",
                "imageRef": CIRROS,
                "metadata": {"k": "v"},
            }
        },
    )["server"]["id"]
    ids = {
        "project_id": project,
        "user_id": user_id,
        "server_id": server,
        "key": "k",
        "service_id": service,
        "account": "AUTH_" + project,
        "container": "c",
        "object": "o",
        "tenant_id": project,
        "quota_class": "fuzz-" + user,
    }
    if user == "admin":
        ids["aggregate_id"] = str(
            call("POST", "/compute/v2.1/os-aggregates", {"aggregate": {"name": "fuzz"}})[
                "aggregate"
            ]["id"]
        )
    heat = "/orchestration/v1/%s/" % project
    ids["config_id"] = call(
        "POST", heat + "software_configs", {"name": "c", "group": "script", "config": "x"}
    )["software_config"]["id"]
    ids["deployment_id"] = call(
        "POST",
        heat + "software_deployments",
        {
            "config_id": ids["config_id"],
            "server_id": server,
            "action": "CREATE",
        },
    )["software_deployment"]["id"]
    swift = "/object-store/v1/AUTH_%s/c" % project
    call("PUT", swift, expect=(201, 202))
    client.request("PUT", swift + "/o", body=b"data", token=token)
    cinder = "/volume/v3/%s/" % project
    ids["target_id"] = project
    ids["volume_id"] = call("POST", cinder + "volumes", {"volume": {"size": 1}})["volume"]["id"]
    call("GET", cinder + "volumes/" + ids["volume_id"])
    snapshot = {"snapshot": {"volume_id": ids["volume_id"]}}
    ids["snapshot_id"] = call("POST", cinder + "snapshots", snapshot)["snapshot"]["id"]
    call("GET", cinder + "snapshots/" + ids["snapshot_id"])
    _more_resources(call, ids, user)
    return ids


def _more_resources(call, ids, user):
    """The ids of the other path parameters: a keypair, a server group, a
    tag, a volume attachment, Neutron's resources, the instance action and
    network of the server, and the seeded ones."""
    compute = "/compute/v2.1"
    server = compute + "/servers/" + ids["server_id"]
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M"
    ids["name"] = "fuzz-" + user
    call("POST", compute + "/os-keypairs", {"keypair": {"name": ids["name"], "public_key": key}})
    group = {"server_group": {"name": "fuzz", "policies": ["affinity"]}}
    ids["group_id"] = call("POST", compute + "/os-server-groups", group)["server_group"]["id"]
    ids["tag"] = "fuzz"
    call("PUT", server + "/tags/fuzz", None, (201, 204), {"OpenStack-API-Version": "compute 2.26"})
    attach = {"volumeAttachment": {"volumeId": ids["volume_id"]}}
    call("POST", server + "/os-volume_attachments", attach)
    volume = call("GET", "/volume/v3/volumes/" + ids["volume_id"])["volume"]
    ids["attachment_id"] = volume["attachments"][0]["attachment_id"]
    ids["item_id"] = ids["volume_id"]
    ids["type_id"] = call("GET", "/volume/v3/types")["volume_types"][0]["id"]
    ids["request_id"] = call("GET", server + "/os-instance-actions")["instanceActions"][0][
        "request_id"
    ]
    ids["network"] = next(iter(call("GET", server + "/ips")["addresses"]), "private")
    neutron = "/network/v2.0/"
    ids["network_id"] = call("POST", neutron + "networks", {"network": {"name": "fuzz"}})[
        "network"
    ]["id"]
    subnet = {"subnet": {"network_id": ids["network_id"], "ip_version": 4, "cidr": "10.9.0.0/24"}}
    ids["subnet_id"] = call("POST", neutron + "subnets", subnet)["subnet"]["id"]
    port = {"port": {"network_id": PRIVATE_NETWORK_ID}}
    ids["port_id"] = call("POST", neutron + "ports", port)["port"]["id"]
    group = {"security_group": {"name": "fuzz"}}
    ids["security_group_id"] = call("POST", neutron + "security-groups", group)["security_group"][
        "id"
    ]
    rule = {
        "security_group_rule": {
            "security_group_id": ids["security_group_id"],
            "direction": "ingress",
            "protocol": "tcp",
            "port_range_min": 22,
            "port_range_max": 22,
        }
    }
    ids["security_group_rule_id"] = call("POST", neutron + "security-group-rules", rule)[
        "security_group_rule"
    ]["id"]
    fip = {"floatingip": {"floating_network_id": PUBLIC_NETWORK_ID}}
    ids["floatingip_id"] = ids["floating_ip_id"] = call("POST", neutron + "floatingips", fip)[
        "floatingip"
    ]["id"]
    ids["quota_project_id"] = ids["project_id"]
    ids["flavor_id"] = "1"
    ids["image_id"] = CIRROS
    ids["domain_id"] = "default"
    roles = call("GET", "/v3/roles")["roles"] if user == "admin" else []
    ids["role_id"] = next((r["id"] for r in roles if r["name"] == "member"), "x")
    app_cred = {"application_credential": {"name": "fuzz"}}
    ids["app_cred_id"] = call(
        "POST", "/v3/users/%s/application_credentials" % ids["user_id"], app_cred
    )["application_credential"]["id"]
    ids["alias"] = "os-keypairs"
    ids["before_timestamp"] = "2012-07-01 00:00:00"
    if user == "admin":
        hypervisors = call("GET", compute + "/os-hypervisors")["hypervisors"]
        ids["hypervisor_id"] = str(hypervisors[0]["id"])
    _stack_ids(call, ids, user)


def _stack_ids(call, ids, user):
    """A complete stack of the caller's (a RandomString), its resource, an
    event and an output: the stack routes' path parameters."""
    heat = "/orchestration/v1/%s/stacks" % ids["project_id"]
    body = {"stack_name": "fuzz-" + user, "template": FUZZ_TEMPLATE}
    ids["stack_id"] = call("POST", heat, body)["stack"]["id"]
    ids["stack_name"] = body["stack_name"]
    path = "%s/%s/%s" % (heat, ids["stack_name"], ids["stack_id"])
    deadline = time.monotonic() + 30
    while call("GET", path)["stack"]["stack_status"].endswith("IN_PROGRESS"):
        assert time.monotonic() < deadline, "fuzz stack still in progress"
        time.sleep(0.02)
    ids["resource_name"] = "rand"
    ids["output_key"] = "v"
    ids["event_id"] = call("GET", path + "/events")["events"][0]["id"]
    ids["type_name"] = "OS::Heat::RandomString"
    ids["template_version"] = "heat_template_version.2018-08-31"


def _path(template, ids, draw):
    """``template`` with each parameter the caller's own id (``ids``) or
    random text or numbers (quoted: each stays one path segment)."""

    def fill(match):
        value = ids.get(match.group(1), "x")
        if draw(st.integers(0, 3)) == 0:
            value = draw(
                st.text(min_size=1, max_size=12)
                | st.sampled_from(STRINGS[1:] + NASTY)
                | st.integers(-(2**70), 2**70).map(str)
            )
        return quote(value.encode("utf-8", "surrogatepass"), safe="")

    return re.sub(r"\{(\w+)\}", fill, template)


@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize(
    "service, method, pattern, template",
    ROUTES,
    ids=["%s %s %s" % (r[0], r[1], r[3]) for r in ROUTES],
)
def test_bad_json_never_crashes_and_a_refusal_changes_nothing(
    cloud, user, service, method, pattern, template
):
    client = Client(cloud)
    allowed_500 = (method, pattern) in ALLOWED_500
    ids = cloud.fuzz_ids[user]
    seeds = _seeds(ids).get(template, [])

    @settings(settings.get_profile(PROFILE))
    @given(data=st.data(), version=VERSIONS)
    def fuzz(data, version):
        path = _path(template, ids, data.draw)
        body = _body(data.draw, seeds)
        headers = {}
        if version is not None and service == "compute":
            headers["OpenStack-API-Version"] = "compute " + version
        before = _dump(cloud)
        crashes = len(cloud.fuzz_crashes)
        try:
            result = client.request(
                method, path, body=body, headers=headers, token=cloud.fuzz_tokens[user]
            )
        finally:
            cloud.faults.clear()
        assert len(cloud.fuzz_crashes) == crashes, "unhandled exception"
        assert result.status < 500 or (result.status == 500 and allowed_500), (
            result.status,
            result.body[:300],
        )
        if 400 <= result.status < 500:
            assert _dump(cloud) == before, "a %d changed data" % result.status

    fuzz()


@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize(
    "service, method, pattern, template, max_body, source_names, twin",
    EVERY_ROUTE,
    ids=["%s %s %s" % (r[0], r[1], r[3]) for r in EVERY_ROUTE],
)
def test_boundary_values_never_crash_and_a_refusal_changes_nothing(
    cloud, user, service, method, pattern, template, max_body, source_names, twin
):
    """Every route, every boundary case of ``fuzz_bounds``: no unhandled
    exception, no 5xx (but Heat's parity 500s), a declared body over
    ``max_body`` is a 413, a 4xx changes nothing and is no larger than a
    bound on what was asked (twice the request, plus 64 KiB)."""
    client = Client(cloud)
    allowed_500 = (method, pattern) in ALLOWED_500
    ids = cloud.fuzz_ids[user]
    token = cloud.fuzz_tokens[user]
    names = set(source_names)
    if method in ("GET", "HEAD"):
        names |= set(bounds.PAGING)
        names |= bounds.names_read(
            lambda: client.request(method, bounds.fill(template, ids), token=token)
        )
    seeds = _seeds(ids).get(template, [])
    failures = []
    watch = _Changes(cloud)
    cases = bounds.cases(service, method, template, ids, seeds, names, max_body, twin)
    for case in cases:
        path = case.path + ("?" + case.query if case.query else "")
        before = watch.dump()
        crashes = len(cloud.fuzz_crashes)
        try:
            result = client.request(
                method, path, body=case.body, headers=case.headers, token=token
            )
        finally:
            # (a read: clearing no rules would still commit a write)
            if cloud.faults.rules():
                cloud.faults.clear()
        declared = case.headers.get("Content-Length", str(len(case.body)))
        declared = int(declared) if declared.isdigit() else 0
        sent = len(path) + len(case.body) + sum(map(len, case.headers.values()))
        if len(cloud.fuzz_crashes) > crashes:
            failures.append((case.where, "unhandled", cloud.fuzz_crashes[-1]))
        elif result.status >= 500 and not (result.status == 500 and allowed_500):
            failures.append((case.where, result.status, result.body[:300]))
        elif declared > max_body and result.status != 413:
            failures.append((case.where, result.status, "not 413"))
        elif result.status >= 400 and len(result.body) > 2 * sent + 65536:
            failures.append((case.where, result.status, "a %d byte answer" % len(result.body)))
        elif 400 <= result.status < 500 and watch.changed() and _dump(cloud) != before:
            failures.append((case.where, result.status, "changed data"))
    watch.close()
    assert not failures, failures


class _Changes:
    """Whether anything was committed to ``cloud``'s database since the
    last :meth:`dump` (SQLite's ``PRAGMA data_version``, read on a
    connection of its own): the tables are dumped again only then."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.conn = sqlite3.connect(cloud.store.path, isolation_level=None)
        self.version = None
        self.tables = None

    def _version(self):
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def dump(self):
        """Every table, as of now (once Heat's engine ran what earlier
        requests started)."""
        wait_engine_idle(self.cloud)
        version = self._version()
        if version != self.version:
            self.version, self.tables = version, _dump(self.cloud)
        return self.tables

    def changed(self):
        wait_engine_idle(self.cloud)
        return self._version() != self.version

    def close(self):
        self.conn.close()


def _dump(cloud):
    """Every table (once Heat's engine ran what earlier requests started)."""
    wait_engine_idle(cloud)
    with cloud.store.read() as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: [tuple(r) for r in db.execute("SELECT * FROM %s" % t)] for t in tables}
