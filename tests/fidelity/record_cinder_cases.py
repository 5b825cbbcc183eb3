"""The cases ``record_cinder.py`` records: one function per fixture file,
each sending its requests through a ``Recorder`` (``rec.call`` records one
exchange; ``rec.raw`` and ``rec.wait`` do not). Bodies may name this run's
ids as ``"{placeholder}"`` strings."""

import time

MISSING = "00000000-0000-4000-8000-000000000000"
INSTANCE = "11111111-2222-4333-8444-555555555555"
CONNECTOR = {
    "initiator": "iqn.1993-08.org.debian:01:fidelity",
    "ip": "127.0.0.1",
    "platform": "x86_64",
    "host": "fidelity-host",
    "os_type": "linux",
    "multipath": False,
    "mountpoint": "/dev/vdb",
}


def _volume(rec, name, caller="member", **fields):
    """Create a volume (recorded as ``name``) and wait until available."""
    body = {"volume": dict({"size": 1, "name": name}, **fields)}
    _, answer = rec.call(name, "POST", "/volumes", body, caller=caller)
    volume_id = rec.id_of(name, answer)
    rec.wait("/volumes/" + volume_id, ("available",))
    return volume_id


def versions(rec):
    """The version documents (no token), and microversion negotiation."""
    c = rec.call
    c("root", "GET", "/", caller="anonymous", version=None)
    c("v3_root", "GET", "/v3/", caller="anonymous", version=None)
    c("no_header", "GET", "/volumes", version=None)
    c("latest", "GET", "/volumes", version="latest")
    c("too_new", "GET", "/volumes", version="3.72")
    c("bad_format", "GET", "/volumes", version="3.x")
    c("too_old", "GET", "/volumes", version="2.0")


def types(rec):
    """Volume types as admin (CRUD, extra specs, private types and their
    access, the default type, default types 3.62) and as a member."""
    c = rec.call
    _, vt = c(
        "type_create",
        "POST",
        "/types",
        {"volume_type": {"name": "{tag}-t", "description": "d", "extra_specs": {"k": "v"}}},
        caller="admin",
    )
    rec.id_of("type", vt)
    c("type_create_member", "POST", "/types", {"volume_type": {"name": "{tag}-m"}})
    c("type_create_dup", "POST", "/types", {"volume_type": {"name": "{tag}-t"}}, caller="admin")
    c("type_create_no_name", "POST", "/types", {"volume_type": {}}, caller="admin")
    c("type_create_bad_body", "POST", "/types", {"type": {}}, caller="admin")
    c(
        "type_create_bad_public",
        "POST",
        "/types",
        {"volume_type": {"name": "{tag}-x", "os-volume-type-access:is_public": "maybe"}},
        caller="admin",
    )
    c("type_show", "GET", "/types/{type}")
    c("type_show_admin", "GET", "/types/{type}", caller="admin")
    c("type_show_missing", "GET", "/types/" + MISSING)
    c("type_list", "GET", "/types")
    c("type_list_admin", "GET", "/types", caller="admin")
    c("type_default", "GET", "/types/default")
    c(
        "type_update",
        "PUT",
        "/types/{type}",
        {"volume_type": {"description": "d2", "name": "{tag}-t2"}},
        caller="admin",
    )
    c("type_update_member", "PUT", "/types/{type}", {"volume_type": {"description": "x"}})
    c("type_update_empty", "PUT", "/types/{type}", {"volume_type": {}}, caller="admin")
    c(
        "specs_create",
        "POST",
        "/types/{type}/extra_specs",
        {"extra_specs": {"a": "1", "b": "2"}},
        caller="admin",
    )
    c("specs_list", "GET", "/types/{type}/extra_specs", caller="admin")
    c("specs_list_member", "GET", "/types/{type}/extra_specs")
    c("spec_show", "GET", "/types/{type}/extra_specs/a", caller="admin")
    c("spec_show_missing", "GET", "/types/{type}/extra_specs/nope", caller="admin")
    c("spec_update", "PUT", "/types/{type}/extra_specs/a", {"a": "3"}, caller="admin")
    c("spec_update_mismatch", "PUT", "/types/{type}/extra_specs/a", {"b": "3"}, caller="admin")
    c("spec_delete", "DELETE", "/types/{type}/extra_specs/b", caller="admin")
    c("spec_delete_missing", "DELETE", "/types/{type}/extra_specs/b", caller="admin")
    c("specs_create_member", "POST", "/types/{type}/extra_specs", {"extra_specs": {"z": "1"}})
    # private types and their access
    _, private = c(
        "private_create",
        "POST",
        "/types",
        {"volume_type": {"name": "{tag}-p", "os-volume-type-access:is_public": False}},
        caller="admin",
    )
    rec.id_of("private", private)
    c("private_show_member", "GET", "/types/{private}")
    c("private_access_empty", "GET", "/types/{private}/os-volume-type-access", caller="admin")
    c(
        "private_add_access",
        "POST",
        "/types/{private}/action",
        {"addProjectAccess": {"project": "{member_project}"}},
        caller="admin",
    )
    c(
        "private_add_access_again",
        "POST",
        "/types/{private}/action",
        {"addProjectAccess": {"project": "{member_project}"}},
        caller="admin",
    )
    c("private_access", "GET", "/types/{private}/os-volume-type-access", caller="admin")
    c("private_access_member", "GET", "/types/{private}/os-volume-type-access")
    c("private_show_member_allowed", "GET", "/types/{private}")
    c("private_list_member", "GET", "/types")
    c(
        "public_access",
        "GET",
        "/types/{type}/os-volume-type-access",
        caller="admin",
    )
    c(
        "private_add_access_member",
        "POST",
        "/types/{private}/action",
        {"addProjectAccess": {"project": "{other_project}"}},
    )
    c(
        "private_remove_access",
        "POST",
        "/types/{private}/action",
        {"removeProjectAccess": {"project": "{member_project}"}},
        caller="admin",
    )
    c(
        "private_remove_access_again",
        "POST",
        "/types/{private}/action",
        {"removeProjectAccess": {"project": "{member_project}"}},
        caller="admin",
    )
    c(
        "type_action_unknown",
        "POST",
        "/types/{private}/action",
        {"nope": {}},
        caller="admin",
    )
    # default types (3.62)
    c(
        "default_set",
        "PUT",
        "/default-types/{member_project}",
        {"default_type": {"volume_type": "{tag}-t2"}},
        caller="admin",
    )
    c(
        "default_set_old",
        "PUT",
        "/default-types/{member_project}",
        {"default_type": {"volume_type": "{tag}-t2"}},
        caller="admin",
        version="3.61",
    )
    c(
        "default_set_missing_type",
        "PUT",
        "/default-types/{member_project}",
        {"default_type": {"volume_type": "nope"}},
        caller="admin",
    )
    c(
        "default_set_member",
        "PUT",
        "/default-types/{member_project}",
        {"default_type": {"volume_type": "{tag}-t2"}},
    )
    c("default_show", "GET", "/default-types/{member_project}", caller="admin")
    c("default_list", "GET", "/default-types", caller="admin")
    c("default_show_member", "GET", "/default-types/{member_project}")
    c("type_default_member_after", "GET", "/types/default")
    c("type_delete_default", "DELETE", "/types/{type}", caller="admin")
    c("default_unset", "DELETE", "/default-types/{member_project}", caller="admin")
    c("default_unset_again", "DELETE", "/default-types/{member_project}", caller="admin")
    c("default_show_unset", "GET", "/default-types/{member_project}", caller="admin")
    c("type_delete_member", "DELETE", "/types/{type}")
    c("private_delete", "DELETE", "/types/{private}", caller="admin")
    c("private_delete_again", "DELETE", "/types/{private}", caller="admin")


