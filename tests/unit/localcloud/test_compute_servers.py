"""Servers: create validation, lazy build, list filters and paging,
visibility, update and delete."""

import base64

import pytest

from occli.localcloud.compute import networks
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import UBUNTU
from tests.unit.localcloud.compute_harness import fault

PRIVATE = networks.PRIVATE_NETWORK_ID


def error(result):
    return result.status, fault(result)[2]


# -- create -------------------------------------------------------------------


def test_create_response_and_location(nova):
    made = nova.client.request(
        "POST",
        "/network/v2.0/security-groups",
        json={"security_group": {"name": "web"}},
        token=nova.tokens["demo"],
    )
    assert made.status == 201, made.body
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "web",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "adminPass": "s3cret",
                "security_groups": [{"name": "web"}],
            }
        },
    )
    assert result.status == 202
    server = result.json()["server"]
    assert set(server) == {"id", "links", "OS-DCF:diskConfig", "security_groups", "adminPass"}
    assert server["adminPass"] == "s3cret"
    assert server["security_groups"] == [{"name": "web"}]
    assert result.header("Location") == server["links"][0]["href"]
    shown = nova.show(server["id"])
    assert "adminPass" not in shown
    assert shown["security_groups"] == [{"name": "web"}]


def test_flavor_ref_may_be_integer_or_url(nova):
    for ref in (2, "http://x/compute/v2.1/flavors/3"):
        server = nova.show(nova.create(flavorRef=ref))
        assert server["flavor"]["id"] == str(ref)[-1]


@pytest.mark.parametrize(
    "server,message",
    [
        ({"flavorRef": "99"}, "Flavor 99 could not be found."),
        ({"imageRef": "3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c"}, "Can not find requested image"),
        ({"imageRef": None}, None),
        ({"key_name": "nope"}, "Invalid key_name provided."),
        ({"min_count": 3, "max_count": 2}, "min_count must be <= max_count"),
        ({"name": " padded"}, None),
        ({"name": ""}, None),
        ({"metadata": {"k": "v" * 256}}, None),
        ({"metadata": {"k" * 256: "v"}}, None),
        ({"metadata": {"bad/key": "v"}}, None),
        ({"user_data": "not base64!"}, None),
        (
            {"networks": [{"uuid": "3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c"}]},
            "Network 3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c could not be found.",
        ),
        (
            {"networks": [{"port": "3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c"}]},
            "Port id 3c3b6a3e-0c4e-4c4e-9f4f-0c0c0c0c0c0c could not be found.",
        ),
        ({"availability_zone": "mars"}, "The requested availability zone is not available"),
        ({"unknown": 1}, None),
    ],
)
def test_create_bad_request(nova, server, message):
    body = {"name": "vm", "flavorRef": "1", "imageRef": CIRROS}
    body.update(server)
    if body["imageRef"] is None:
        del body["imageRef"]
        message = "Missing imageRef attribute"
    result = nova.post("/servers", {"server": body})
    assert result.status == 400, result.body
    assert fault(result)[0] == "badRequest"
    if message:
        assert fault(result)[2] == message


def test_metadata_quota_is_403(nova):
    result = nova.create(expect=403, metadata={"k%d" % i: "v" for i in range(129)})
    assert fault(result) == ("forbidden", 403, "Maximum number of metadata items exceeds 128")


def _file(size, path="/etc/motd"):
    return {"path": path, "contents": base64.b64encode(b"x" * size).decode()}


def test_personality_limits_before_2_57(nova):
    nova.create(personality=[_file(10240)] * 5)
    assert (
        fault(nova.create(expect=403, personality=[_file(1)] * 6))[2]
        == "Personality file limit exceeded"
    )
    assert (
        fault(nova.create(expect=403, personality=[_file(10241)]))[2]
        == "Personality file content exceeds maximum 10240"
    )
    assert (
        fault(nova.create(expect=403, personality=[_file(1, "/" + "p" * 255)]))[2]
        == "Personality file path exceeds maximum 255"
    )
    bad = nova.create(expect=400, personality=[{"path": "/x", "contents": "@@@"}])
    assert fault(bad)[0] == "badRequest"


def test_personality_rejected_from_2_57(nova):
    nova.create(version="2.56", personality=[_file(1)])
    result = nova.create(version="2.57", expect=400, personality=[_file(1)])
    assert "Additional properties are not allowed ('personality'" in fault(result)[2]


