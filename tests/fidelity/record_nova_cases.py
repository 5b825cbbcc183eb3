"""The cases ``record_nova.py`` records: one function per fixture file,
each sending its requests through a ``Recorder`` (``rec.call`` records one
exchange; ``rec.raw`` and ``rec.wait`` do not). Bodies may name this run's
ids as ``"{placeholder}"`` strings."""

CIRROS = "155d900f-4e14-4e4c-a73d-069cbf4541e6"
GLANCE = "http://127.0.0.1:9292/v2/images/"
CINDER = "http://127.0.0.1:8776/v3/"


def _flavor(rec):
    """A flavor of 1 vCPU, 64 MiB and 1 GiB for the case's boots (admin)."""
    name = "{tag}-%s" % rec.case_name
    body = {"flavor": {"name": name, "ram": 64, "vcpus": 1, "disk": 1}}
    _, answer = rec.call("flavor_create", "POST", "/flavors", body, caller="admin")
    return rec.id_of("flavor", answer)


def _server(name, **fields):
    return {
        "server": dict(
            {"name": "{tag}-" + name, "imageRef": CIRROS, "flavorRef": "{flavor}"},
            networks="none",
            **fields,
        )
    }


def user_quotas(rec):
    """Per-user quotas (``?user_id=``): set within the project's remains,
    shown, counted by boots, deleted; and the project's own limit kept at
    or above the sum of its users'."""
    c = rec.call
    _flavor(rec)
    sets = "/os-quota-sets/{member_project}"
    user = "user_id={member_user}"
    rec.remember(sets)
    rec.remember(sets + "?user_id={member_user}")
    rec.remember(sets + "?user_id={other_user}")
    c("project_set", "PUT", sets, {"quota_set": {"instances": 5, "cores": 10}}, caller="admin")
    body = {"quota_set": {"instances": 1, "cores": 4}}
    c("user_set", "PUT", sets, body, caller="admin", query=user)
    c("user_set_2_1", "PUT", sets, body, caller="admin", query=user, version="2.1")
    c("user_show", "GET", sets, caller="admin", query=user)
    c("user_show_member", "GET", sets, query=user)
    c("user_show_other_user", "GET", sets, caller="admin", query="user_id={other_user}")
    c("user_detail", "GET", sets + "/detail", caller="admin", query=user)
    c("project_show", "GET", sets, caller="admin")
    over = {"quota_set": {"instances": 6}}
    c("user_set_over_project", "PUT", sets, over, caller="admin", query=user)
    c(
        "other_user_set_over",
        "PUT",
        sets,
        {"quota_set": {"instances": 5}},
        caller="admin",
        query="user_id={other_user}",
    )
    below = {"quota_set": {"instances": 0}}
    c("project_below_users", "PUT", sets, below, caller="admin")
    c("user_set_member", "PUT", sets, body, query=user)
    c("user_set_bad_query", "PUT", sets, body, caller="admin", query=user + "&foo=1")
    _, answer = c("boot_first", "POST", "/servers", _server("q1"))
    # nova counts a server once it is in its cell (a second boot before
    # that passes the API's check and fails the conductor's recheck)
    rec.wait("/servers/" + rec.id_of("server", answer), ("ACTIVE",))
    c("boot_over_user", "POST", "/servers", _server("q2"))
    c("boot_over_user_multi", "POST", "/servers", _server("q3", min_count=1, max_count=3))
    c("user_detail_in_use", "GET", sets + "/detail", caller="admin", query=user)
    c("project_detail_in_use", "GET", sets + "/detail", caller="admin")
    zero = {"quota_set": {"instances": 0}}
    c("user_set_below_use", "PUT", sets, zero, caller="admin", query=user)
    forced = {"quota_set": {"instances": 9, "force": True}}
    c("user_set_force", "PUT", sets, forced, caller="admin", query=user)
    cores = {"quota_set": {"cores": 50}}
    c("user_set_after_force", "PUT", sets, cores, caller="admin", query=user)
    c("user_delete_member", "DELETE", sets, query=user)
    c("user_delete", "DELETE", sets, caller="admin", query=user)
    c("user_show_after_delete", "GET", sets, caller="admin", query=user)
    c("user_delete_again", "DELETE", sets, caller="admin", query=user)