def qos(rec):
    """QoS specs (admin only) and their associations with types."""
    c = rec.call
    _, vt = c("type_create", "POST", "/types", {"volume_type": {"name": "{tag}-q"}}, "admin")
    rec.id_of("type", vt)
    _, spec = c(
        "qos_create",
        "POST",
        "/qos-specs",
        {"qos_specs": {"name": "{tag}-qos", "consumer": "back-end", "read_iops_sec": "100"}},
        caller="admin",
    )
    rec.id_of("qos", spec)
    c("qos_create_member", "POST", "/qos-specs", {"qos_specs": {"name": "{tag}-m"}})
    c("qos_create_dup", "POST", "/qos-specs", {"qos_specs": {"name": "{tag}-qos"}}, "admin")
    c(
        "qos_create_bad_consumer",
        "POST",
        "/qos-specs",
        {"qos_specs": {"name": "{tag}-c", "consumer": "nowhere"}},
        caller="admin",
    )
    c("qos_create_no_name", "POST", "/qos-specs", {"qos_specs": {"a": "1"}}, "admin")
    c("qos_list", "GET", "/qos-specs", caller="admin")
    c("qos_list_member", "GET", "/qos-specs")
    c("qos_show", "GET", "/qos-specs/{qos}", caller="admin")
    c("qos_show_missing", "GET", "/qos-specs/" + MISSING, caller="admin")
    c("qos_update", "PUT", "/qos-specs/{qos}", {"qos_specs": {"write_iops_sec": "5"}}, "admin")
    c(
        "qos_delete_keys",
        "PUT",
        "/qos-specs/{qos}/delete_keys",
        {"keys": ["read_iops_sec"]},
        caller="admin",
    )
    c(
        "qos_delete_keys_missing",
        "PUT",
        "/qos-specs/{qos}/delete_keys",
        {"keys": ["nope"]},
        caller="admin",
    )
    c(
        "qos_associate",
        "GET",
        "/qos-specs/{qos}/associate",
        caller="admin",
        query="vol_type_id={type}",
    )
    c("qos_associate_no_type", "GET", "/qos-specs/{qos}/associate", caller="admin")
    c(
        "qos_associate_missing_type",
        "GET",
        "/qos-specs/{qos}/associate",
        caller="admin",
        query="vol_type_id=" + MISSING,
    )
    c("qos_associations", "GET", "/qos-specs/{qos}/associations", caller="admin")
    c("type_show_qos", "GET", "/types/{type}", caller="admin")
    c("qos_delete_in_use", "DELETE", "/qos-specs/{qos}", caller="admin")
    c(
        "qos_disassociate",
        "GET",
        "/qos-specs/{qos}/disassociate",
        caller="admin",
        query="vol_type_id={type}",
    )
    c(
        "qos_associate_again",
        "GET",
        "/qos-specs/{qos}/associate",
        caller="admin",
        query="vol_type_id={type}",
    )
    c("qos_disassociate_all", "GET", "/qos-specs/{qos}/disassociate_all", caller="admin")
    c("qos_associations_empty", "GET", "/qos-specs/{qos}/associations", caller="admin")
    c("qos_delete", "DELETE", "/qos-specs/{qos}", caller="admin")
    c("qos_delete_again", "DELETE", "/qos-specs/{qos}", caller="admin")