def test_user_data_length_limit(nova):
    ok = base64.b64encode(b"x" * 49149).decode()
    assert len(ok) == 65532
    nova.create(user_data=ok)
    too_long = base64.b64encode(b"x" * 49152).decode()
    assert nova.create(expect=400, user_data=too_long).status == 400


def test_networks_required_from_2_37(nova):
    body = {"server": {"name": "vm", "flavorRef": "1", "imageRef": CIRROS}}
    assert nova.post("/servers", body, version="2.36").status == 202
    result = nova.post("/servers", body, version="2.37")
    assert result.status == 400
    assert "'networks' is a required property" in fault(result)[2]
    for nets in ("auto", "none", [{"uuid": PRIVATE}]):
        body["server"]["networks"] = nets
        assert nova.post("/servers", body, version="2.37").status == 202
    body["server"]["networks"] = [{"uuid": "not-a-uuid"}]
    assert nova.post("/servers", body, version="2.37").status == 400


def test_networks_none_and_fixed_ip(nova):
    assert nova.show(nova.create(version="2.37", networks="none"))["addresses"] == {}
    # choosing the address is the network owner's (private: the admin's)
    chosen = nova.create(user="admin", networks=[{"uuid": PRIVATE, "fixed_ip": "10.0.9.9"}])
    server = nova.show(chosen, user="admin")
    (port,) = server["addresses"]["private"]
    assert port["addr"] == "10.0.9.9"
    assert port["OS-EXT-IPS-MAC:mac_addr"].startswith("fa:16:3e:")
    again = nova.create(expect=400, networks=[{"uuid": PRIVATE, "fixed_ip": "10.0.9.9"}])
    assert "already in use" in fault(again)[2]
    outside = nova.create(expect=400, networks=[{"uuid": PRIVATE, "fixed_ip": "192.168.0.5"}])
    assert fault(outside)[0] == "badRequest"


def test_description_defaults_by_version(nova):
    assert nova.show(nova.create(name="a"), version="2.19")["description"] == "a"
    assert nova.show(nova.create(name="b", version="2.19"), version="2.19")["description"] is None
    assert (
        nova.show(nova.create(name="c", version="2.19", description="d"), version="2.19")[
            "description"
        ]
        == "d"
    )
    assert nova.create(expect=400, description="d").status == 400


def test_tags_and_hostname_versions(nova):
    assert nova.create(expect=400, version="2.51", tags=["a"]).status == 400
    server = nova.show(nova.create(version="2.52", tags=["a", "b"]), version="2.52")
    assert server["tags"] == ["a", "b"]
    assert nova.create(expect=400, version="2.89", hostname="h1").status == 400
    server = nova.show(nova.create(version="2.90", hostname="h1"), version="2.90")
    assert server["OS-EXT-SRV-ATTR:hostname"] == "h1"
    assert nova.create(expect=400, version="2.90", hostname="a.example.com").status == 400
    nova.create(version="2.94", hostname="a.example.com")


def test_boot_from_volume_shows_empty_image(nova):
    server_id = nova.create(
        imageRef="",
        block_device_mapping_v2=[
            {
                "boot_index": 0,
                "uuid": "9d5e2fb8-0000-4000-8000-000000000001",
                "source_type": "volume",
                "destination_type": "volume",
            }
        ],
    )
    server = nova.show(server_id, version="2.3")
    assert server["image"] == ""
    assert server["os-extended-volumes:volumes_attached"] == [
        {"id": "9d5e2fb8-0000-4000-8000-000000000001", "delete_on_termination": False}
    ]
    legacy = nova.create(
        imageRef="",
        block_device_mapping=[
            {"volume_id": "9d5e2fb8-0000-4000-8000-000000000002", "device_name": "vda"}
        ],
    )
    assert nova.show(legacy)["image"] == ""


def test_flavor_too_small_for_image(nova):
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE images SET min_disk = 30 WHERE id = ?", (UBUNTU,))
    result = nova.create(expect=400, imageRef=UBUNTU, flavorRef="1")
    assert fault(result)[2].startswith("Flavor's disk is too small")
    nova.create(imageRef=UBUNTU, flavorRef="3")


def test_multiple_create_and_reservation_id(nova):
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "multi",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "min_count": 2,
                "max_count": 3,
                "return_reservation_id": True,
            }
        },
    )
    assert result.status == 202
    body = result.json()
    assert list(body) == ["reservation_id"]
    assert body["reservation_id"].startswith("r-")
    listed = nova.get("/servers?reservation_id=" + body["reservation_id"])
    names = sorted(s["name"] for s in listed.json()["servers"])
    assert names == ["multi-1", "multi-2", "multi-3"]
    first = nova.create(name="pair", max_count="2")
    assert nova.show(first)["name"].startswith("pair-")


