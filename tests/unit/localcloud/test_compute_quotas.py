"""os-quota-sets, os-quota-class-sets, /limits and the quota checks of the
local nova: shapes from the upstream samples, statuses and texts from what
real nova 34 answered (``nova_quota_recording``)."""

import pytest

from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.nova_quota_recording import message

SETS = "/os-quota-sets/"
CLASSES = "/os-quota-class-sets/"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M quota"


def sample(folder, version, name):
    parts = ("compute", folder) + (() if version in ("2.1", None) else ("v" + version,)) + (name,)
    return load_fixture(*parts)


def set_quota(nova, project, version="2.57", **values):
    result = nova.put(SETS + project, {"quota_set": values}, user="admin", version=version)
    assert result.status == 200, result.body
    return result.json()["quota_set"]


def same(result, expected, real_id=None, local_id=None):
    """The local answer is the recorded ``(status, fault, message)``."""
    status, name, text = expected
    if real_id:
        text = text.replace(real_id, local_id)
    assert fault(result) == (name, status, text)


@pytest.fixture
def demo(nova):
    return nova.project_id("demo")


@pytest.fixture
def admin_project(nova):
    return nova.project_id("admin")


def live(nova):
    with nova.cloud.store.read() as db:
        return db.execute("SELECT COUNT(*) FROM servers WHERE deleted = 0").fetchone()[0]


# -- shapes -------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2.1", "2.36", "2.57"])
def test_quota_set_bodies_have_the_samples_shape(nova, demo, version):
    for path, name in (
        ("", "quotas-show-get-resp.json"),
        ("/detail", "quotas-show-detail-get-resp.json"),
        ("/defaults", "quotas-show-defaults-get-resp.json"),
    ):
        result = nova.get(SETS + demo + path, version=version)
        assert result.status == 200, result.body
        body = result.json()
        assert_same_shape(body, sample("os-quota-sets", version, name))
        assert body["quota_set"]["id"] == demo
    update = nova.put(
        SETS + demo,
        sample("os-quota-sets", version, "quotas-update-post-req.json"),
        user="admin",
        version=version,
    )
    assert update.status == 200, update.body
    assert_same_shape(
        update.json(), sample("os-quota-sets", version, "quotas-update-post-resp.json")
    )
    # the force sample ("force": "True") is taken too
    forced = nova.put(
        SETS + demo,
        sample("os-quota-sets", version, "quotas-update-force-post-req.json"),
        user="admin",
        version=version,
    )
    assert forced.status == 200, forced.body
    assert forced.json()["quota_set"]["instances"] == 45


@pytest.mark.parametrize("version", ["2.1", "2.50", "2.57"])
def test_quota_class_bodies_have_the_samples_shape(nova, version):
    shown = nova.get(CLASSES + "default", user="admin", version=version)
    assert shown.status == 200, shown.body
    assert_same_shape(
        shown.json(), sample("os-quota-class-sets", version, "quota-classes-show-get-resp.json")
    )
    assert shown.json()["quota_class_set"]["id"] == "default"
    update = nova.put(
        CLASSES + "gold",
        sample("os-quota-class-sets", version, "quota-classes-update-post-req.json"),
        user="admin",
        version=version,
    )
    assert update.status == 200, update.body
    assert update.json() == sample(
        "os-quota-class-sets", version, "quota-classes-update-post-resp.json"
    )


def test_the_defaults_and_the_default_class(nova, demo):
    values = nova.get(SETS + demo).json()["quota_set"]
    # nova's [quota] defaults (instances, cores and ram from Config)
    assert {
        k: values[k]
        for k in ("instances", "cores", "ram", "key_pairs", "metadata_items", "injected_files")
    } == {
        "instances": 10,
        "cores": 20,
        "ram": 51200,
        "key_pairs": 100,
        "metadata_items": 128,
        "injected_files": 5,
    }
    result = nova.put(
        CLASSES + "default", {"quota_class_set": {"instances": 7, "cores": 9}}, user="admin"
    )
    assert result.status == 200, result.body
    assert nova.get(SETS + demo + "/defaults").json()["quota_set"]["instances"] == 7
    assert nova.get(SETS + demo).json()["quota_set"]["cores"] == 9
    set_quota(nova, demo, cores=4)
    shown = nova.get(SETS + demo).json()["quota_set"]
    assert (shown["instances"], shown["cores"]) == (7, 4)
    limits = nova.get("/limits").json()["limits"]["absolute"]
    assert (limits["maxTotalInstances"], limits["maxTotalCores"]) == (7, 4)
    # another class is the configured defaults plus its own values
    other = nova.get(CLASSES + "silver", user="admin").json()
    assert other["quota_class_set"]["instances"] == 10