def volumes(rec):
    """Volumes: create, show and list at 3.0 and at later microversions,
    update, refusals, summary (3.12), limits, extend, revert (3.40),
    retype, snapshot update and metadata, messages (3.3), deletes."""
    c = rec.call
    _volume(rec, "vol")
    c("show_30", "GET", "/volumes/{vol}", version="3.0")
    c("show_327", "GET", "/volumes/{vol}", version="3.27")
    c("show_348", "GET", "/volumes/{vol}", version="3.48")
    c("show_361", "GET", "/volumes/{vol}", version="3.61")
    c("show_363", "GET", "/volumes/{vol}", version="3.63")
    c("show_365", "GET", "/volumes/{vol}", version="3.65")
    c("show_369", "GET", "/volumes/{vol}", version="3.69")
    c("show_370", "GET", "/volumes/{vol}")
    c("show_admin", "GET", "/volumes/{vol}", caller="admin")
    c("show_other", "GET", "/volumes/{vol}", caller="other")
    c("show_missing", "GET", "/volumes/" + MISSING)
    c("list", "GET", "/volumes")
    c("list_detail_30", "GET", "/volumes/detail", version="3.0")
    c("list_detail", "GET", "/volumes/detail")
    c("list_by_name", "GET", "/volumes/detail", query="name=vol")
    c("list_bad_sort", "GET", "/volumes", query="sort=color")
    c("list_all_tenants_member", "GET", "/volumes", query="all_tenants=1")
    c("summary", "GET", "/volumes/summary")
    c("summary_311", "GET", "/volumes/summary", version="3.11")
    c("limits", "GET", "/limits")
    c("update", "PUT", "/volumes/{vol}", {"volume": {"name": "v2", "description": "d"}})
    c("update_metadata", "PUT", "/volumes/{vol}", {"volume": {"metadata": {"a": "1"}}})
    c("update_empty", "PUT", "/volumes/{vol}", {"volume": {}})
    c("update_bad_key", "PUT", "/volumes/{vol}", {"volume": {"size": 5}})
    c("update_other", "PUT", "/volumes/{vol}", {"volume": {"name": "x"}}, caller="other")
    refusals = {
        "create_zero": {"size": 0},
        "create_text_size": {"size": "big"},
        "create_no_size": {"name": "x"},
        "create_bad_type": {"size": 1, "volume_type": "nope"},
        "create_bad_zone": {"size": 1, "availability_zone": "nowhere"},
        "create_bad_snapshot": {"size": 1, "snapshot_id": MISSING},
        "create_bad_source": {"size": 1, "source_volid": MISSING},
        "create_bad_metadata": {"size": 1, "metadata": {"a": 1}},
        "create_unknown_key": {"size": 1, "color": "red"},
    }
    for name, body in refusals.items():
        c(name, "POST", "/volumes", {"volume": body})
    c("create_no_body", "POST", "/volumes", {"vol": {}})
    c("create_huge", "POST", "/volumes", {"volume": {"size": 100000}})
    # extend
    c("extend", "POST", "/volumes/{vol}/action", {"os-extend": {"new_size": 2}})
    rec.wait("/volumes/{vol}", ("available",))
    c("extend_smaller", "POST", "/volumes/{vol}/action", {"os-extend": {"new_size": 1}})
    c("extend_bad", "POST", "/volumes/{vol}/action", {"os-extend": {"new_size": "x"}})
    c("extend_no_size", "POST", "/volumes/{vol}/action", {"os-extend": {}})
    # snapshots
    _, snap = c("snapshot", "POST", "/snapshots", {"snapshot": {"volume_id": "{vol}"}})
    rec.id_of("snap", snap)
    rec.wait("/snapshots/{snap}", ("available",))
    c("snapshot_show", "GET", "/snapshots/{snap}")
    c(
        "snapshot_update",
        "PUT",
        "/snapshots/{snap}",
        {"snapshot": {"name": "s", "description": "d"}},
    )
    c("snapshot_update_empty", "PUT", "/snapshots/{snap}", {"snapshot": {}})
    c("snapshot_update_bad_key", "PUT", "/snapshots/{snap}", {"snapshot": {"size": 3}})
    c("snapmeta_create", "POST", "/snapshots/{snap}/metadata", {"metadata": {"a": "1", "b": "2"}})
    c("snapmeta_list", "GET", "/snapshots/{snap}/metadata")
    c("snapmeta_show", "GET", "/snapshots/{snap}/metadata/a")
    c("snapmeta_show_missing", "GET", "/snapshots/{snap}/metadata/zz")
    c("snapmeta_put", "PUT", "/snapshots/{snap}/metadata", {"metadata": {"c": "3"}})
    c("snapmeta_put_key", "PUT", "/snapshots/{snap}/metadata/c", {"meta": {"c": "4"}})
    c("snapmeta_put_key_mismatch", "PUT", "/snapshots/{snap}/metadata/c", {"meta": {"d": "4"}})
    c("snapmeta_delete", "DELETE", "/snapshots/{snap}/metadata/c")
    c("snapmeta_delete_missing", "DELETE", "/snapshots/{snap}/metadata/c")
    # revert
    c(
        "revert_339",
        "POST",
        "/volumes/{vol}/action",
        {"revert": {"snapshot_id": "{snap}"}},
        version="3.39",
    )
    c(
        "revert_not_latest_size",
        "POST",
        "/volumes/{vol}/action",
        {"revert": {"snapshot_id": "{snap}"}},
    )
    c("revert_missing", "POST", "/volumes/{vol}/action", {"revert": {"snapshot_id": MISSING}})
    _volume(rec, "vol2")
    _, snap2 = c("snapshot2", "POST", "/snapshots", {"snapshot": {"volume_id": "{vol2}"}})
    rec.id_of("snap2", snap2)
    rec.wait("/snapshots/{snap2}", ("available",))
    c(
        "revert_other_volume",
        "POST",
        "/volumes/{vol}/action",
        {"revert": {"snapshot_id": "{snap2}"}},
    )
    c("revert", "POST", "/volumes/{vol2}/action", {"revert": {"snapshot_id": "{snap2}"}})
    rec.wait("/volumes/{vol2}", ("available",))
    c("delete_with_snapshot", "DELETE", "/volumes/{vol2}")
    # retype
    _, vt = c(
        "type_for_retype", "POST", "/types", {"volume_type": {"name": "{tag}-r"}}, caller="admin"
    )
    rec.id_of("type", vt)
    c("retype_missing_type", "POST", "/volumes/{vol2}/action", {"os-retype": {"new_type": "nope"}})
    c("retype_same", "POST", "/volumes/{vol2}/action", {"os-retype": {"new_type": "__DEFAULT__"}})
    c(
        "retype_bad_policy",
        "POST",
        "/volumes/{vol2}/action",
        {"os-retype": {"new_type": "{tag}-r", "migration_policy": "sometimes"}},
    )
    c(
        "retype",
        "POST",
        "/volumes/{vol2}/action",
        {"os-retype": {"new_type": "{tag}-r", "migration_policy": "never"}},
    )
    rec.wait("/volumes/{vol2}", ("available",))
    c("show_retyped", "GET", "/volumes/{vol2}")
    # messages
    c("messages", "GET", "/messages", version="3.3")
    c("messages_32", "GET", "/messages", version="3.2")
    c("message_missing", "GET", "/messages/" + MISSING, version="3.3")
    c("message_delete_missing", "DELETE", "/messages/" + MISSING, version="3.3")
    # deletes
    c("delete_other", "DELETE", "/volumes/{vol}", caller="other")
    c("snapshot_delete", "DELETE", "/snapshots/{snap}")
    rec.wait("/snapshots/{snap}", (), gone=True)
    c("delete", "DELETE", "/volumes/{vol}")
    rec.wait("/volumes/{vol}", (), gone=True)
    c("show_deleted", "GET", "/volumes/{vol}")
    c("delete_missing", "DELETE", "/volumes/" + MISSING)