def test_security_groups_come_from_ports(nova):
    # nova _add_security_grps: groups are those of the server's ports, so a
    # portless server shows no security_groups key (the create response still
    # echoes the requested groups)
    created = nova.post(
        "/servers",
        {"server": {"name": "noport", "flavorRef": "1", "imageRef": CIRROS, "networks": "none"}},
        version="2.37",
    )
    assert created.json()["server"]["security_groups"] == [{"name": "default"}]
    server_id = created.json()["server"]["id"]
    assert "security_groups" not in nova.show(server_id, version="2.37")
    wired = nova.show(nova.create(version="2.37"), version="2.37")
    assert wired["security_groups"] == [{"name": "default"}]


def test_max_count_defaults_to_min_count(nova):
    # nova servers.py create: max_count = server_dict.get('max_count',
    # min_count), so min_count alone creates that many servers
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "trio",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "min_count": 3,
                "return_reservation_id": True,
            }
        },
    )
    assert result.status == 202, result.body
    listed = nova.get("/servers?reservation_id=" + result.json()["reservation_id"]).json()[
        "servers"
    ]
    assert sorted(s["name"] for s in listed) == ["trio-1", "trio-2", "trio-3"]


def test_placement_spreads_over_hosts(nova):
    hosts = [nova.show(nova.create(), user="admin")["OS-EXT-SRV-ATTR:host"] for _ in range(6)]
    assert sorted(hosts) == ["host1", "host1", "host2", "host2", "host3", "host3"]


def test_zone_and_forced_host(nova):
    server = nova.show(nova.create(availability_zone="nova"))
    assert server["OS-EXT-AZ:availability_zone"] == "nova"
    assert (
        nova.show(nova.create(availability_zone="nova:host2", user="admin"), user="admin")[
            "OS-EXT-SRV-ATTR:host"
        ]
        == "host2"
    )
    assert nova.create(expect=403, availability_zone="nova:host2").status == 403
    pinned = nova.create(version="2.96", availability_zone="nova")
    assert nova.show(pinned, version="2.96")["pinned_availability_zone"] == "nova"


def test_no_enabled_host_is_accepted_then_error(nova):
    # nova validates only a *requested* zone at the API; without one the
    # request is accepted (202) and the scheduler's NoValidHost makes the
    # server ERROR (this used to be a 400 here)
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_services SET disabled = 1")
    server = nova.show(nova.create())
    assert server["status"] == "ERROR"
    assert server["fault"]["message"].startswith("No valid host was found.")


# -- build --------------------------------------------------------------------


def test_build_completes_on_next_read_with_zero_build_time(nova):
    server = nova.show(nova.create())
    assert server["status"] == "ACTIVE"
    assert server["OS-EXT-STS:power_state"] == 1
    assert server["OS-EXT-STS:task_state"] is None
    # nova's compute manager leaves progress at 0 once a build is done
    assert server["progress"] == 0
    assert server["addresses"]["private"][0]["addr"].startswith("10.0.")
    assert server["OS-SRV-USG:launched_at"]


def test_build_progresses_with_time(slow_nova, clock):
    server_id = slow_nova.create()
    seen = []
    for _ in range(4):
        server = slow_nova.show(server_id)
        assert server["status"] == "BUILD"
        assert server["OS-EXT-STS:vm_state"] == "building"
        assert server["OS-EXT-STS:power_state"] == 0
        assert server["addresses"] == {}
        assert server["OS-SRV-USG:launched_at"] is None
        assert server["hostId"]
        seen.append((server["OS-EXT-STS:task_state"], server["progress"]))
        clock.advance(2.6)
    assert [t for t, _ in seen] == ["scheduling", "block_device_mapping", "networking", "spawning"]
    progress = [p for _, p in seen]
    assert progress == sorted(progress) and progress[0] == 0
    assert 0 < progress[-1] < 100
    clock.advance(0.5)
    server = slow_nova.show(server_id)
    assert server["status"] == "ACTIVE"
    assert server["progress"] == 0


def test_real_clock_small_build_time(tmp_path):
    import time

    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "d", build_time=0.3)
    try:
        n = Nova(cloud)
        server_id = n.create()
        assert n.show(server_id)["status"] == "BUILD"
        time.sleep(0.35)
        assert n.show(server_id)["status"] == "ACTIVE"
    finally:
        cloud.close()


# -- list ---------------------------------------------------------------------