def test_config_quota_instances_is_the_default(tmp_path):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data", quota_instances=4, quota_cores=-1, quota_ram=1024)
    try:
        nova = Nova(cloud)
        demo = nova.project_id("demo")
        shown = nova.get(SETS + demo).json()["quota_set"]
        assert (shown["instances"], shown["cores"], shown["ram"]) == (4, -1, 1024)
        shown = nova.get(CLASSES + "default", user="admin").json()["quota_class_set"]
        assert (shown["instances"], shown["cores"], shown["ram"]) == (4, -1, 1024)
    finally:
        cloud.close()


# -- policies (real nova's answers) ---------------------------------------------


def test_policies_as_nova(nova, demo, admin_project):
    assert nova.get(SETS + demo).status == 200
    assert nova.get(SETS + demo + "/detail").status == 200
    same(
        nova.get(SETS + admin_project, version="2.57"),
        message("first", "GET", "/os-quota-sets/", caller="member@p", status=403),
    )
    # defaults: anybody, of any project (keystone refuses a member the
    # lookup, nova lets it through)
    assert nova.get(SETS + admin_project + "/defaults").status == 200
    assert nova.get(SETS + "0" * 32 + "/defaults").status == 200
    # an admin's unknown project is refused
    unknown = message("first", "GET", "=/os-quota-sets/" + "0" * 32)
    for path in ("", "/defaults", "/detail"):
        same(nova.get(SETS + "0" * 32 + path, user="admin", version="2.57"), unknown)
    # updates, deletes and classes are the admin's
    same(
        nova.put(SETS + demo, {"quota_set": {"instances": 2}}, version="2.57"),
        message("first", "PUT", "/os-quota-sets/{p}", caller="member@p"),
    )
    same(
        nova.delete(SETS + demo, version="2.57"),
        message("first", "DELETE", "/os-quota-sets/{p}", caller="member@p"),
    )
    same(
        nova.get(CLASSES + "default", version="2.57"),
        message("first", "GET", "/os-quota-class-sets/default", caller="member@p"),
    )
    same(
        nova.put(CLASSES + "gold", {"quota_class_set": {"instances": 7}}, version="2.57"),
        message("first", "PUT", "/os-quota-class-sets/", caller="member@p"),
    )
    # nothing changed
    assert nova.get(SETS + demo).json()["quota_set"]["instances"] == 10


# -- request checks (real nova's texts) --------------------------------------------


@pytest.mark.parametrize(
    "version, body, real",
    [
        ("2.57", {"injected_files": 2}, ("2.57", "injected_files")),
        ("2.36", {"floating_ips": 2}, ("2.36", "floating_ips")),
        ("2.1", {"networks": 2}, ("2.1", "networks")),
        ("2.1", {"instances": -2}, ("2.1", '"instances": -2')),
        ("2.1", {"instances": "-5"}, ("2.1", '"instances": "-5"')),
    ],
)
def test_bodies_nova_refuses(nova, demo, version, body, real):
    result = nova.put(SETS + demo, {"quota_set": body}, user="admin", version=version)
    same(
        result,
        message(
            "first", "PUT", "/os-quota-sets/{p}", version=real[0], body_part=real[1], status=400
        ),
    )
    # checked before the policy, as nova's schema
    assert nova.put(SETS + demo, {"quota_set": body}, version=version).status == 400