def actions(rec):
    """Every volume action of issue 21, as the member and as admin."""
    c = rec.call
    _volume(rec, "vol")
    act = "/volumes/{vol}/action"
    c("reset_status_member", "POST", act, {"os-reset_status": {"status": "error"}})
    c("reset_status_bad", "POST", act, {"os-reset_status": {"status": "nope"}}, "admin")
    c("reset_status", "POST", act, {"os-reset_status": {"status": "error"}}, "admin")
    c("show_error", "GET", "/volumes/{vol}")
    c(
        "attach_error",
        "POST",
        act,
        {"os-attach": {"instance_uuid": INSTANCE, "mountpoint": "/dev/vdb"}},
    )
    c("reset_status_back", "POST", act, {"os-reset_status": {"status": "available"}}, "admin")
    c("reserve", "POST", act, {"os-reserve": None})
    c("show_attaching", "GET", "/volumes/{vol}")
    c("reserve_again", "POST", act, {"os-reserve": None})
    c("unreserve", "POST", act, {"os-unreserve": None})
    c("attach_no_instance", "POST", act, {"os-attach": {"mountpoint": "/dev/vdb"}})
    c(
        "attach_bad_mode",
        "POST",
        act,
        {"os-attach": {"instance_uuid": INSTANCE, "mountpoint": "/dev/vdb", "mode": "x"}},
    )
    c("attach", "POST", act, {"os-attach": {"instance_uuid": INSTANCE, "mountpoint": "/dev/vdb"}})
    _, shown = c("show_in_use", "GET", "/volumes/{vol}")
    attachment = (
        shown["volume"]["attachments"][0]["attachment_id"]
        if shown["volume"]["attachments"]
        else MISSING
    )
    rec.case["ids"]["attachment"] = attachment
    c("extend_in_use_341", "POST", act, {"os-extend": {"new_size": 2}}, version="3.41")
    c("delete_in_use", "DELETE", "/volumes/{vol}")
    c("begin_detaching", "POST", act, {"os-begin_detaching": None})
    c("show_detaching", "GET", "/volumes/{vol}")
    c("begin_detaching_again", "POST", act, {"os-begin_detaching": None})
    c("roll_detaching", "POST", act, {"os-roll_detaching": None})
    c("detach_bad_attachment", "POST", act, {"os-detach": {"attachment_id": MISSING}})
    c("detach", "POST", act, {"os-detach": {"attachment_id": "{attachment}"}})
    c("show_detached", "GET", "/volumes/{vol}")
    c("detach_again", "POST", act, {"os-detach": {"attachment_id": "{attachment}"}})
    c("begin_detaching_available", "POST", act, {"os-begin_detaching": None})
    c("set_bootable", "POST", act, {"os-set_bootable": {"bootable": True}})
    c("set_bootable_bad", "POST", act, {"os-set_bootable": {"bootable": "perhaps"}})
    c("set_bootable_none", "POST", act, {"os-set_bootable": {}})
    c("readonly", "POST", act, {"os-update_readonly_flag": {"readonly": True}})
    c("readonly_bad", "POST", act, {"os-update_readonly_flag": {"readonly": "x"}})
    c("readonly_none", "POST", act, {"os-update_readonly_flag": {}})
    c("show_flags", "GET", "/volumes/{vol}")
    c("image_meta_set", "POST", act, {"os-set_image_metadata": {"metadata": {"a": "1", "b": "2"}}})
    c("image_meta_set_bad", "POST", act, {"os-set_image_metadata": {"metadata": "x"}})
    c("image_meta_show", "POST", act, {"os-show_image_metadata": None})
    c("image_meta_unset", "POST", act, {"os-unset_image_metadata": {"key": "a"}})
    c("image_meta_unset_missing", "POST", act, {"os-unset_image_metadata": {"key": "zz"}})
    c("image_meta_show_after", "POST", act, {"os-show_image_metadata": None})
    c("migrate_member", "POST", act, {"os-migrate_volume": {"host": "nohost@x#y"}})
    c("migrate_bad_host", "POST", act, {"os-migrate_volume": {"host": "nohost@x#y"}}, "admin")
    c("migrate_no_host", "POST", act, {"os-migrate_volume": {}}, "admin")
    c("action_unknown", "POST", act, {"os-nope": {}})
    c("action_two", "POST", act, {"os-reserve": None, "os-unreserve": None})
    c("action_missing_volume", "POST", "/volumes/%s/action" % MISSING, {"os-reserve": None})
    c("force_delete_member", "POST", act, {"os-force_delete": {}})


