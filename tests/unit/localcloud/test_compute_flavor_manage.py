"""Flavor-manage, extra specs and flavor access in the local nova (what
the replay of the real nova's answers, test_compute_realcloud_replay.py,
does not reach): visibility everywhere a flavor is named, deletion,
nova's extra spec validation, upgrades of an existing database."""

import pytest

from occli.localcloud.compute import extra_specs
from occli.localcloud.compute import flavors
from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault


def create(nova, version="2.96", expect=200, **flavor):
    flavor.setdefault("name", "f-%s" % flavor.get("id", "auto"))
    for key, value in (("ram", 512), ("vcpus", 1), ("disk", 1)):
        flavor.setdefault(key, value)
    result = nova.post("/flavors", {"flavor": flavor}, user="admin", version=version)
    assert result.status == expect, result.body
    return result.json()["flavor"] if expect == 200 else result


def private(nova, flavor_id="priv", **flavor):
    return create(
        nova, id=flavor_id, name=flavor_id, **{"os-flavor-access:is_public": False}, **flavor
    )


def grant(nova, flavor_id, project, action="addTenantAccess", version="2.96"):
    return nova.post(
        "/flavors/%s/action" % flavor_id,
        {action: {"tenant": project}},
        user="admin",
        version=version,
    )


def ids(result):
    return [f["id"] for f in result.json()["flavors"]]


@pytest.mark.parametrize("version", ["2.55", "2.61", "2.75"])
def test_create_answers_like_the_upstream_samples(nova, version):
    sample = load_fixture(
        "compute", "flavor-manage", "v" + version, "flavor-create-post-resp.json"
    )
    request = load_fixture(
        "compute", "flavor-manage", "v" + version, "flavor-create-post-req.json"
    )
    result = nova.post("/flavors", request, user="admin", version=version)
    assert result.status == 200, result.body
    assert_same_shape(result.json(), sample)
    assert result.json()["flavor"]["id"] == request["flavor"]["id"]
    update = load_fixture("compute", "flavor-manage", "v" + version, "flavor-update-req.json")
    updated = nova.put(
        "/flavors/" + request["flavor"]["id"], update, user="admin", version=version
    )
    assert_same_shape(
        updated.json(),
        load_fixture("compute", "flavor-manage", "v" + version, "flavor-update-resp.json"),
    )
    assert updated.json()["flavor"]["description"] == update["flavor"]["description"]


def test_extra_specs_and_access_like_the_upstream_samples(nova):
    private(nova, "10")
    sample = load_fixture("compute", "flavor-extra-specs", "flavor-extra-specs-create-req.json")
    created = nova.post("/flavors/10/os-extra_specs", sample, user="admin")
    assert created.json() == load_fixture(
        "compute", "flavor-extra-specs", "flavor-extra-specs-create-resp.json"
    )
    assert nova.get("/flavors/10/os-extra_specs", user="admin").json() == load_fixture(
        "compute", "flavor-extra-specs", "flavor-extra-specs-list-resp.json"
    )
    key = next(
        iter(load_fixture("compute", "flavor-extra-specs", "flavor-extra-specs-get-resp.json"))
    )
    assert nova.get("/flavors/10/os-extra_specs/" + key, user="admin").json() == load_fixture(
        "compute", "flavor-extra-specs", "flavor-extra-specs-get-resp.json"
    )
    request = load_fixture("compute", "flavor-access", "flavor-access-add-tenant-req.json")
    request["addTenantAccess"]["tenant"] = nova.project_id("demo")
    added = nova.post("/flavors/10/action", request, user="admin")
    assert_same_shape(
        added.json(),
        load_fixture("compute", "flavor-access", "flavor-access-add-tenant-resp.json"),
    )
    assert_same_shape(
        nova.get("/flavors/10/os-flavor-access", user="admin").json(),
        load_fixture("compute", "flavor-access", "flavor-access-list-resp.json"),
    )


def test_a_private_flavor_is_found_only_with_access(nova):
    demo = nova.project_id("demo")
    private(nova)
    assert "priv" not in ids(nova.get("/flavors"))
    assert nova.get("/flavors/priv/os-extra_specs").status == 404
    # admins see it only when asking for private or all flavors (nova)
    assert "priv" not in ids(nova.get("/flavors", user="admin"))
    assert "priv" in ids(nova.get("/flavors?is_public=false", user="admin"))
    # a member's is_public is ignored
    assert "priv" not in ids(nova.get("/flavors?is_public=none"))
    assert grant(nova, "priv", demo).status == 200
    assert "priv" in ids(nova.get("/flavors/detail"))
    assert nova.get("/flavors/priv").status == 200
    assert nova.get("/flavors/priv/os-extra_specs").json() == {"extra_specs": {}}
    # a project with access: the admin's default list too (nova)
    grant(nova, "priv", nova.project_id("admin"))
    assert "priv" in ids(nova.get("/flavors", user="admin"))
    server = nova.create(flavorRef="priv")
    assert nova.show(server, version="2.47")["flavor"]["original_name"] == "priv"
    grant(nova, "priv", demo, "removeTenantAccess")
    result = nova.post(
        "/servers", {"server": {"name": "x", "flavorRef": "priv", "imageRef": CIRROS}}
    )
    assert fault(result) == ("badRequest", 400, "Flavor priv could not be found.")
    resized = nova.action(server, {"resize": {"flavorRef": "priv"}})
    assert fault(resized)[1:] == (400, "Flavor priv could not be found.")
    # the server keeps running on it
    assert nova.show(server)["status"] == "ACTIVE"