def test_a_number_beyond_nova_s_database_is_refused(nova, demo):
    for value in (2**31, str(2**31), "9" * 30):
        result = nova.put(SETS + demo, {"quota_set": {"cores": value}}, user="admin")
        assert result.status == 400
        assert "is greater than the maximum of 2147483647" in fault(result)[2]


def test_class_bodies_nova_refuses(nova):
    same(
        nova.put(
            CLASSES + "gold",
            {"quota_class_set": {"injected_files": 7}},
            user="admin",
            version="2.57",
        ),
        message(
            "first", "PUT", "/os-quota-class-sets/", version="2.57", body_part="injected_files"
        ),
    )
    same(
        nova.put(
            CLASSES + "x" * 256,
            {"quota_class_set": {"instances": 7}},
            user="admin",
            version="2.57",
        ),
        message("first", "PUT", "/os-quota-class-sets/xxxx", version="2.57"),
    )
    # before 2.50 server groups are settable in a class, but not shown
    result = nova.put(
        CLASSES + "gold", {"quota_class_set": {"server_groups": 7}}, user="admin", version="2.49"
    )
    assert result.status == 200, result.body
    assert "server_groups" not in result.json()["quota_class_set"]
    assert (
        nova.get(CLASSES + "gold", user="admin", version="2.57").json()["quota_class_set"][
            "server_groups"
        ]
        == 7
    )


def test_unknown_query_parameters_from_2_75(nova, demo):
    same(nova.get(SETS + demo + "?bogus=1", version="2.75"), message("first", "GET", "?bogus=1"))
    assert nova.get(SETS + demo + "?bogus=1", version="2.74").status == 200


def test_network_quotas_before_2_36(nova, demo):
    set_quota(nova, demo, version="2.35", floating_ips=7)
    assert nova.get(SETS + demo, version="2.35").json()["quota_set"]["floating_ips"] == 7
    assert "floating_ips" not in nova.get(SETS + demo, version="2.36").json()["quota_set"]
    limits = nova.get("/limits", version="2.1").json()["limits"]["absolute"]
    assert limits["maxTotalFloatingIps"] == 7


def test_per_user_quotas_are_set_shown_and_deleted(nova, demo):
    set_quota(nova, demo, instances=5)
    with nova.cloud.store.read() as db:
        user = nova.cloud.identity.user_id(db, "demo")
    assert nova.get(SETS + demo + "?user_id=" + user).json()["quota_set"]["instances"] == 5
    result = nova.put(
        SETS + demo + "?user_id=" + user, {"quota_set": {"instances": 1}}, user="admin"
    )
    assert result.status == 200
    assert nova.get(SETS + demo + "?user_id=" + user).json()["quota_set"]["instances"] == 1
    assert nova.delete(SETS + demo + "?user_id=" + user, user="admin").status == 202
    assert nova.get(SETS + demo + "?user_id=" + user).json()["quota_set"]["instances"] == 5
    assert nova.get(SETS + demo).json()["quota_set"]["instances"] == 5


# -- update against usage, delete -----------------------------------------------------


def test_a_limit_below_the_usage_needs_force(nova, demo):
    nova.create(max_count=2)
    result = nova.put(SETS + demo, {"quota_set": {"instances": 1}}, user="admin", version="2.57")
    status, name, text = message(
        "first", "PUT", "/os-quota-sets/{p}", body_part='{"instances": 1}'
    )
    assert fault(result) == (name, status, text.replace("5.", "2."))
    assert nova.get(SETS + demo).json()["quota_set"]["instances"] == 10
    forced = set_quota(nova, demo, instances=1, force=True)
    assert forced["instances"] == 1
    detail = nova.get(SETS + demo + "/detail").json()["quota_set"]
    assert detail["instances"] == {"limit": 1, "in_use": 2, "reserved": 0}


def test_delete_reverts_to_the_defaults(nova, demo):
    set_quota(nova, demo, instances=3, key_pairs=1)
    result = nova.delete(SETS + demo, user="admin", version="2.57")
    assert (result.status, result.body) == (202, b"")
    values = nova.get(SETS + demo).json()["quota_set"]
    assert (values["instances"], values["key_pairs"]) == (10, 100)