def attachments(rec):
    """The attachments API (3.27+): create with and without a connector,
    update, complete (3.44), list/show, delete; refusals."""
    c = rec.call
    _volume(rec, "vol")
    _volume(rec, "vol2")
    c(
        "create_326",
        "POST",
        "/attachments",
        {"attachment": {"volume_uuid": "{vol}", "instance_uuid": INSTANCE}},
        version="3.26",
    )
    _, att = c(
        "create_reserved",
        "POST",
        "/attachments",
        {"attachment": {"volume_uuid": "{vol}", "instance_uuid": INSTANCE}},
        version="3.27",
    )
    rec.id_of("att", att)
    c("show_volume_reserved", "GET", "/volumes/{vol}")
    c("show", "GET", "/attachments/{att}", version="3.27")
    c("show_other", "GET", "/attachments/{att}", caller="other")
    c("list", "GET", "/attachments", version="3.27")
    c("list_detail", "GET", "/attachments/detail", version="3.27")
    c("list_detail_344", "GET", "/attachments/detail")
    c(
        "update",
        "PUT",
        "/attachments/{att}",
        {"attachment": {"connector": CONNECTOR}},
        version="3.27",
    )
    c("update_no_connector", "PUT", "/attachments/{att}", {"attachment": {}}, version="3.27")
    c("show_updated", "GET", "/attachments/{att}")
    c("show_volume_attaching", "GET", "/volumes/{vol}")
    c("complete_343", "POST", "/attachments/{att}/action", {"os-complete": None}, version="3.43")
    c("complete", "POST", "/attachments/{att}/action", {"os-complete": None}, version="3.44")
    c("show_volume_in_use", "GET", "/volumes/{vol}")
    c("show_complete", "GET", "/attachments/{att}")
    c(
        "extend_in_use_341",
        "POST",
        "/volumes/{vol}/action",
        {"os-extend": {"new_size": 2}},
        version="3.41",
    )
    c(
        "extend_in_use_342",
        "POST",
        "/volumes/{vol}/action",
        {"os-extend": {"new_size": 2}},
        version="3.42",
    )
    rec.wait("/volumes/{vol}", ("in-use",))
    _, att2 = c(
        "create_connected",
        "POST",
        "/attachments",
        {
            "attachment": {
                "volume_uuid": "{vol2}",
                "instance_uuid": INSTANCE,
                "connector": CONNECTOR,
                "mode": "ro",
            }
        },
    )
    rec.id_of("att2", att2)
    c("show_volume2", "GET", "/volumes/{vol2}")
    c(
        "create_second_instance",
        "POST",
        "/attachments",
        {"attachment": {"volume_uuid": "{vol}", "instance_uuid": MISSING}},
    )
    c(
        "create_missing_volume",
        "POST",
        "/attachments",
        {"attachment": {"volume_uuid": MISSING, "instance_uuid": INSTANCE}},
    )
    c("create_no_volume", "POST", "/attachments", {"attachment": {"instance_uuid": INSTANCE}})
    c(
        "create_bad_mode",
        "POST",
        "/attachments",
        {"attachment": {"volume_uuid": "{vol2}", "instance_uuid": INSTANCE, "mode": "x"}},
    )
    c("show_missing", "GET", "/attachments/" + MISSING)
    c("delete_other", "DELETE", "/attachments/{att}", caller="other")
    c("delete_volume_attached", "DELETE", "/volumes/{vol}")
    c("delete", "DELETE", "/attachments/{att}")
    c("show_volume_detached", "GET", "/volumes/{vol}")
    c("delete_again", "DELETE", "/attachments/{att}")
    c("delete2", "DELETE", "/attachments/{att2}")
    c("list_after", "GET", "/attachments")