def _names(result):
    assert result.status == 200, result.body
    return [s["name"] for s in result.json()["servers"]]


def test_list_shapes_and_default_sort(nova, clock):
    for name in ("a", "b", "c"):
        nova.create(name=name)
        clock.advance(1)
    result = nova.get("/servers")
    assert _names(result) == ["c", "b", "a"]
    assert set(result.json()["servers"][0]) == {"id", "name", "links"}
    assert "servers_links" not in result.json()
    detail = nova.get("/servers/detail").json()["servers"]
    assert detail[0]["status"] == "ACTIVE"
    assert _names(nova.get("/servers?sort_key=display_name&sort_dir=asc")) == ["a", "b", "c"]
    assert nova.get("/servers?sort_key=bogus").status == 400
    assert nova.get("/servers?sort_key=host").status == 403


def test_pagination_links_only_on_full_pages(nova, clock):
    ids = []
    for i in range(5):
        ids.append(nova.create(name="s%d" % i))
        clock.advance(1)
    page = nova.get("/servers/detail?limit=2")
    body = page.json()
    assert [s["name"] for s in body["servers"]] == ["s4", "s3"]
    (link,) = body["servers_links"]
    assert link["rel"] == "next"
    assert link["href"].startswith("http://cloud.test:8775/compute/v2.1/servers/detail?")
    assert "limit=2" in link["href"] and "marker=" + ids[3] in link["href"]
    page2 = nova.get("/servers/detail?limit=2&marker=" + ids[3]).json()
    assert [s["name"] for s in page2["servers"]] == ["s2", "s1"]
    assert "servers_links" in page2
    last = nova.get("/servers?limit=2&marker=" + ids[1]).json()
    assert [s["name"] for s in last["servers"]] == ["s0"]
    assert "servers_links" not in last
    exact = nova.get("/servers?limit=5").json()
    assert "servers_links" in exact
    assert "servers_links" not in nova.get("/servers?limit=6").json()
    bad = nova.get("/servers?marker=nope")
    assert error(bad) == (400, "marker [nope] not found")
    assert nova.get("/servers?limit=-1").status == 400
    assert nova.get("/servers?limit=x").status == 400


def test_marker_deleted_since_the_previous_page_still_pages_on(nova, clock):
    # nova looks the marker up with read_deleted='yes' (instance_list
    # get_marker_record), so deleting the last server of a page between two
    # page requests does not break paging
    ids = []
    for i in range(4):
        ids.append(nova.create(name="s%d" % i))
        clock.advance(1)
    first = nova.get("/servers?limit=2").json()
    assert [s["name"] for s in first["servers"]] == ["s3", "s2"]
    assert nova.delete("/servers/" + ids[2]).status == 204
    page2 = nova.get("/servers?limit=2&marker=" + ids[2])
    assert page2.status == 200, page2.body
    assert [s["name"] for s in page2.json()["servers"]] == ["s1", "s0"]
    # the deleted marker is not listed itself, and filters still apply
    named = nova.get("/servers?name=s0&marker=" + ids[2]).json()
    assert [s["name"] for s in named["servers"]] == ["s0"]
    assert error(nova.get("/servers?marker=" + "0" * 32)) == (
        400,
        "marker [%s] not found" % ("0" * 32),
    )


def test_filters(nova):
    web = nova.create(name="web-1", flavorRef="2", metadata={"a": "b"})
    nova.create(name="db-1", imageRef=UBUNTU)
    stopped = nova.create(name="web-2")
    assert nova.action(stopped, {"os-stop": None}).status == 202
    assert _names(nova.get("/servers?name=^web")) == ["web-2", "web-1"]
    assert _names(nova.get("/servers?status=SHUTOFF")) == ["web-2"]
    assert _names(nova.get("/servers?status=active")) == ["db-1", "web-1"]
    assert _names(nova.get("/servers?status=ACTIVE&status=SHUTOFF")) == ["web-2", "db-1", "web-1"]
    assert _names(nova.get("/servers?image=" + UBUNTU)) == ["db-1"]
    assert _names(nova.get("/servers?flavor=2")) == ["web-1"]
    addr = nova.show(web)["addresses"]["private"][0]["addr"]
    assert _names(nova.get("/servers?ip=%s$" % addr.replace(".", r"\."))) == ["web-1"]
    assert _names(nova.get("/servers?changes-since=2000-01-01T00:00:00Z")) == [
        "web-2",
        "db-1",
        "web-1",
    ]
    assert nova.get("/servers?changes-since=yesterday").status == 400


