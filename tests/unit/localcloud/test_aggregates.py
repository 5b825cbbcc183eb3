"""Host aggregates of the local cloud: nova's rules (CONTRACT.md §3.10) and
the os-aggregates samples' shapes at 2.1, 2.41 and 2.81."""

import json
import os
import shutil

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.compute import aggregates
from occli.localcloud.compute.api.service import ComputeService
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image import images
from occli.localcloud.image.api.service import ImageService
from tests.shape import assert_same_shape
from tests.unit.localcloud.wsgi_client import Client

SAMPLES = os.path.join(
    os.path.dirname(__file__), os.pardir, os.pardir, "fixtures", "compute", "os-aggregates"
)
CIRROS = images.seed_image_id("cirros-0.6.2-x86_64-disk")
# the zone is a oneOf [az_name, null]: nova reports the oneOf (recorded in
# tests/fixtures/compute/realcloud/nova-34-fidelity-aggregate-zones.json)
AZ_COLON = (
    "Invalid input for field/attribute availability_zone. Value: a:b. "
    "'a:b' is not valid under any of the given schemas"
)

NAME_FORMAT = (
    "An invalid 'name' value was provided. The name must be: "
    "printable characters. Can not start or end with whitespace."
)


def sample(version, name):
    folder = SAMPLES if version == "2.1" else os.path.join(SAMPLES, "v" + version)
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


class Nova:
    """Compute API calls as ``admin`` (or ``demo``) at a microversion."""

    def __init__(self, cloud, tokens=None):
        self.http = Client(cloud)
        self.tokens = tokens or {
            user: self.http.token(
                user, scope={"project": {"name": user, "domain": {"id": "default"}}}
            )
            for user in ("admin", "demo")
        }

    def call(self, method, path, json=None, version="2.1", user="admin"):
        return self.http.request(
            method,
            "/compute/v2.1" + path,
            json=json,
            token=self.tokens[user],
            headers={"OpenStack-API-Version": "compute %s" % version},
        )

    def ok(self, method, path, json=None, status=200, **kw):
        result = self.call(method, path, json, **kw)
        assert result.status == status, result.body
        return result.json() if result.body else None

    def error(self, status, method, path, json=None, **kw):
        """The nova fault message of a call expected to fail with ``status``."""
        result = self.call(method, path, json, **kw)
        assert result.status == status, result.body
        (fault,) = result.json().values()
        assert fault["code"] == status
        return fault["message"]

    def create(self, name, zone=None, **kw):
        body = {"name": name}
        if zone is not None:
            body["availability_zone"] = zone
        return self.ok("POST", "/os-aggregates", {"aggregate": body}, **kw)["aggregate"]

    def action(self, agg_id, action, info, **kw):
        return self.call("POST", "/os-aggregates/%s/action" % agg_id, {action: info}, **kw)

    def add_host(self, agg_id, host):
        result = self.action(agg_id, "add_host", {"host": host})
        assert result.status == 200, result.body
        return result.json()["aggregate"]

    def boot(self, zone=None):
        server = {"name": "vm", "imageRef": CIRROS, "flavorRef": "1", "networks": "none"}
        if zone:
            server["availability_zone"] = zone
        created = self.ok("POST", "/servers", {"server": server}, status=202, version="2.96")[
            "server"
        ]
        return self.ok("GET", "/servers/" + created["id"], version="2.96")["server"]