def transfers(rec):
    """Transfers: the old API and the 3.55 one; accept with a wrong key;
    the other project accepts."""
    c = rec.call
    _volume(rec, "vol")
    _volume(rec, "vol2")
    _, tr = c(
        "create", "POST", "/os-volume-transfer", {"transfer": {"volume_id": "{vol}", "name": "t"}}
    )
    rec.id_of("tr", tr)
    c("create_again", "POST", "/os-volume-transfer", {"transfer": {"volume_id": "{vol}"}})
    c("create_missing_volume", "POST", "/os-volume-transfer", {"transfer": {"volume_id": MISSING}})
    c("create_no_volume", "POST", "/os-volume-transfer", {"transfer": {"name": "x"}})
    c("show_volume_awaiting", "GET", "/volumes/{vol}")
    c("show", "GET", "/os-volume-transfer/{tr}")
    c("show_other", "GET", "/os-volume-transfer/{tr}", caller="other")
    c("list", "GET", "/os-volume-transfer")
    c("list_detail", "GET", "/os-volume-transfer/detail")
    c(
        "accept_wrong_key",
        "POST",
        "/os-volume-transfer/{tr}/accept",
        {"accept": {"auth_key": "wrong"}},
        caller="other",
    )
    c("accept_no_key", "POST", "/os-volume-transfer/{tr}/accept", {"accept": {}}, caller="other")
    c(
        "accept_missing",
        "POST",
        "/os-volume-transfer/%s/accept" % MISSING,
        {"accept": {"auth_key": "x"}},
        caller="other",
    )
    key = tr["transfer"]["auth_key"] if isinstance(tr, dict) and "transfer" in tr else "x"
    rec.case["ids"]["key"] = key
    c(
        "accept",
        "POST",
        "/os-volume-transfer/{tr}/accept",
        {"accept": {"auth_key": "{key}"}},
        caller="other",
    )
    c("show_volume_other", "GET", "/volumes/{vol}", caller="other")
    c("show_volume_gone", "GET", "/volumes/{vol}")
    c("show_accepted", "GET", "/os-volume-transfer/{tr}")
    # 3.55
    _volume(rec, "vol3")
    c(
        "new_create_354",
        "POST",
        "/volume-transfers",
        {"transfer": {"volume_id": "{vol3}"}},
        version="3.54",
    )
    _, tr2 = c(
        "new_create",
        "POST",
        "/volume-transfers",
        {"transfer": {"volume_id": "{vol2}", "name": "t2", "no_snapshots": True}},
        version="3.55",
    )
    rec.id_of("tr2", tr2)
    c(
        "new_create_bad_flag",
        "POST",
        "/volume-transfers",
        {"transfer": {"volume_id": "{vol2}", "no_snapshots": "maybe"}},
    )
    c("new_show", "GET", "/volume-transfers/{tr2}")
    c("new_show_357", "GET", "/volume-transfers/{tr2}", version="3.57")
    c("new_list", "GET", "/volume-transfers")
    c("new_list_detail", "GET", "/volume-transfers/detail")
    c("new_delete_other", "DELETE", "/volume-transfers/{tr2}", caller="other")
    c("new_delete", "DELETE", "/volume-transfers/{tr2}")
    c("new_delete_again", "DELETE", "/volume-transfers/{tr2}")
    c("show_volume_back", "GET", "/volumes/{vol2}")
    # the other project owns vol now: delete it as other
    c("delete_accepted_volume", "DELETE", "/volumes/{vol}", caller="other")