def test_an_inaccessible_flavor_is_refused_before_the_image(nova):
    """No oracle: with a bad image too, a private flavor answers as a
    missing one."""
    private(nova)
    for flavor_ref in ("priv", "missing"):
        result = nova.post(
            "/servers",
            {
                "server": {
                    "name": "x",
                    "flavorRef": flavor_ref,
                    "imageRef": "3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c",
                }
            },
        )
        assert fault(result)[2] == "Flavor %s could not be found." % flavor_ref


def test_zero_disk_flavors_boot_only_volume_backed_for_members(nova):
    create(nova, id="zero", name="zero", disk=0)
    result = nova.post(
        "/servers", {"server": {"name": "x", "flavorRef": "zero", "imageRef": CIRROS}}
    )
    assert fault(result) == (
        "forbidden",
        403,
        "Only volume-backed servers are allowed for flavors with zero disk.",
    )
    assert nova.create(user="admin", flavorRef="zero")
    assert nova.create(
        flavorRef="zero",
        imageRef="",
        block_device_mapping_v2=[
            {
                "boot_index": 0,
                "uuid": CIRROS,
                "source_type": "image",
                "volume_size": 1,
                "destination_type": "volume",
            }
        ],
    )


def test_delete_keeps_servers_and_frees_the_id(nova):
    private(nova)
    grant(nova, "priv", nova.project_id("demo"))
    nova.post("/flavors/priv/os-extra_specs", {"extra_specs": {"k": "v"}}, user="admin")
    server = nova.create(flavorRef="priv")
    assert nova.delete("/flavors/priv", user="admin").status == 202
    assert nova.get("/flavors/priv", user="admin").status == 404
    shown = nova.show(server, version="2.47")
    assert shown["flavor"]["original_name"] == "priv"
    assert shown["flavor"]["extra_specs"] == {"k": "v"}
    # nova rebuilds from the server's own copy of the flavor
    rebuilt = nova.action(server, {"rebuild": {"imageRef": CIRROS}})
    assert rebuilt.status == 202, rebuilt.body
    # the id and name are free again, without the old specs and access
    again = private(nova, version="2.61")
    assert again["extra_specs"] == {}
    assert nova.get("/flavors/priv/os-flavor-access", user="admin").json() == {"flavor_access": []}


def test_create_defaults_and_ids(nova):
    auto = create(nova, version="2.1", name="auto", id=None)
    assert len(auto["id"]) == 36 and auto["swap"] == ""
    assert auto["os-flavor-access:is_public"] is True
    assert auto["rxtx_factor"] == 1.0
    numbered = create(
        nova, name="n", id=42, swap=512, **{"OS-FLV-EXT-DATA:ephemeral": 5, "rxtx_factor": "2.5"}
    )
    assert (
        numbered["id"],
        numbered["swap"],
        numbered["OS-FLV-EXT-DATA:ephemeral"],
        numbered["rxtx_factor"],
    ) == ("42", 512, 5, 2.5)
    described = create(nova, name="d", description="for tests", version="2.55")
    assert described["description"] == "for tests"
    # 2.1 to 2.54: no description
    assert (
        "description"
        in create(nova, name="old", description="x", version="2.54", expect=400).json()[
            "badRequest"
        ]["message"]
    )


def test_sorting_and_paging(nova):
    for name, ram in (("b", 700), ("a", 600)):
        create(nova, id=name, name=name, ram=ram)
    assert ids(nova.get("/flavors?sort_key=name&sort_dir=desc")) == [
        "5",
        "1",
        "2",
        "3",
        "4",
        "b",
        "a",
    ]
    # nova's flavorid order is the text order; id / created_at: creation
    assert ids(nova.get("/flavors"))[:4] == ["1", "2", "3", "4"]
    assert ids(nova.get("/flavors?sort_key=created_at"))[-2:] == ["b", "a"]
    assert ids(nova.get("/flavors?sort_key=memory_mb&minRam=600")) == [
        "a",
        "b",
        "2",
        "3",
        "4",
        "5",
    ]
    page = nova.get("/flavors?sort_key=id&limit=6").json()
    assert "marker=b" in page["flavors_links"][0]["href"]
    assert ids(nova.get("/flavors?sort_key=id&marker=b")) == ["a"]