# -- enforcement --------------------------------------------------------------------------


def test_create_is_trimmed_to_the_cores_headroom(nova, demo):
    # real nova: cores 3, a 2-vCPU flavor, max_count 3: one server, its
    # name without a suffix
    set_quota(nova, demo, instances=10, cores=3)
    nova.create(name="wide", flavorRef="3", max_count=3)
    names = [s["name"] for s in nova.get("/servers").json()["servers"]]
    assert names == ["wide"]


def test_create_over_cores_and_instances_names_both(nova, demo):
    nova.create(max_count=2)  # 2 × m1.tiny: 2 cores
    set_quota(nova, demo, instances=2, cores=3)
    result = nova.create(name="more", flavorRef="3", max_count=3, expect=403)
    status, name, text = message("first", "POST", "/servers", body_part="q12-c")
    assert (status, name) == (403, "forbidden")
    assert text == (
        "Quota exceeded for cores, instances: Requested 6, 1-3, "
        "but already used 5, 5 of 3, 2 cores, instances"
    )
    assert fault(result) == (name, status, text.replace("5, 5", "2, 2"))
    assert live(nova) == 2


def test_unlimited_instances_leave_no_headroom_to_trim_to(nova, demo):
    # nova's get_headroom: instances -1 gives a negative headroom, so a
    # create over cores is refused rather than trimmed
    nova.create(flavorRef="3")  # 2 cores
    set_quota(nova, demo, instances=-1, cores=3)
    result = nova.create(name="b", max_count=3, expect=403)
    same(result, message("second", "POST", "/servers", body_part="q12b-b"))
    assert live(nova) == 1


def test_ram_headroom_trims_too(nova, demo):
    set_quota(nova, demo, instances=5, ram=5000)
    nova.create(flavorRef="2")  # 2048 MB
    nova.create(name="c", flavorRef="2", max_count=4)
    assert live(nova) == 2
    result = nova.create(name="d", flavorRef="2", min_count=2, max_count=3, expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for ram: Requested 6144, but already used 4096 of 5000 ram"
    )


def test_quotas_are_per_project(nova, demo):
    set_quota(nova, demo, instances=1)
    nova.create()
    nova.create(user="admin", max_count=3)
    assert nova.create(expect=403)
    assert live(nova) == 4


def test_resize_over_cores_is_refused_like_nova(nova, demo):
    server = nova.create(flavorRef="3")  # m1.medium: 2 vCPUs
    set_quota(nova, demo, cores=3)
    result = nova.action(server, {"resize": {"flavorRef": "4"}}, version="2.57")
    same(result, message("second", "POST", "/action", status=403))
    shown = nova.show(server, version="2.57")
    assert (shown["status"], shown["flavor"]["vcpus"]) == ("ACTIVE", 2)
    # growing within the quota is fine
    set_quota(nova, demo, cores=4)
    assert nova.action(server, {"resize": {"flavorRef": "4"}}).status == 202


def test_reverting_a_downsize_is_checked(nova, demo):
    with nova.cloud.store.transaction() as db:
        db.execute(
            "INSERT INTO compute_flavors (id, name, memory_mb, vcpus,"
            " root_gb) VALUES ('narrow', 'narrow', 4096, 1, 40)"
        )
    server = nova.create(flavorRef="3")
    assert nova.action(server, {"resize": {"flavorRef": "narrow"}}).status == 202
    assert nova.show(server)["status"] == "VERIFY_RESIZE"
    set_quota(nova, demo, cores=1)
    result = nova.action(server, {"revertResize": None})
    assert fault(result) == (
        "forbidden",
        403,
        "Quota exceeded for cores: Requested 1, but already used 1 of 1 cores",
    )
    assert nova.show(server)["status"] == "VERIFY_RESIZE"
    assert nova.action(server, {"confirmResize": None}).status == 204