def backups(rec):
    """Backups on a rig without cinder-backup: create (what happens),
    restore refusals, export/import as admin, deletes."""
    c = rec.call
    _volume(rec, "vol")
    c("create_missing_volume", "POST", "/backups", {"backup": {"volume_id": MISSING}})
    c("create_no_volume", "POST", "/backups", {"backup": {"name": "x"}})
    status, bk = c("create", "POST", "/backups", {"backup": {"volume_id": "{vol}", "name": "b"}})
    if status == 202:
        rec.id_of("bk", bk)
        time.sleep(3)
        c("show", "GET", "/backups/{bk}")
        c("restore", "POST", "/backups/{bk}/restore", {"restore": {"volume_id": "{vol}"}})
        c("export_member", "GET", "/backups/{bk}/export_record")
        c("export", "GET", "/backups/{bk}/export_record", caller="admin")
        c("delete", "DELETE", "/backups/{bk}")
    c("list", "GET", "/backups")
    c("list_detail", "GET", "/backups/detail")
    c("show_missing", "GET", "/backups/" + MISSING)
    c("restore_missing", "POST", "/backups/%s/restore" % MISSING, {"restore": {}})
    c("export_missing", "GET", "/backups/%s/export_record" % MISSING, caller="admin")
    c(
        "import_member",
        "POST",
        "/backups/import_record",
        {"backup-record": {"backup_service": "x", "backup_url": "eA=="}},
    )
    c(
        "import_bad",
        "POST",
        "/backups/import_record",
        {"backup-record": {"backup_service": "cinder.backup.drivers.swift", "backup_url": "x"}},
        caller="admin",
    )
    c("import_no_record", "POST", "/backups/import_record", {"backup-record": {}}, "admin")
    c("delete_missing", "DELETE", "/backups/" + MISSING)
    c("messages", "GET", "/messages", version="3.3")


def admin(rec):
    """Services, pools, zones, quota classes, hosts, resource filters
    (3.33), limits: as the member and as admin."""
    c = rec.call
    c("services", "GET", "/os-services", caller="admin")
    c("services_member", "GET", "/os-services")
    c("services_binary", "GET", "/os-services", caller="admin", query="binary=cinder-volume")
    c(
        "services_disable_bad",
        "PUT",
        "/os-services/disable",
        {"host": "nohost", "binary": "cinder-volume"},
        caller="admin",
    )
    c("pools", "GET", "/scheduler-stats/get_pools", caller="admin")
    c("pools_detail", "GET", "/scheduler-stats/get_pools", caller="admin", query="detail=true")
    c("pools_member", "GET", "/scheduler-stats/get_pools")
    c("zones", "GET", "/os-availability-zone")
    c("zones_admin", "GET", "/os-availability-zone", caller="admin")
    c("quota_class_default", "GET", "/os-quota-class-sets/default", caller="admin")
    c("quota_class_member", "GET", "/os-quota-class-sets/default")
    c(
        "quota_class_set_bad",
        "PUT",
        "/os-quota-class-sets/default",
        {"quota_class_set": {"volumes": "x"}},
        caller="admin",
    )
    c("hosts", "GET", "/os-hosts", caller="admin")
    c("hosts_member", "GET", "/os-hosts")
    c("host_missing", "GET", "/os-hosts/nohost", caller="admin")
    c("host_show", "GET", "/os-hosts/realcloud-cinder", caller="admin")
    c("resource_filters", "GET", "/resource_filters")
    c("resource_filters_332", "GET", "/resource_filters", version="3.32")
    c("resource_filters_volume", "GET", "/resource_filters", query="resource=volume")
    c("limits_admin", "GET", "/limits", caller="admin")
    c("quotas_member", "GET", "/os-quota-sets/{member_project}")
    c("quotas_defaults", "GET", "/os-quota-sets/{member_project}/defaults")
    c("quotas_usage", "GET", "/os-quota-sets/{member_project}", query="usage=true")
    c("quotas_other", "GET", "/os-quota-sets/{other_project}")