def empty_ids(rec):
    """Collection paths with an empty id after the slash."""
    c = rec.call
    c("usage_empty_id", "GET", "/os-simple-tenant-usage/", caller="admin")
    c("usage_empty_id_member", "GET", "/os-simple-tenant-usage/")
    c("usage_list", "GET", "/os-simple-tenant-usage", caller="admin")
    c("volumes_empty_id", "GET", "/os-volumes/", version="2.1")
    c("volumes_list", "GET", "/os-volumes", version="2.1")


def security_group_proxy(rec):
    """The ``os-security-groups`` proxy over Neutron: a CIDR with host
    bits, a rule whose remote group is deleted, an admin's all_tenants."""
    c = rec.call
    v = "2.1"
    group = {"security_group": {"name": "{tag}-g", "description": "d"}}
    _, answer = c("group_create", "POST", "/os-security-groups", group, version=v)
    rec.id_of("group", answer)
    group2 = {"security_group": {"name": "{tag}-g2", "description": "d"}}
    _, answer = c("group2_create", "POST", "/os-security-groups", group2, version=v)
    rec.id_of("group2", answer)
    rule = {"parent_group_id": "{group}", "ip_protocol": "tcp", "from_port": 22, "to_port": 22}
    host_bits = {"security_group_rule": dict(rule, cidr="10.2.3.124/24")}
    c("rule_host_bits", "POST", "/os-security-group-rules", host_bits, version=v)
    remote = {"security_group_rule": dict(rule, from_port=80, to_port=80, group_id="{group2}")}
    c("rule_remote_group", "POST", "/os-security-group-rules", remote, version=v)
    c("group_show", "GET", "/os-security-groups/{group}", version=v)
    c("group2_delete", "DELETE", "/os-security-groups/{group2}", version=v)
    c("group_show_after_remote_delete", "GET", "/os-security-groups/{group}", version=v)
    c(
        "groups_all_tenants_admin",
        "GET",
        "/os-security-groups",
        caller="admin",
        query="all_tenants=1",
        version=v,
    )
    c("groups_admin", "GET", "/os-security-groups", caller="admin", version=v)


def snapshots_and_boots(rec):
    """A second createImage while the first is saved; the snapshot as
    Glance shows it; a boot with an image and a non-bootable volume at
    boot index 0, and one without an image."""
    c = rec.call
    _flavor(rec)
    _, answer = c("boot", "POST", "/servers", _server("snap"))
    server = rec.id_of("server", answer)
    rec.wait("/servers/" + server, ("ACTIVE",))
    action = "/servers/{server}/action"
    _, answer = c("create_image", "POST", action, {"createImage": {"name": "{tag}-i1"}})
    c("create_image_again", "POST", action, {"createImage": {"name": "{tag}-i2"}})
    if isinstance(answer, dict) and "image_id" in answer:
        rec.case["ids"]["image"] = answer["image_id"]
        rec.remember(GLANCE + answer["image_id"])
        c("image_show", "GET", GLANCE + "{image}", version=None)
    volume = {"volume": {"size": 1, "name": rec.case["ids"]["tag"] + "-v"}}
    resp = rec.raw("POST", CINDER + "{member_project}/volumes".format(**rec.case["ids"]), volume)
    resp_volume = resp.json()["volume"]
    rec.case["ids"]["volume"] = resp_volume["id"]
    rec.remember(CINDER + "{admin_project}/volumes/{volume}")
    volume_url = CINDER + "{member_project}/volumes/{volume}".format(**rec.case["ids"])
    rec.wait(volume_url, ("available",), caller="member")
    bdm = [
        {
            "boot_index": 0,
            "uuid": "{volume}",
            "source_type": "volume",
            "destination_type": "volume",
        }
    ]
    with_image = _server("bv", block_device_mapping_v2=bdm)
    c("boot_image_nonbootable_volume", "POST", "/servers", with_image)
    no_image = _server("bv2", block_device_mapping_v2=bdm)
    del no_image["server"]["imageRef"]
    c("boot_no_image_nonbootable_volume", "POST", "/servers", no_image)


CASES = {
    "user-quotas": user_quotas,
    "empty-ids": empty_ids,
    "security-group-proxy": security_group_proxy,
    "snapshots-and-boots": snapshots_and_boots,
}
