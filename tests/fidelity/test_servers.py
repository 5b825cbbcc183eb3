"""Servers: create (no network) to ACTIVE, show, list filters, metadata,
power actions with their wrong-state refusals, delete."""

import time

import pytest

from tests.fidelity.differential import Difference
from tests.fidelity.test_versions import VERSIONS

# what both clouds show of a server and must agree on (values); hosts and
# zones are compared through the {host} placeholder
SHOWN = (
    "server.status",
    "server.OS-EXT-STS:vm_state",
    "server.OS-EXT-STS:task_state",
    "server.OS-EXT-STS:power_state",
    "server.OS-EXT-AZ:availability_zone",
    "server.OS-EXT-SRV-ATTR:host",
    "server.locked",
    "server.metadata",
    "server.addresses",
    "server.image.id",
    "server.config_drive",
)


def wait(pair, status, key="server", timeout=90):
    """Until the server ``ids[key]`` shows ``status`` in both clouds."""
    for cloud in pair.clouds:
        deadline = time.monotonic() + timeout
        while True:
            body = cloud.request("GET", "/servers/" + cloud.ids[key], version="2.1").body
            current = body["server"]["status"] if body and "server" in body else None
            task = body["server"].get("OS-EXT-STS:task_state") if current else None
            if current == status and task is None:
                break
            assert current != "ERROR", (cloud.name, body)
            assert time.monotonic() < deadline, (cloud.name, status, body)
            time.sleep(0.3 if cloud.name == "real" else 0.01)


def boot(pair, key, name, version="2.47"):
    body = lambda ids: {"server": {"name": name, "flavorRef": ids["flavor"],  # noqa: E731
                                   "imageRef": ids["image"], "networks": "none"}}  # fmt: skip
    real, local = pair.check("POST", "/servers", body, version=version)
    if real.status == 202:
        pair.real.created.append(("server", real.body["server"]["id"]))
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids[key] = answer.body["server"]["id"]
        cloud.ids[key + "_name"] = name


@pytest.fixture(scope="module")
def server(pair, flavor):
    name = "fid-vm-" + pair.real.ids["member_project"][:6]
    boot(pair, "server", name)
    wait(pair, "ACTIVE")
    return name


def action(pair, body, version="2.47", **kw):
    return pair.check("POST", "/servers/{server}/action", body, version=version, **kw)


@pytest.mark.parametrize("version", VERSIONS)
def test_show(pair, server, version):
    pair.check("GET", "/servers/{server}", version=version, values=SHOWN)


def test_show_as_member_of_other_project(pair, server):
    pair.check("GET", "/servers/{server}", version="2.47", user="member")


def test_show_missing(pair):
    pair.check("GET", "/servers/00000000-0000-0000-0000-000000000000", version="2.47")


@pytest.mark.parametrize(
    "query",
    (
        "name={server_name}",
        "name={server_name}&status=ACTIVE",
        "name={server_name}&flavor={flavor}",
        "name={server_name}&image={image}",
        "name={server_name}&limit=1",
        "name={server_name}&all_tenants=1",
        "name={server_name}&changes-since=2000-01-01T00:00:00Z",
    ),
)
@pytest.mark.parametrize("detail", ("", "/detail"))
def test_list_filters(pair, server, query, detail):
    pair.check("GET", "/servers%s?%s" % (detail, query), version="2.47",
               values=("servers.0.name",))  # fmt: skip


@pytest.mark.parametrize("version", VERSIONS)
def test_list_detail_versions(pair, server, version):
    pair.check("GET", "/servers/detail?name={server_name}", version=version)


@pytest.mark.parametrize(
    "query",
    (
        "limit=-1",
        "limit=x",
        "marker=00000000-0000-0000-0000-000000000000",
        "sort_key=bogus",
        "sort_dir=sideways",
        "changes-since=yesterday",
        "status=NOT-A-STATUS",
        "ip6=::1&all_tenants=x",
        "limit=&sort_key=bogus",
    ),
)
def test_list_bad_filters(pair, query):
    pair.check("GET", "/servers?" + query, version="2.47")


def test_list_all_tenants_as_member(pair):
    pair.check("GET", "/servers?all_tenants=1", version="2.47", user="member")


def test_metadata(pair, server):
    path = "/servers/{server}/metadata"
    pair.check("PUT", path, {"metadata": {"a": "1", "b": "2"}}, version="2.47",
               values=("metadata",))  # fmt: skip
    pair.check("POST", path, {"metadata": {"c": "3"}}, version="2.47", values=("metadata",))
    pair.check("GET", path, version="2.47", values=("metadata",))
    pair.check("GET", path + "/a", version="2.47", values=("meta",))
    pair.check("PUT", path + "/b", {"meta": {"b": "20"}}, version="2.47", values=("meta",))
    pair.check("DELETE", path + "/c", version="2.47")
    pair.check("GET", "/servers/{server}", version="2.47", values=SHOWN)