def test_status_filter_validation_by_version(nova):
    nova.create()
    assert _names(nova.get("/servers?status=BOGUS", version="2.37")) == []
    result = nova.get("/servers?status=BOGUS", version="2.38")
    assert error(result) == (400, "Invalid status value")


def test_unknown_query_parameters_from_2_75(nova):
    assert nova.get("/servers?foo=1", version="2.74").status == 200
    result = nova.get("/servers?foo=1", version="2.75")
    assert result.status == 400
    # nova 34's text (nova-34-server-groups-tags-filters.json, filter_unknown_v275)
    assert fault(result)[2] == "'foo' does not match any of the regexes: '^_'"
    assert nova.get("/servers?name=x&limit=3", version="2.75").status == 200


def test_deleted_servers_and_changes_since(nova):
    gone = nova.create(name="gone")
    assert nova.delete("/servers/" + gone).status == 204
    assert nova.get("/servers/" + gone).status == 404
    assert _names(nova.get("/servers")) == []
    listed = nova.get("/servers/detail?changes-since=2000-01-01T00:00:00")
    (server,) = listed.json()["servers"]
    assert server["status"] == "DELETED"
    assert nova.get("/servers?status=DELETED").status == 403


def test_all_tenants_and_isolation(nova):
    mine = nova.create(name="demo-vm")
    theirs = nova.create(name="admin-vm", user="admin")
    assert _names(nova.get("/servers")) == ["demo-vm"]
    assert _names(nova.get("/servers", user="admin")) == ["admin-vm"]
    result = nova.get("/servers?all_tenants=1")
    assert result.status == 403
    assert fault(result)[0] == "forbidden"
    assert nova.get("/servers?all_tenants=0").status == 200
    assert sorted(_names(nova.get("/servers?all_tenants", user="admin"))) == [
        "admin-vm",
        "demo-vm",
    ]
    demo_project = nova.project_id("demo")
    assert _names(nova.get("/servers?all_tenants=1&project_id=" + demo_project, user="admin")) == [
        "demo-vm"
    ]
    for method, path, body in (
        ("GET", "/servers/" + theirs, None),
        ("PUT", "/servers/" + theirs, {"server": {"name": "x"}}),
        ("DELETE", "/servers/" + theirs, None),
        ("POST", "/servers/%s/action" % theirs, {"pause": None}),
        ("GET", "/servers/%s/metadata" % theirs, None),
    ):
        assert nova.call(method, path, json=body).status == 404, path
    assert nova.show(mine, user="admin")["name"] == "demo-vm"


def test_admin_only_filters_are_ignored_for_members(nova):
    nova.create(name="x")
    assert _names(nova.get("/servers?host=nowhere")) == ["x"]
    assert _names(nova.get("/servers?host=nowhere", user="admin")) == []


# -- update / delete ----------------------------------------------------------


def test_update_by_version(nova):
    server_id = nova.create(name="old")
    result = nova.put(
        "/servers/" + server_id, {"server": {"name": "new", "accessIPv4": "1.2.3.4"}}
    )
    assert result.status == 200
    body = result.json()["server"]
    assert body["name"] == "new" and body["accessIPv4"] == "1.2.3.4"
    assert "OS-EXT-STS:vm_state" not in body
    assert set(body["addresses"]["private"][0]) == {"addr", "version"}
    assert nova.put("/servers/" + server_id, {"server": {"description": "d"}}).status == 400
    body = nova.put(
        "/servers/" + server_id, {"server": {"description": "d"}}, version="2.19"
    ).json()["server"]
    assert body["description"] == "d"
    full = nova.put(
        "/servers/" + server_id, {"server": {"description": None}}, version="2.75"
    ).json()["server"]
    assert full["description"] is None
    assert set(full) == set(nova.show(server_id, version="2.75"))
    assert (
        nova.put(
            "/servers/" + server_id, {"server": {"hostname": "newhost"}}, version="2.90"
        ).status
        == 200
    )
    assert nova.show(server_id, version="2.90")["OS-EXT-SRV-ATTR:hostname"] == "newhost"
    assert nova.put("/servers/" + server_id, {"server": {"bogus": 1}}).status == 400


def test_delete_locked_server(nova):
    server_id = nova.create()
    assert nova.action(server_id, {"lock": None}).status == 202
    result = nova.delete("/servers/" + server_id)
    assert error(result) == (409, "Instance %s is locked" % server_id)
    assert nova.delete("/servers/" + server_id, user="admin").status == 204
    assert nova.delete("/servers/" + server_id).status == 404