def test_extra_spec_rules_from_2_86(nova):
    private(nova, "x")

    def put(specs, version="2.86"):
        return nova.post(
            "/flavors/x/os-extra_specs", {"extra_specs": specs}, user="admin", version=version
        )

    assert (
        put(
            {
                "hw:numa_nodes": "2",
                "hw:numa_cpus.0": "0-1,^1",
                "hw:mem_page_size": "2MB",
                "trait:HW_CPU_X86_AVX": "required",
                "resources:VCPU": "2",
                "custom:anything": "x",
                "plain": 5,
            }
        ).status
        == 200
    )
    for specs, message in (
        ({"hw:numa_nodes": "x"}, "'x' is not a valid integer value."),
        ({"hw:numa_nodes": "0"}, "'0' is less than the min value of '1'."),
        ({"hw:cpu_policy": "bogus"}, "'bogus' is not one of: dedicated, shared, mixed."),
        ({"hw:boot_menu": "perhaps"}, "'perhaps' is not a valid boolean-like value."),
        (
            {"hw:numa_cpus.0": "a"},
            "'a' is not of the format '\\^?\\d+((-\\d+)?(,\\^?\\d+(-\\d+)?)?)*'.",
        ),
        ({"hw:nope": "1"}, "extra spec 'hw:nope' does not appear to be a valid extra spec."),
    ):
        result = put(specs)
        assert fault(result) == ("badRequest", 400, "Validation failed; " + message), specs
        # before 2.86 anything goes
        assert put(specs, version="2.85").status == 200
    # a nested-quantifier pattern of nova's, against a long bad value:
    # RE2 answers at once
    assert put({"hw:cpu_realtime_mask": "1" * 250 + "x"}).status == 400


def test_extra_specs_registry_matches_nova():
    """A few of nova's validators, as data: exact names, patterns, and the
    namespaces it polices."""
    extra_specs.validate("hw:cpu_policy", "dedicated")
    extra_specs.validate("quota:cpu_shares", 10)
    extra_specs.validate("aggregate_instance_extra_specs:ssd", "true")
    extra_specs.validate("vendor:whatever", "x")
    for name in ("hw_rng:nope", "resources1:NOT_A_CLASS", "os:nope"):
        with pytest.raises(Exception, match="does not appear"):
            extra_specs.validate(name, "1")


def test_access_needs_an_admin_and_a_private_flavor(nova):
    private(nova)
    demo = nova.project_id("demo")
    assert fault(nova.get("/flavors/priv/os-flavor-access"))[1:] == (
        403,
        "Policy doesn't allow os_compute_api:os-flavor-access to be performed.",
    )
    result = nova.post("/flavors/priv/action", {"removeTenantAccess": {"tenant": demo}})
    assert fault(result)[1:] == (
        403,
        "Policy doesn't allow os_compute_api:"
        "os-flavor-access:remove_tenant_access to "
        "be performed.",
    )
    assert nova.post("/flavors/priv/action", {"a": {}, "b": {}}, user="admin").status == 400
    # before 2.7 access could be given to a public flavor (nova stores it)
    assert grant(nova, "1", demo).status == 409
    assert grant(nova, "1", demo, version="2.6").status == 200


def test_internal_ids_also_for_rows_inserted_directly(nova):
    with nova.cloud.store.transaction() as db:
        db.execute(
            "INSERT INTO compute_flavors (id, name, memory_mb, vcpus,"
            " root_gb) VALUES ('raw', 'raw', 1, 1, 1)"
        )
        seqs = [r[0] for r in db.execute("SELECT seq FROM compute_flavors ORDER BY seq")]
    assert seqs == [1, 2, 3, 4, 5, 6]
    assert flavors.SORT_KEYS["created_at"] == "seq"


def test_upgrade_of_a_database_without_flavor_access(tmp_path):
    """A data directory written before this step keeps its flavors and
    gets their internal ids in creation order."""
    from occli.localcloud.compute import migrations
    from occli.localcloud.store import Store

    store = Store(str(tmp_path / "cloud.db"))
    store.migrate("compute.flavors", migrations.FLAVORS[:1])
    with store.transaction() as db:
        flavors.seed(db)
    store.migrate("compute.flavors", migrations.FLAVORS)
    with store.read() as db:
        rows = db.execute("SELECT id, seq FROM compute_flavors ORDER BY seq").fetchall()
        assert [tuple(r) for r in rows] == [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5)]
        assert db.execute("SELECT COUNT(*) FROM compute_flavor_projects").fetchone()[0] == 0
    store.close()