@pytest.mark.parametrize(
    "method,suffix,body",
    (
        ("GET", "/nope", None),
        ("DELETE", "/nope", None),
        ("PUT", "/a", {"meta": {"b": "1"}}),
        ("PUT", "/a", {"meta": {"a": "1", "b": "2"}}),
        ("PUT", "", {"metadata": {"k": 1}}),
        ("PUT", "", {"meta": {}}),
        ("POST", "", {"metadata": {"x" * 256: "v"}}),
    ),
    ids=(
        "get-missing",
        "delete-missing",
        "key-mismatch",
        "two-keys",
        "int-value",
        "wrong-root",
        "long-key",
    ),  # fmt: skip
)
def test_metadata_errors(pair, server, method, suffix, body):
    pair.check(method, "/servers/{server}/metadata" + suffix, body, version="2.47")


def test_metadata_as_member(pair, server):
    pair.check("GET", "/servers/{server}/metadata", version="2.47", user="member")


def test_power_actions(pair, server):
    action(pair, {"start": None})  # already active: 409
    action(pair, {"resume": None})  # not suspended: 409
    action(pair, {"unpause": None})  # not paused: 409
    action(pair, {"os-stop": None})
    wait(pair, "SHUTOFF")
    pair.check("GET", "/servers/{server}", version="2.47", values=SHOWN)
    action(pair, {"os-stop": None})  # already stopped: 409
    action(pair, {"pause": None})  # stopped: 409
    action(pair, {"suspend": None})  # stopped: 409
    action(pair, {"reboot": {"type": "SOFT"}})  # stopped: 409
    action(pair, {"os-start": None})
    wait(pair, "ACTIVE")
    action(pair, {"reboot": {"type": "HARD"}})
    wait(pair, "ACTIVE")
    action(pair, {"pause": None})
    wait(pair, "PAUSED")
    action(pair, {"pause": None})  # already paused: 409
    action(pair, {"os-stop": None})  # paused: 409
    action(pair, {"unpause": None})
    wait(pair, "ACTIVE")
    action(pair, {"suspend": None})
    wait(pair, "SUSPENDED")
    action(pair, {"suspend": None})  # already suspended: 409
    action(pair, {"reboot": {"type": "SOFT"}})  # suspended: 409
    action(pair, {"resume": None})
    wait(pair, "ACTIVE")
    pair.check("GET", "/servers/{server}", version="2.79", values=SHOWN)


@pytest.mark.parametrize(
    "body",
    (
        {"reboot": {}},
        {"reboot": {"type": "WARM"}},
        {"os-stop": {"bogus": 1}},
        {"lock": {"locked_reason": 1}},
        {"no_such_action": None},
        {},
    ),
    ids=(
        "reboot-no-type",
        "reboot-bad-type",
        "stop-body",
        "lock-reason-int",
        "unknown",
        "empty",
    ),  # fmt: skip
)
def test_action_bad_body(pair, server, body):
    action(pair, body, version="2.73")


def test_lock(pair, server):
    action(pair, {"lock": {"locked_reason": "fidelity"}}, version="2.73")
    pair.check("GET", "/servers/{server}", version="2.73",
               values=(*SHOWN, "server.locked_reason"))  # fmt: skip
    action(pair, {"lock": None}, version="2.73")  # locking twice is fine
    action(pair, {"unlock": None}, version="2.73")
    action(pair, {"unlock": None}, version="2.73")
    pair.check("GET", "/servers/{server}", version="2.73",
               values=(*SHOWN, "server.locked_reason"))  # fmt: skip


def test_lock_reason_before_2_73(pair, server):
    action(pair, {"lock": {"locked_reason": "x"}}, version="2.72")


def test_actions_as_member_of_other_project(pair, server):
    action(pair, {"os-stop": None}, user="member")
    pair.check("DELETE", "/servers/{server}", version="2.47", user="member")