SERVICES = [IdentityService, ComputeService, ImageService]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A migrated, seeded cloud database and valid tokens, made once."""
    data_dir = tmp_path_factory.mktemp("aggregates-template")
    c = LocalCloud(Config(data_dir=str(data_dir), build_time=0), services=SERVICES)
    tokens = Nova(c).tokens
    c.close()
    return data_dir, tokens


@pytest.fixture
def cloud(tmp_path, template):
    data_dir = tmp_path / "data"
    shutil.copytree(template[0], data_dir)
    c = LocalCloud(Config(data_dir=str(data_dir), build_time=0), services=SERVICES)
    yield c
    c.close()


@pytest.fixture
def nova(cloud, template):
    return Nova(cloud, template[1])


def host_of(server):
    return server["OS-EXT-SRV-ATTR:host"]


# -- policy and ids -----------------------------------------------------------


@pytest.mark.parametrize(
    "method, path, body, rule",
    [
        ("GET", "/os-aggregates", None, "index"),
        ("POST", "/os-aggregates", {"aggregate": {"name": "a"}}, "create"),
        ("GET", "/os-aggregates/1", None, "show"),
        ("PUT", "/os-aggregates/1", {"aggregate": {"name": "b"}}, "update"),
        ("DELETE", "/os-aggregates/1", None, "delete"),
        ("POST", "/os-aggregates/1/action", {"add_host": {"host": "host1"}}, "add_host"),
        ("POST", "/os-aggregates/1/action", {"remove_host": {"host": "host1"}}, "remove_host"),
        (
            "POST",
            "/os-aggregates/1/action",
            {"set_metadata": {"metadata": {"k": "v"}}},
            "set_metadata",
        ),
    ],
)
def test_members_are_forbidden(nova, method, path, body, rule):
    nova.create("a")
    assert nova.error(403, method, path, body, user="demo") == (
        "Policy doesn't allow os_compute_api:os-aggregates:%s to be performed." % rule
    )


def test_members_cannot_cache_images(nova):
    nova.create("a")
    assert nova.error(
        403,
        "POST",
        "/os-aggregates/1/images",
        {"cache": [{"id": CIRROS}]},
        version="2.81",
        user="demo",
    ) == ("Policy doesn't allow compute:aggregates:images to be performed.")


@pytest.mark.parametrize(
    "method, suffix, body",
    [
        ("GET", "", None),
        ("PUT", "", {"aggregate": {"name": "b"}}),
        ("DELETE", "", None),
        ("POST", "/action", {"set_metadata": {"metadata": {}}}),
    ],
)
@pytest.mark.parametrize("version", ["2.1", "2.41"])
def test_urls_take_the_integer_id_only(nova, method, suffix, body, version):
    agg = nova.create("a", version="2.41")
    assert nova.error(
        400, method, "/os-aggregates/%s%s" % (agg["uuid"], suffix), body, version=version
    ) == ("Invalid input received: id must be an integer")
    assert (
        nova.error(404, method, "/os-aggregates/42%s" % suffix, body, version=version)
        == "Aggregate 42 could not be found."
    )


def test_uuid_only_from_241(nova):
    created = nova.create("a")
    assert "uuid" not in created
    assert "uuid" not in nova.ok("GET", "/os-aggregates/1")["aggregate"]
    shown = nova.ok("GET", "/os-aggregates/1", version="2.41")["aggregate"]
    listed = nova.ok("GET", "/os-aggregates", version="2.41")["aggregates"]
    assert listed[0]["uuid"] == shown["uuid"]


# -- create, update, delete -------------------------------------------------


def test_create_answers_200_without_hosts_and_metadata(nova):
    created = nova.create("agg", "london")
    assert set(created) == {
        "availability_zone",
        "created_at",
        "deleted",
        "deleted_at",
        "id",
        "name",
        "updated_at",
    }
    assert (created["availability_zone"], created["deleted"], created["updated_at"]) == (
        "london",
        False,
        None,
    )
    shown = nova.ok("GET", "/os-aggregates/%d" % created["id"])["aggregate"]
    assert shown["hosts"] == [] and shown["metadata"] == {"availability_zone": "london"}
    assert nova.create("plain", None)["availability_zone"] is None
    null = nova.ok(
        "POST", "/os-aggregates", {"aggregate": {"name": "null-az", "availability_zone": None}}
    )["aggregate"]
    assert null["availability_zone"] is None


@pytest.mark.parametrize(
    "body, message",
    [
        ({"aggregate": {"name": ""}}, "Invalid input for field/attribute name. Value: . ''"),
        ({"aggregate": {"name": "x" * 256}}, "is too long"),
        ({"aggregate": {}}, "'name' is a required property"),
        (
            {"aggregate": {"name": "a", "bogus": 1}},
            "Additional properties are not allowed ('bogus' was unexpected)",
        ),
        (
            {"aggregate": {"name": " a"}},
            "An invalid 'name' value was provided. "
            "The name must be: printable characters. Can not start or end with "
            "whitespace.",
        ),
        ({"aggregate": {"name": "a", "availability_zone": "a:b"}}, AZ_COLON),
        ({"aggregate": {"name": "a", "availability_zone": ""}}, "''"),
    ],
)
def test_create_validation(nova, body, message):
    assert message in nova.error(400, "POST", "/os-aggregates", body)


def test_create_name_lengths_and_duplicates(nova):
    nova.create("x" * 255)
    nova.create("a")
    assert (
        nova.error(409, "POST", "/os-aggregates", {"aggregate": {"name": "a"}})
        == "Aggregate a already exists."
    )


def test_update_name_and_zone(nova):
    agg = nova.create("a")
    updated = nova.ok(
        "PUT", "/os-aggregates/1", {"aggregate": {"name": "b", "availability_zone": "z1"}}
    )["aggregate"]
    assert (updated["name"], updated["availability_zone"]) == ("b", "z1")
    assert updated["metadata"] == {"availability_zone": "z1"}
    assert updated["updated_at"] and agg["updated_at"] is None
    # the rename was saved; the zone change (metadata) only stamped the answer
    stored = nova.ok("GET", "/os-aggregates/1")["aggregate"]["updated_at"]
    assert stored and stored <= updated["updated_at"]


def test_zone_only_update_leaves_stored_updated_at_null(nova):
    """Real nova 34: PUT with only availability_zone answers an updated_at,
    a later GET shows null (tests/fixtures/compute/realcloud/
    nova-34-server-extras.json, aggregate_*)."""
    nova.create("a")
    answer = nova.ok("PUT", "/os-aggregates/1", {"aggregate": {"availability_zone": "z"}})
    assert answer["aggregate"]["updated_at"]
    assert nova.ok("GET", "/os-aggregates/1")["aggregate"]["updated_at"] is None


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"aggregate": {}}, 400, None),
        (
            {"aggregate": {"availability_zone": None}},
            400,
            "Cannot update aggregate 1. Reason: Aggregate a does not support empty "
            "named availability zone.",
        ),
        ({"aggregate": {"availability_zone": "a:b"}}, 400, AZ_COLON),
        ({"aggregate": {"name": "other"}}, 409, "Aggregate other already exists."),
        # the name has create's format: no stripping to "" or to another name
        ({"aggregate": {"name": "  "}}, 400, NAME_FORMAT),
        ({"aggregate": {"name": " b"}}, 400, NAME_FORMAT),
        ({"aggregate": {"name": "b\tc"}}, 400, NAME_FORMAT),
        ({"aggregate": {"name": ""}}, 400, None),
        (
            {"aggregate": {"availability_zone": "z2"}},
            400,
            "Cannot update aggregate 1. Reason: One or more hosts already in "
            "availability zone(s) ['z1'].",
        ),
    ],
)
def test_update_errors(nova, body, status, message):
    nova.create("a")
    nova.create("other", "z1")
    nova.add_host(1, "host1")
    nova.add_host(2, "host1")
    got = nova.error(status, "PUT", "/os-aggregates/1", body)
    if message:
        assert got == message
    # a failed update changes nothing
    assert nova.ok("GET", "/os-aggregates/1")["aggregate"]["name"] == "a"


def test_delete_needs_an_empty_aggregate(nova):
    nova.create("a")
    nova.add_host(1, "host1")
    assert nova.error(400, "DELETE", "/os-aggregates/1") == (
        "Cannot remove host from aggregate 1. Reason: Host aggregate is not empty."
    )
    nova.action(1, "remove_host", {"host": "host1"})
    result = nova.call("DELETE", "/os-aggregates/1")
    assert (result.status, result.body) == (200, b"")
    assert nova.ok("GET", "/os-aggregates")["aggregates"] == []
    assert nova.error(404, "DELETE", "/os-aggregates/1") == ("Aggregate 1 could not be found.")


# -- hosts --------------------------------------------------------------------


def test_add_host_returns_the_aggregate_with_hosts(nova):
    nova.create("a", "london")
    assert nova.add_host(1, "host1")["hosts"] == ["host1"]
    assert nova.add_host(1, "host2")["hosts"] == ["host1", "host2"]
    got = nova.ok("GET", "/os-aggregates/1")["aggregate"]
    assert got["hosts"] == ["host1", "host2"] and got["updated_at"] is None


@pytest.mark.parametrize("host", ["nosuch", "controller"])
def test_add_unknown_host_404(nova, host):
    nova.create("a")
    assert nova.error(404, "POST", "/os-aggregates/1/action", {"add_host": {"host": host}}) == (
        "Compute host %s could not be found." % host
    )


def test_add_host_to_unknown_aggregate_404(nova):
    assert (
        nova.error(404, "POST", "/os-aggregates/9/action", {"add_host": {"host": "host1"}})
        == "Aggregate 9 could not be found."
    )


def test_add_host_twice_409(nova):
    nova.create("a")
    nova.add_host(1, "host1")
    assert (
        nova.error(409, "POST", "/os-aggregates/1/action", {"add_host": {"host": "host1"}})
        == "Aggregate 1 already has host host1."
    )


def test_host_cannot_be_in_two_zones(nova):
    nova.create("london", "london")
    nova.create("paris", "paris")
    nova.create("no-zone")
    nova.create("london-too", "london")
    nova.add_host(1, "host1")
    assert nova.error(409, "POST", "/os-aggregates/2/action", {"add_host": {"host": "host1"}}) == (
        "Cannot add host to aggregate 2. Reason: One or more hosts already "
        "in availability zone(s) ['london']."
    )
    # aggregates without a zone, or with the same zone, are fine
    nova.add_host(3, "host1")
    nova.add_host(4, "host1")


def test_remove_host_errors_404(nova):
    nova.create("a")
    nova.add_host(1, "host1")
    for agg_id, host in (("1", "nosuch"), ("1", "host2"), ("7", "host1")):
        assert nova.error(
            404, "POST", "/os-aggregates/%s/action" % agg_id, {"remove_host": {"host": host}}
        ) == ("Cannot remove host %s in aggregate %s" % (host, agg_id))
    assert nova.action(1, "remove_host", {"host": "host1"}).json()["aggregate"]["hosts"] == []


@pytest.mark.parametrize(
    "body, message",
    [
        ({"add_host": {"host": "h1"}, "remove_host": {"host": "h1"}}, "Malformed request body"),
        ({"frobnicate": {}}, "There is no such action: frobnicate"),
        ({"add_host": {}}, "'host' is a required property"),
        ({"add_host": {"host": "bad/host"}}, "does not match"),
    ],
)
def test_action_body_errors(nova, body, message):
    nova.create("a")
    assert message in nova.error(400, "POST", "/os-aggregates/1/action", body)


# -- servers never change zone --------------------------------------------------


def _move(verb, before, after, count=1):
    """nova 34's reason for refusing to move a host's servers to another zone
    (compute/api.py ensure_no_instances_need_to_move_az_when_host_*)."""
    return (
        "The host cannot be %s the aggregate as the availability zone of the host would change"
        " from '%s' to '%s' but the host already has %d instance(s). Changing the AZ of an"
        " existing instance is not supported by this action. Move the instances away from this"
        " host then try again. If you need to move the instances between AZs then you can use"
        " shelve_offload and unshelve to achieve this." % (verb, before, after, count)
    )


def test_host_running_servers_cannot_move_zone(nova):
    nova.create("london", "london")
    nova.create("plain")
    nova.add_host(1, "host1")
    server = nova.boot("london")
    assert host_of(server) == "host1"
    assert server["OS-EXT-AZ:availability_zone"] == "london"
    assert nova.error(
        409, "POST", "/os-aggregates/1/action", {"remove_host": {"host": "host1"}}
    ) == "Cannot remove host from aggregate 1. Reason: %s." % _move(
        "removed from", "london", "None"
    )
    # an aggregate without a zone does not move it
    nova.add_host(2, "host1")
    nova.action(2, "remove_host", {"host": "host1"})
    # a server in the default zone pins its host there too
    other = nova.boot("nova")
    nova.create("paris", "paris")
    assert nova.error(
        409, "POST", "/os-aggregates/3/action", {"add_host": {"host": host_of(other)}}
    ) == "Cannot add host to aggregate 3. Reason: %s." % _move("added to", "None", "paris")


def test_zone_of_hosts_with_servers_cannot_be_renamed(nova):
    nova.create("london", "london")
    nova.add_host(1, "host1")
    nova.boot("london")
    message = "One or more hosts contain instances in this zone."
    assert nova.error(
        400,
        "POST",
        "/os-aggregates/1/action",
        {"set_metadata": {"metadata": {"availability_zone": "paris"}}},
    ) == ("Cannot update metadata of aggregate 1. Reason: " + message)
    assert nova.error(
        400, "PUT", "/os-aggregates/1", {"aggregate": {"availability_zone": "paris"}}
    ) == ("Cannot update aggregate 1. Reason: " + message)
    # the same name is no change
    nova.ok("PUT", "/os-aggregates/1", {"aggregate": {"availability_zone": "london"}})
    nova.action(1, "set_metadata", {"metadata": {"other": "x"}})


def test_giving_a_zone_to_hosts_with_servers_is_refused(nova):
    nova.create("plain")
    server = nova.boot()
    nova.add_host(1, host_of(server))
    assert "contain instances" in nova.error(
        400,
        "POST",
        "/os-aggregates/1/action",
        {"set_metadata": {"metadata": {"availability_zone": "z"}}},
    )


# -- metadata ---------------------------------------------------------------------


def test_set_metadata_merges_and_null_deletes(nova):
    nova.create("a", "london")
    first = nova.action(1, "set_metadata", {"metadata": {"k1": "v1", "k2": "v2", "e": ""}}).json()[
        "aggregate"
    ]
    # the answer carries nova's in-memory stamp; the aggregate row is unchanged
    assert first["updated_at"]
    assert nova.ok("GET", "/os-aggregates/1")["aggregate"]["updated_at"] is None
    second = nova.action(
        1, "set_metadata", {"metadata": {"k1": None, "k2": "new", "absent": None}}
    ).json()["aggregate"]
    assert second["metadata"] == {"availability_zone": "london", "k2": "new", "e": ""}
    assert second["availability_zone"] == "london"


@pytest.mark.parametrize(
    "metadata, message",
    [
        (
            {"availability_zone": None},
            "Cannot update metadata of aggregate 1. Reason: Aggregate a does not "
            "support empty named availability zone.",
        ),
        (
            {"availability_zone": ""},
            "Cannot update metadata of aggregate 1. Reason: Aggregate a does not "
            "support empty named availability zone.",
        ),
        (
            {"availability_zone": "paris"},
            "Cannot update metadata of aggregate 1. Reason: One or more hosts "
            "already in availability zone(s) ['london'].",
        ),
        ({"bad/key": "v"}, "does not match any of the regexes"),
        ({"": "v"}, "does not match any of the regexes"),
        ({"k" * 256: "v"}, "does not match any of the regexes"),
        ({"k": "v" * 256}, "is too long"),
        ({"k": 1}, "is not of type"),
    ],
)
def test_set_metadata_errors(nova, metadata, message):
    nova.create("a", "nova2")
    nova.create("b", "london")
    nova.add_host(2, "host1")
    nova.ok("PUT", "/os-aggregates/1", {"aggregate": {"availability_zone": "london"}})
    nova.add_host(1, "host1")
    got = nova.error(
        400, "POST", "/os-aggregates/1/action", {"set_metadata": {"metadata": metadata}}
    )
    assert message in got
    assert nova.ok("GET", "/os-aggregates/1")["aggregate"]["availability_zone"] == "london"


def test_metadata_keys_allow_nova_charset(nova):
    nova.create("a")
    key = "Az-09_:. x"
    got = nova.action(1, "set_metadata", {"metadata": {key: "v" * 255}})
    assert got.status == 200 and key in got.json()["aggregate"]["metadata"]


# -- images (2.81) ---------------------------------------------------------------


def test_cache_images(nova):
    nova.create("a")
    path = "/os-aggregates/1/images"
    body = {"cache": [{"id": CIRROS}]}
    assert nova.error(404, "POST", path, body, version="2.80") == (
        "The resource could not be found."
    )
    result = nova.call("POST", path, body, version="2.81")
    assert (result.status, result.body) == (202, b"")
    assert (
        nova.error(400, "POST", path, {"cache": [{"id": CIRROS}] * 2}, version="2.81")
        == "Duplicate images in request"
    )
    missing = "5e0bd41f-0a47-4c7c-9f1d-7d7b5f3c2b11"
    assert (
        nova.error(400, "POST", path, {"cache": [{"id": missing}]}, version="2.81")
        == "Image %s could not be found." % missing
    )
    assert (
        nova.error(404, "POST", "/os-aggregates/5/images", body, version="2.81")
        == "Aggregate 5 could not be found."
    )
    assert "Invalid input for field/attribute cache" in nova.error(
        400, "POST", path, {"cache": []}, version="2.81"
    )


# -- zones seen by the rest of nova --------------------------------------------------


def test_zone_helpers(cloud, nova):
    nova.create("london", "london")
    nova.add_host(1, "host2")
    with cloud.store.transaction() as db:
        assert aggregates.host_zone(db, "host2") == "london"
        assert aggregates.host_zone(db, "host1") == aggregates.DEFAULT_ZONE
        assert aggregates.hosts_in_zone(db, "london") == ["host2"]
        assert aggregates.hosts_in_zone(db, "nova") == ["host1", "host3"]
        assert aggregates.hosts_in_zone(db, "nowhere") == []


def test_zone_shows_in_services_zones_and_placement(nova):
    nova.create("london", "london")
    nova.add_host(1, "host2")
    services = nova.ok("GET", "/os-services?binary=nova-compute")["services"]
    assert {s["host"]: s["zone"] for s in services} == {
        "host1": "nova",
        "host2": "london",
        "host3": "nova",
    }
    zones = nova.ok("GET", "/os-availability-zone")["availabilityZoneInfo"]
    assert [z["zoneName"] for z in zones] == ["london", "nova"]
    detail = nova.ok("GET", "/os-availability-zone/detail")["availabilityZoneInfo"]
    assert list({z["zoneName"]: z for z in detail}["london"]["hosts"]) == ["host2"]
    for _ in range(2):
        server = nova.boot("london")
        assert host_of(server) == "host2"
        assert server["OS-EXT-AZ:availability_zone"] == "london"
    assert (
        nova.error(
            400,
            "POST",
            "/servers",
            {
                "server": {
                    "name": "vm",
                    "imageRef": CIRROS,
                    "flavorRef": "1",
                    "networks": "none",
                    "availability_zone": "nowhere",
                }
            },
            version="2.96",
        )
        == "The requested availability zone is not available"
    )


# -- fidelity: the os-aggregates samples ------------------------------------------------

RESPONSES = [
    ("aggregate-post-resp.json", "POST", "/os-aggregates", "aggregate-post-req.json"),
    ("aggregates-get-resp.json", "GET", "/os-aggregates/1", None),
    ("aggregates-list-get-resp.json", "GET", "/os-aggregates", None),
    (
        "aggregate-update-post-resp.json",
        "PUT",
        "/os-aggregates/1",
        "aggregate-update-post-req.json",
    ),
    (
        "aggregates-add-host-post-resp.json",
        "POST",
        "/os-aggregates/1/action",
        "aggregate-add-host-post-req.json",
    ),
    (
        "aggregates-metadata-post-resp.json",
        "POST",
        "/os-aggregates/1/action",
        "aggregate-metadata-post-req.json",
    ),
    (
        "aggregates-remove-host-post-resp.json",
        "POST",
        "/os-aggregates/1/action",
        "aggregate-remove-host-post-req.json",
    ),
]


@pytest.mark.parametrize("version", ["2.1", "2.41", "2.81"])
@pytest.mark.parametrize("resp, method, path, req", RESPONSES, ids=[r[0] for r in RESPONSES])
def test_responses_have_the_sample_shapes(nova, version, resp, method, path, req):
    if method != "POST" or path != "/os-aggregates":
        nova.create("agg", "london")
    if "remove-host" in resp or "list" in resp:
        nova.add_host(1, "host1")
    body = None
    if req:
        body = sample(version, req)
        for action in body.values():
            if "host" in action:
                action["host"] = "host1"  # the samples' hosts are not ours
    got = nova.ok(method, path, body, version=version)
    expected = sample(version, resp)
    assert_same_shape(got, expected)
    for key, value in got.items():  # nova's (alphabetical) key order too
        items = value if isinstance(value, list) else [value]
        assert [list(i) for i in items] == [
            list(i)
            for i in (expected[key] if isinstance(expected[key], list) else [expected[key]])
        ]


def test_images_request_sample_is_accepted(nova):
    nova.create("agg")
    body = sample("2.81", "aggregate-images-post-req.json")
    body["cache"][0]["id"] = CIRROS
    assert nova.call("POST", "/os-aggregates/1/images", body, version="2.81").status == 202