def test_metadata_items_are_counted(nova, demo):
    server = nova.create()
    set_quota(nova, demo, metadata_items=1)
    same(
        nova.post(
            "/servers/%s/metadata" % server, {"metadata": {"a": "1", "b": "2"}}, version="2.57"
        ),
        message("second", "POST", "/metadata"),
    )
    assert nova.put("/servers/%s/metadata/a" % server, {"meta": {"a": "1"}}).status == 200
    same(
        nova.put("/servers/%s/metadata/b" % server, {"meta": {"b": "2"}}),
        message("second", "PUT", "/metadata/b"),
    )
    same(
        nova.create(name="m", metadata={"a": "1", "b": "2"}, expect=403),
        message("second", "POST", "/servers", body_part="q12b-m"),
    )
    # deleting an item is never refused, even over the quota
    set_quota(nova, demo, metadata_items=0, force=True)
    assert nova.delete("/servers/%s/metadata/a" % server).status == 204


@pytest.mark.parametrize(
    "files, marker",
    [
        ([{"path": "/a", "contents": "YQ=="}, {"path": "/b", "contents": "Yg=="}], "/b"),
        ([{"path": "/abcdef", "contents": "YWJjZA=="}], "/abcdef"),
        ([{"path": "/ab", "contents": "YWJjZA=="}], '"/ab"'),
    ],
)
def test_injected_files_are_counted(nova, demo, files, marker):
    set_quota(
        nova,
        demo,
        version="2.56",
        injected_files=1,
        injected_file_path_bytes=5,
        injected_file_content_bytes=3,
    )
    result = nova.create(name="p", personality=files, version="2.56", expect=403)
    same(result, message("second", "POST", "/servers", version="2.56", body_part=marker))


def test_key_pairs_are_counted_per_user(nova, demo):
    set_quota(nova, demo, key_pairs=1)
    first = nova.post(
        "/os-keypairs", {"keypair": {"name": "k1", "public_key": SSH_KEY}}, version="2.57"
    )
    assert first.status == 201, first.body
    same(
        nova.post(
            "/os-keypairs", {"keypair": {"name": "k2", "public_key": SSH_KEY}}, version="2.57"
        ),
        message("second", "POST", "/os-keypairs", status=403),
    )
    # as in nova, the detail never counts key pairs
    detail = nova.get(SETS + demo + "/detail").json()["quota_set"]
    assert detail["key_pairs"] == {"limit": 1, "in_use": 0, "reserved": 0}


# -- /limits --------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2.1", "2.36", "2.39", "2.57"])
def test_limits_follow_the_quotas(nova, demo, version):
    set_quota(nova, demo, instances=4, cores=5, ram=4096, metadata_items=3)
    nova.create()
    body = nova.get("/limits", version=version).json()
    assert_same_shape(body, sample("limits", version, "limit-get-resp.json"))
    absolute = body["limits"]["absolute"]
    assert (
        absolute["maxTotalInstances"],
        absolute["maxTotalCores"],
        absolute["maxTotalRAMSize"],
        absolute["maxServerMeta"],
        absolute["totalInstancesUsed"],
        absolute["totalCoresUsed"],
        absolute["totalRAMUsed"],
    ) == (4, 5, 4096, 3, 1, 1, 512)
    assert body["limits"]["rate"] == []


def test_limits_of_another_project(nova, demo):
    same(
        nova.get("/limits?tenant_id=" + demo, version="2.57"),
        message("first", "GET", "/limits?tenant_id={p}", caller="member@p"),
    )
    set_quota(nova, demo, instances=6)
    other = nova.get("/limits?tenant_id=" + demo, user="admin").json()
    assert other["limits"]["absolute"]["maxTotalInstances"] == 6
    unknown = nova.get("/limits?tenant_id=" + "0" * 32, user="admin").json()
    assert unknown["limits"]["absolute"]["totalInstancesUsed"] == 0


def test_limits_reserved_is_ignored_then_refused(nova):
    assert nova.get("/limits?reserved=1", version="2.74").status == 200
    same(
        nova.get("/limits?reserved=1", version="2.75"),
        message("first", "GET", "/limits?reserved=1", version="2.75"),
    )