@pytest.mark.parametrize(
    "body,version",
    (
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": "nope",
                    "imageRef": ids["image"],
                    "networks": "none",
                }
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": ids["flavor"],
                    "imageRef": "00000000-0000-0000-0000-000000000000",
                    "networks": "none",
                }
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": ids["flavor"],
                    "imageRef": ids["image"],
                    "networks": "none",
                }
            },
            "2.36",
        ),
        (
            lambda ids: {
                "server": {
                    "flavorRef": ids["flavor"],
                    "imageRef": ids["image"],
                    "networks": "none",
                }
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {"name": "fid-e", "flavorRef": ids["flavor"], "imageRef": ids["image"]}
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": ids["flavor"],
                    "imageRef": ids["image"],
                    "networks": "none",
                    "bogus": 1,
                }
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": ids["flavor"],
                    "imageRef": ids["image"],
                    "networks": "none",
                    "min_count": 2,
                    "max_count": 1,
                }
            },
            "2.47",
        ),
        (
            lambda ids: {
                "server": {
                    "name": "fid-e",
                    "flavorRef": ids["flavor"],
                    "imageRef": ids["image"],
                    "networks": "none",
                    "availability_zone": "fid-no-zone",
                }
            },
            "2.47",
        ),
    ),
    ids=(
        "bad-flavor",
        "bad-image",
        "none-before-2.37",
        "no-name",
        "no-networks",
        "extra",
        "min-gt-max",
        "bad-zone",
    ),  # fmt: skip
)
def test_create_errors(pair, flavor, body, version):
    real, local = pair.both("POST", "/servers", body, version=version)
    if real.status == 202:
        pair.real.created.append(("server", real.body["server"]["id"]))
    problems = pair.differences(real, local)
    if problems:
        raise Difference("\n".join(problems) + "\nreal: %r\nlocal: %r" % (real, local))


def test_delete(pair, flavor):
    name = "fid-del-" + pair.real.ids["member_project"][:6]
    boot(pair, "doomed", name, version="2.96")
    wait(pair, "ACTIVE", key="doomed")
    pair.check("GET", "/servers/{doomed}", version="2.96", values=SHOWN[:-2])
    pair.check("DELETE", "/servers/{doomed}", version="2.96")
    for cloud in pair.clouds:
        deadline = time.monotonic() + 60
        while cloud.request("GET", "/servers/" + cloud.ids["doomed"]).status != 404:
            assert time.monotonic() < deadline
            time.sleep(0.3)
    pair.check("GET", "/servers/{doomed}", version="2.96")
    pair.check("DELETE", "/servers/{doomed}", version="2.96")


def test_update(pair, server):
    path = "/servers/{server}"
    pair.check("PUT", path, {"server": {"name": "{server_name}"}}, version="2.1")
    pair.check("PUT", path, lambda ids: {"server": {"name": ids["server_name"]}}, version="2.47",
               values=("server.name",))  # fmt: skip
    pair.check("PUT", path, {"server": {"description": "fid"}}, version="2.19",
               values=("server.description",))  # fmt: skip
    pair.check("PUT", path, {"server": {"description": "fid"}}, version="2.18")
    pair.check("PUT", path, {"server": {"name": ""}}, version="2.47")
    pair.check("PUT", path, {"server": {"bogus": 1}}, version="2.47")
    pair.check("PUT", path, {"server": {}}, version="2.96", values=("server.status",))
    pair.check("PUT", path, {"server": {"name": "x"}}, version="2.47", user="member")


@pytest.mark.parametrize(
    "method,path,body",
    (
        ("POST", "/servers/00000000-0000-0000-0000-000000000000/action", {"os-stop": None}),
        ("DELETE", "/servers/00000000-0000-0000-0000-000000000000", None),
        ("GET", "/servers/not-a-uuid", None),
        ("PUT", "/servers/00000000-0000-0000-0000-000000000000/metadata/k", {"meta": {"k": "v"}}),
        ("POST", "/servers/00000000-0000-0000-0000-000000000000/action", {"pause": None}),
    ),
)
def test_missing_server(pair, method, path, body):
    pair.check(method, path, body, version="2.47")


def test_list_as_member(pair, server):
    """The member sees none of admin's servers (other tests may give the
    member servers of its own: only admin's is looked for)."""
    pair.check("GET", "/servers/detail", version="2.96", user="member", values=("servers",),
               keep=lambda ids, s: s["name"] == ids["server_name"])  # fmt: skip
    pair.check("GET", "/servers?name={server_name}", version="2.47", user="member",
               values=("servers",))  # fmt: skip


def test_list_paging(pair, server):
    """limit=1 over the servers this session made: one item and a next link
    whose marker is that server."""
    real, local = pair.check("GET", "/servers?name=fid-&limit=1", version="2.47",
                             values=("servers_links.0.rel",))  # fmt: skip
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        href = answer.body["servers_links"][0]["href"]
        assert "marker=" + answer.body["servers"][0]["id"] in href, (cloud.name, href)
    pair.check("GET", "/servers?name={server_name}&marker={server}", version="2.47",
               values=("servers",))  # fmt: skip


@pytest.mark.parametrize("version", ("2.1", "2.40"))
def test_simple_tenant_usage(pair, server, version):
    pair.check("GET", "/os-simple-tenant-usage?detailed=1", version=version,
               keep=lambda ids, usage: False)  # fmt: skip
    pair.check("GET", "/os-simple-tenant-usage/{member_project}", version=version, user="member")
    pair.check("GET", "/os-simple-tenant-usage/{admin_project}", version=version, user="member")
    pair.check("GET", "/os-simple-tenant-usage?start=yesterday", version=version)