def groups(rec):
    """Group types (3.11), groups (3.13) and group snapshots (3.14)."""
    c = rec.call
    c("gtype_create_member", "POST", "/group_types", {"group_type": {"name": "{tag}-m"}})
    c(
        "gtype_create_310",
        "POST",
        "/group_types",
        {"group_type": {"name": "{tag}-o"}},
        caller="admin",
        version="3.10",
    )
    _, gt = c(
        "gtype_create",
        "POST",
        "/group_types",
        {"group_type": {"name": "{tag}-g", "description": "d"}},
        caller="admin",
    )
    rec.id_of("gtype", gt)
    c("gtype_create_dup", "POST", "/group_types", {"group_type": {"name": "{tag}-g"}}, "admin")
    c("gtype_list", "GET", "/group_types")
    c("gtype_show", "GET", "/group_types/{gtype}")
    c("gtype_default", "GET", "/group_types/default")
    c(
        "gtype_update",
        "PUT",
        "/group_types/{gtype}",
        {"group_type": {"description": "d2"}},
        caller="admin",
    )
    c(
        "gtype_specs_create",
        "POST",
        "/group_types/{gtype}/group_specs",
        {"group_specs": {"consistent_group_snapshot_enabled": "<is> False"}},
        caller="admin",
    )
    c("gtype_specs_list", "GET", "/group_types/{gtype}/group_specs", caller="admin")
    c("groups_312", "GET", "/groups", version="3.12")
    c(
        "group_create_missing_type",
        "POST",
        "/groups",
        {"group": {"group_type": MISSING, "volume_types": ["__DEFAULT__"]}},
    )
    c("group_create_no_types", "POST", "/groups", {"group": {"group_type": "{gtype}"}})
    _, gr = c(
        "group_create",
        "POST",
        "/groups",
        {"group": {"group_type": "{gtype}", "volume_types": ["__DEFAULT__"], "name": "g"}},
    )
    rec.id_of("group", gr)
    rec.wait("/groups/{group}", ("available", "error"))
    c("group_show", "GET", "/groups/{group}")
    c("group_list", "GET", "/groups")
    c("group_list_detail", "GET", "/groups/detail")
    c("group_update", "PUT", "/groups/{group}", {"group": {"name": "g2"}})
    c("group_show_other", "GET", "/groups/{group}", caller="other")
    c(
        "gsnap_313",
        "POST",
        "/group_snapshots",
        {"group_snapshot": {"group_id": "{group}"}},
        version="3.13",
    )
    _, gs = c(
        "gsnap_create",
        "POST",
        "/group_snapshots",
        {"group_snapshot": {"group_id": "{group}", "name": "gs"}},
    )
    if isinstance(gs, dict) and "group_snapshot" in gs:
        rec.id_of("gsnap", gs)
        rec.wait("/group_snapshots/{gsnap}", ("available", "error"))
        c("gsnap_show", "GET", "/group_snapshots/{gsnap}")
        c("gsnap_delete", "DELETE", "/group_snapshots/{gsnap}")
        rec.wait("/group_snapshots/{gsnap}", (), gone=True)
    c("gsnap_list", "GET", "/group_snapshots")
    c("gsnap_missing_group", "POST", "/group_snapshots", {"group_snapshot": {"group_id": MISSING}})
    c("gtype_delete_in_use", "DELETE", "/group_types/{gtype}", caller="admin")
    c("group_delete_bad", "POST", "/groups/{group}/action", {"delete": {"delete-volumes": "x"}})
    c("group_delete", "POST", "/groups/{group}/action", {"delete": {}})
    rec.wait("/groups/{group}", (), gone=True)
    c("group_show_deleted", "GET", "/groups/{group}")
    c("gtype_delete", "DELETE", "/group_types/{gtype}", caller="admin")
    c("gtype_delete_again", "DELETE", "/group_types/{gtype}", caller="admin")


CASES = {
    "versions": versions,
    "types": types,
    "qos": qos,
    "volumes": volumes,
    "actions": actions,
    "attachments": attachments,
    "transfers": transfers,
    "backups": backups,
    "admin": admin,
    "groups": groups,
}
