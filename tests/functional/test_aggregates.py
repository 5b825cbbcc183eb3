"""Host aggregates end to end: the occli CLI (in-process) against a local cloud.

Each test gets a fresh cloud of its own (3 compute hosts, the
``local_cloud`` fixture of occli.testing), since they depend on which hosts
run servers and on which aggregates exist.
"""

import json
import re

import pytest

from occli import exceptions

CIRROS = "cirros-0.6.2-x86_64-disk"
_REQUEST_ID = re.compile(r" \(Request-ID: req-[0-9a-f-]+\)")
pytestmark = pytest.mark.local_cloud(compute_hosts=3)


@pytest.fixture
def admin(local_cloud):
    """The SDK as admin."""
    return local_cloud.admin_client()


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv, cloud="local-admin")`` → (exit code, stdout, stderr)."""

    def run(*argv, cloud="local-admin"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def ok(occli, *argv, **kw):
    code, out, err = occli(*argv, **kw)
    assert code == 0, err
    return json.loads(out) if "-f" in argv else out


def fails(occli, *argv, code=1, **kw):
    """stderr of a command that must fail (exit 1, 2 for a usage error),
    without request ids."""
    got, out, err = occli(*argv, **kw)
    assert got == code, (out, err)
    # a policy refusal's advice (tests/unit/test_newcomer.py checks it)
    err = err.replace(exceptions.POLICY_HINT, "")
    return _REQUEST_ID.sub("", err).strip()


def boot(occli, zone, name="vm"):
    argv = [
        "server",
        "create",
        name,
        "--image",
        CIRROS,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--wait",
        "-f",
        "json",
    ]
    if zone:
        argv += ["--availability-zone", zone]
    return ok(occli, *argv)


def host_of(server):
    return server["OS-EXT-SRV-ATTR:host"]


# -- admin only ------------------------------------------------------------------


def test_members_are_forbidden(occli):
    assert fails(occli, "aggregate", "list", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-aggregates:index to be performed. (HTTP 403)"
    )
    assert "os-aggregates:create" in fails(occli, "aggregate", "create", "x", cloud="local")


# -- create, show, list ----------------------------------------------------------


def test_create_show_list(occli):
    created = ok(
        occli,
        "aggregate",
        "create",
        "agg-a",
        "--zone",
        "london",
        "--property",
        "ssd=true",
        "--property",
        "empty=",
        "-f",
        "json",
    )
    assert created["availability_zone"] == "london"
    assert created["properties"] == {"availability_zone": "london", "ssd": "true", "empty": ""}
    shown = ok(occli, "aggregate", "show", "agg-a", "-f", "json")
    assert shown["id"] == created["id"] and shown["hosts"] == []
    assert ok(occli, "aggregate", "show", str(created["id"]), "-f", "json")["name"] == "agg-a"
    assert ok(occli, "aggregate", "show", shown["uuid"], "-f", "json")["name"] == "agg-a"
    rows = ok(occli, "aggregate", "list", "-f", "json")
    assert {
        "ID": created["id"],
        "UUID": shown["uuid"],
        "Name": "agg-a",
        "Availability Zone": "london",
    } in rows
    long = ok(occli, "aggregate", "list", "--long", "-f", "json")
    assert long[0]["UUID"] == shown["uuid"]
    assert long[0]["Properties"]["ssd"] == "true" and long[0]["Hosts"] == []
    old = ok(
        occli, "--os-compute-api-version", "2.40", "aggregate", "list", "--long", "-f", "json"
    )
    assert "UUID" not in old[0]


def test_create_errors(occli):
    ok(occli, "aggregate", "create", "dup")
    assert fails(occli, "aggregate", "create", "dup") == (
        "Aggregate dup already exists. (HTTP 409)"
    )
    assert fails(occli, "aggregate", "create", "x", "--zone", "a:b") == (
        "Invalid input for field/attribute availability_zone. Value: a:b. "
        "'a:b' is not valid under any of the given schemas (HTTP 400)"
    )
    assert "name" in fails(occli, "aggregate", "create", "n" * 256)
    ok(occli, "aggregate", "create", "n" * 255)
    assert fails(occli, "aggregate", "create", "y", "--property", "bad", code=2) == (
        "--property expects KEY=VALUE, got 'bad'."
    )


def test_integer_ids_only(admin):
    agg = admin.aggregates.create("ids")
    with pytest.raises(exceptions.BadRequest) as err:
        admin.aggregates.get(admin.aggregates.get(agg).uuid)
    assert str(err.value).startswith("Invalid input received: id must be an integer (HTTP 400)")
    with pytest.raises(exceptions.NotFound):
        admin.aggregates.get(999999)


# -- hosts --------------------------------------------------------------------


def test_add_and_remove_host(occli):
    ok(occli, "aggregate", "create", "hosts-a", "--zone", "az-h")
    added = ok(occli, "aggregate", "add", "host", "hosts-a", "host1", "-f", "json")
    assert added["hosts"] == ["host1"]
    assert fails(occli, "aggregate", "add", "host", "hosts-a", "host1") == (
        "Aggregate %d already has host host1. (HTTP 409)" % added["id"]
    )
    assert fails(occli, "aggregate", "add", "host", "hosts-a", "nosuch") == (
        "Compute host nosuch could not be found. (HTTP 404)"
    )
    assert fails(occli, "aggregate", "remove", "host", "hosts-a", "host2") == (
        "Cannot remove host host2 in aggregate %d (HTTP 404)" % added["id"]
    )
    assert fails(occli, "aggregate", "remove", "host", "hosts-a", "nosuch").startswith(
        "Cannot remove host nosuch"
    )
    removed = ok(occli, "aggregate", "remove", "host", "hosts-a", "host1", "-f", "json")
    assert removed["hosts"] == []


def test_a_host_is_in_one_zone_only(occli):
    ok(occli, "aggregate", "create", "zone-1", "--zone", "z1")
    second = ok(occli, "aggregate", "create", "zone-2", "--zone", "z2", "-f", "json")
    ok(occli, "aggregate", "create", "no-zone")
    ok(occli, "aggregate", "add", "host", "zone-1", "host2")
    assert fails(occli, "aggregate", "add", "host", "zone-2", "host2") == (
        "Cannot add host to aggregate %d. Reason: One or more hosts already "
        "in availability zone(s) ['z1']. (HTTP 409)" % second["id"]
    )
    ok(occli, "aggregate", "add", "host", "no-zone", "host2")
    # moving the zone of zone-1 onto z2 would split host2 too
    assert fails(occli, "aggregate", "set", "no-zone", "--zone", "z2") == (
        "Cannot update aggregate %d. Reason: One or more hosts already in "
        "availability zone(s) ['z1']. (HTTP 400)" % (second["id"] + 1)
    )
    assert "One or more hosts already in availability zone(s) ['z1']" in fails(
        occli, "aggregate", "set", "no-zone", "--property", "availability_zone=z2"
    )


# -- properties -----------------------------------------------------------------


def test_set_and_unset_properties(occli):
    ok(occli, "aggregate", "create", "props", "--zone", "pz")
    ok(
        occli,
        "aggregate",
        "set",
        "props",
        "--property",
        "a=1",
        "--property",
        "b=2",
        "--property",
        "c=",
    )
    ok(occli, "aggregate", "set", "props", "--property", "a=10")
    shown = ok(occli, "aggregate", "show", "props", "-f", "json")
    assert shown["properties"] == {"availability_zone": "pz", "a": "10", "b": "2", "c": ""}
    ok(occli, "aggregate", "unset", "props", "--property", "b", "--property", "never-set")
    ok(occli, "aggregate", "set", "props", "--no-property", "--property", "d=4")
    shown = ok(occli, "aggregate", "show", "props", "-f", "json")
    assert shown["properties"] == {"availability_zone": "pz", "d": "4"}
    # nova 2.96: metadata changes leave the stored updated_at null
    assert shown["updated_at"] is None


def test_property_errors(occli):
    agg = ok(occli, "aggregate", "create", "perr", "--zone", "ez", "-f", "json")
    empty = (
        "Cannot update metadata of aggregate %d. Reason: Aggregate perr "
        "does not support empty named availability zone. (HTTP 400)" % agg["id"]
    )
    assert fails(occli, "aggregate", "set", "perr", "--property", "availability_zone=") == empty
    assert fails(occli, "aggregate", "unset", "perr", "--property", "availability_zone") == empty
    assert "--property key 'bad/key' is not valid" in fails(
        occli, "aggregate", "set", "perr", "--property", "bad/key=1", code=2
    )
    assert "is longer than 255 characters" in fails(
        occli, "aggregate", "set", "perr", "--property", "k=" + "v" * 256, code=2
    )


def test_rename(occli):
    ok(occli, "aggregate", "create", "old-name")
    ok(occli, "aggregate", "create", "taken")
    assert (
        fails(occli, "aggregate", "set", "old-name", "--name", "taken")
        == "Aggregate taken already exists. (HTTP 409)"
    )
    ok(occli, "aggregate", "set", "old-name", "--name", "new-name", "--zone", "rz")
    shown = ok(occli, "aggregate", "show", "new-name", "-f", "json")
    assert shown["availability_zone"] == "rz"


# -- delete -------------------------------------------------------------------


def test_delete(occli):
    busy = ok(occli, "aggregate", "create", "busy", "-f", "json")
    ok(occli, "aggregate", "create", "idle")
    ok(occli, "aggregate", "add", "host", "busy", "host3")
    code, out, err = occli("aggregate", "delete", "busy", "idle", "ghost")
    assert code == 1
    assert (
        "Failed to delete aggregate busy: Cannot remove host from "
        "aggregate %d. Reason: Host aggregate is not empty. Remove its "
        "hosts first: occli aggregate remove host busy host3 (HTTP 400)" % busy["id"]
    ) in err
    assert (
        "Failed to delete aggregate ghost: No aggregate with a name or "
        "ID of 'ghost' exists." in err
    )
    names = [r["Name"] for r in ok(occli, "aggregate", "list", "-f", "json")]
    assert names == ["busy"]


# -- zones seen by the rest of nova ------------------------------------------------


def test_zone_shows_on_services_zones_and_servers(occli):
    ok(occli, "aggregate", "create", "london", "--zone", "london")
    ok(occli, "aggregate", "add", "host", "london", "host3")
    services = ok(occli, "compute", "service", "list", "--service", "nova-compute", "-f", "json")
    assert {s["Host"]: s["Zone"] for s in services} == {
        "host1": "nova",
        "host2": "nova",
        "host3": "london",
    }
    zones = ok(occli, "availability", "zone", "list", "-f", "json")
    assert {"Zone Name": "london", "Zone Status": "available"} in zones
    assert {"Zone Name": "nova", "Zone Status": "available"} in zones
    long = ok(occli, "availability", "zone", "list", "--long", "-f", "json")
    assert {
        "Zone Name": "london",
        "Zone Status": "available",
        "Zone Resource": "",
        "Host Name": "host3",
        "Service Name": "nova-compute",
        "Service Status": "enabled up",
    } in long
    server = boot(occli, "london")
    assert host_of(server) == "host3"
    assert server["OS-EXT-AZ:availability_zone"] == "london"
    listed = ok(occli, "server", "list", "--long", "-f", "json")
    assert [(s["Availability Zone"], s["Host"]) for s in listed] == [("london", "host3")]


def test_boot_into_unknown_or_empty_zone_fails(occli):
    assert "The requested availability zone is not available (HTTP 400)" in fails(
        occli,
        "server",
        "create",
        "vm",
        "--image",
        CIRROS,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--availability-zone",
        "nowhere",
    )
    # a zone exists only while an aggregate gives it to a host
    ok(occli, "aggregate", "create", "lonely", "--zone", "lonely")
    ok(occli, "aggregate", "add", "host", "lonely", "host1")
    ok(occli, "aggregate", "remove", "host", "lonely", "host1")
    assert "availability zone is not available" in fails(
        occli,
        "server",
        "create",
        "vm",
        "--image",
        CIRROS,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--availability-zone",
        "lonely",
    )


def _move(verb, before, after, count=1):
    """nova 34's reason for refusing to move a host's servers to another zone."""
    return (
        "The host cannot be %s the aggregate as the availability zone of the host would change"
        " from '%s' to '%s' but the host already has %d instance(s). Changing the AZ of an"
        " existing instance is not supported by this action. Move the instances away from this"
        " host then try again. If you need to move the instances between AZs then you can use"
        " shelve_offload and unshelve to achieve this." % (verb, before, after, count)
    )


def test_hosts_with_servers_cannot_change_zone(occli):
    agg = ok(occli, "aggregate", "create", "pinned", "--zone", "pinned", "-f", "json")
    ok(occli, "aggregate", "add", "host", "pinned", "host2")
    server = boot(occli, "pinned")
    assert host_of(server) == "host2"
    assert fails(occli, "aggregate", "remove", "host", "pinned", "host2") == (
        "Cannot remove host from aggregate %d. Reason: %s. (HTTP 409)"
        % (agg["id"], _move("removed from", "pinned", "None"))
    )
    renamed = (
        "Cannot update aggregate %d. Reason: One or more hosts "
        "contain instances in this zone. (HTTP 400)" % agg["id"]
    )
    assert fails(occli, "aggregate", "set", "pinned", "--zone", "moved") == renamed
    assert "contain instances in this zone" in fails(
        occli, "aggregate", "set", "pinned", "--property", "availability_zone=moved"
    )
    other = ok(occli, "aggregate", "create", "other-zone", "--zone", "other", "-f", "json")
    # host1 runs a server in the default zone: it cannot join a zone
    default = boot(occli, "nova", name="vm-default")
    assert fails(occli, "aggregate", "add", "host", "other-zone", host_of(default)) == (
        "Cannot add host to aggregate %d. Reason: %s. (HTTP 409)"
        % (other["id"], _move("added to", "None", "other"))
    )
    # once the servers are gone the moves are allowed
    ok(occli, "server", "delete", server["id"], default["id"], "--wait")
    ok(occli, "aggregate", "set", "pinned", "--zone", "moved")
    ok(occli, "aggregate", "remove", "host", "pinned", "host2")


def test_cache_image(occli):
    ok(occli, "aggregate", "create", "cache")
    assert ok(occli, "aggregate", "cache", "image", "cache", CIRROS) == ""
    assert (
        fails(occli, "aggregate", "cache", "image", "cache", CIRROS, CIRROS)
        == "Duplicate images in request (HTTP 400)"
    )
    assert fails(
        occli, "--os-compute-api-version", "2.80", "aggregate", "cache", "image", "cache", CIRROS
    ) == (
        "Caching images on an aggregate requires compute API version 2.81 "
        "or later (in use: 2.80); change --os-compute-api-version."
    )
    assert (
        fails(occli, "aggregate", "cache", "image", "cache", "no-image")
        == "No image with a name or ID of 'no-image' exists. (HTTP 404)"
    )
