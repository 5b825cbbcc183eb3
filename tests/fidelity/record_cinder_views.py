"""The view cases ``record_cinder.py`` records (issue 23): every view of
volumes, snapshots, backups, transfers, types and QoS specs, group types,
groups, group snapshots, attachments and the admin's reads (create,
update, show, detail, list, the writes answering a body) as the member and
as admin at each microversion where a key appears or goes (Cinder's
``cinder/api/v3/views/*.py`` and the ``cinder/api/contrib`` extensions
that extend only show and detail), and the error answers of their routes
(a malformed id, an unknown one, another project's, a bad microversion).
Exchange names read ``<resource>_<view>_<version>_<caller>``."""

from tests.fidelity.record_cinder_cases import MISSING

CALLERS = ("member", "admin")
# where volume keys appear: group_id 3.13, provider_id 3.21 (admin),
# shared_targets and service_uuid 3.48, cluster_name 3.61 (admin),
# volume_type_id 3.63, consumes_quota 3.65, shared_targets' meaning 3.69
VOLUME_VERSIONS = ("3.0", "3.13", "3.21", "3.48", "3.61", "3.63", "3.65", "3.70")
VOLUME_CREATES = ("3.0", "3.48", "3.65")
# group_snapshot_id 3.14, user_id 3.41, consumes_quota 3.65
SNAPSHOT_VERSIONS = ("3.0", "3.14", "3.41", "3.65")
# project id 3.18 (admin), metadata 3.43, availability_zone 3.51, user_id 3.56
BACKUP_VERSIONS = ("3.0", "3.18", "3.43", "3.51", "3.56")
# no_snapshots 3.55; source and destination projects, accepted 3.57
TRANSFER_VERSIONS = ("3.55", "3.57")
BAD_ID = "not-a-uuid"


def _volume(rec, name, caller="member", version="3.70"):
    """Create a volume named after the run's tag (recorded as ``name``,
    its id kept as ``{name}`` without dots) and wait until available."""
    body = {"volume": {"size": 1, "name": "{tag}-v"}}
    _, answer = rec.call(name, "POST", "/volumes", body, caller=caller, version=version)
    volume_id = rec.id_of(name.replace(".", ""), answer)
    rec.wait("/volumes/" + volume_id, ("available",))
    return volume_id


def _lists(rec, resource, collection, versions, query):
    """Show-free list views (summary and detail) of ``collection`` per
    caller and version; admin lists ``all_tenants`` with ``query``."""
    for version in versions:
        for caller in CALLERS:
            q = query + ("&all_tenants=1" if caller == "admin" else "")
            name = "%s_%%s_%s_%s" % (resource, version, caller)
            rec.call(name % "list", "GET", collection, caller=caller, query=q, version=version)
            rec.call(
                name % "detail",
                "GET",
                collection + "/detail",
                caller=caller,
                query=q,
                version=version,
            )


def volume_views(rec):
    """Volumes: create, update, show, summary list and detail list, as the
    member and as admin, at each microversion that adds a key; the base
    volume carries image metadata (shown only by show and detail)."""
    c = rec.call
    _volume(rec, "vol")
    c(
        "image_meta_set",
        "POST",
        "/volumes/{vol}/action",
        {"os-set_image_metadata": {"metadata": {"image_name": "x"}}},
    )
    for version in VOLUME_CREATES:
        for caller in CALLERS:
            _volume(rec, "volume_create_%s_%s" % (version, caller), caller, version)
    for version in VOLUME_VERSIONS:
        for caller in CALLERS:
            name = "volume_%%s_%s_%s" % (version, caller)
            c(name % "show", "GET", "/volumes/{vol}", caller=caller, version=version)
            body = {"volume": {"description": "d" + version}}
            c(name % "update", "PUT", "/volumes/{vol}", body, caller=caller, version=version)
    _lists(rec, "volume", "/volumes", VOLUME_VERSIONS, "name={tag}-v")


def snapshot_views(rec):
    """Snapshots: create, update, show and both lists, as the member and
    as admin, at each microversion that adds a key."""
    c = rec.call
    _volume(rec, "vol")
    for version in SNAPSHOT_VERSIONS:
        for caller in CALLERS:
            name = "snapshot_create_%s_%s" % (version, caller)
            body = {"snapshot": {"volume_id": "{vol}", "name": "{tag}-s"}}
            _, answer = c(name, "POST", "/snapshots", body, caller=caller, version=version)
            key = name.replace(".", "")
            rec.wait("/snapshots/" + rec.id_of(key, answer), ("available",))
    for version in SNAPSHOT_VERSIONS:
        for caller in CALLERS:
            name = "snapshot_%%s_%s_%s" % (version, caller)
            path = "/snapshots/{snapshot_create_30_member}"
            c(name % "show", "GET", path, caller=caller, version=version)
            body = {"snapshot": {"description": "d" + version}}
            c(name % "update", "PUT", path, body, caller=caller, version=version)
    _lists(rec, "snapshot", "/snapshots", SNAPSHOT_VERSIONS, "name={tag}-s")


def backup_views(rec):
    """Backups (the rig has no cinder-backup: they go to error): show and
    both lists as the member and as admin at each microversion that adds
    a key."""
    c = rec.call
    _volume(rec, "vol")
    _, backup = c("backup_create", "POST", "/backups", {"backup": {"volume_id": "{vol}"}})
    rec.id_of("backup", backup)
    rec.wait("/backups/{backup}", ("error", "available"))
    for version in BACKUP_VERSIONS:
        for caller in CALLERS:
            name = "backup_show_%s_%s" % (version, caller)
            c(name, "GET", "/backups/{backup}", caller=caller, version=version)
    _lists(rec, "backup", "/backups", BACKUP_VERSIONS, "volume_id={vol}")


def transfer_views(rec):
    """Transfers: the old API's views at 3.0, the 3.55 API's at the
    microversions that add keys (create, show, both lists)."""
    c = rec.call
    _volume(rec, "vol")
    old = "/os-volume-transfer"
    body = {"transfer": {"volume_id": "{vol}"}}
    _, tr = c("transfer_create_3.0", "POST", old, body, version="3.0")
    rec.id_of("tr", tr)
    c("transfer_show_3.0", "GET", old + "/{tr}", version="3.0")
    c("transfer_list_3.0", "GET", old, version="3.0")
    c("transfer_detail_3.0", "GET", old + "/detail", version="3.0")
    for version in TRANSFER_VERSIONS:
        c("transfer_show_%s" % version, "GET", "/volume-transfers/{tr}", version=version)
        c("transfer_list_%s" % version, "GET", "/volume-transfers", version=version)
        c("transfer_detail_%s" % version, "GET", "/volume-transfers/detail", version=version)
    c("transfer_delete", "DELETE", old + "/{tr}")
    rec.undo(old + "/" + rec.case["ids"]["tr"])
    body = {"transfer": {"volume_id": "{vol}", "no_snapshots": True}}
    _, tr = c("transfer_create_3.57", "POST", "/volume-transfers", body, version="3.57")
    rec.id_of("tr2", tr)


def view_errors(rec):
    """Each resource's show (and update and delete where it has them) with
    a malformed id, an unknown one and another project's, and its
    collection at a microversion too new, malformed and below its own."""
    c = rec.call
    _volume(rec, "vol")
    _, snap = c("snapshot", "POST", "/snapshots", {"snapshot": {"volume_id": "{vol}"}})
    rec.id_of("snap", snap)
    rec.wait("/snapshots/{snap}", ("available",))
    _, backup = c("backup", "POST", "/backups", {"backup": {"volume_id": "{vol}"}})
    rec.id_of("backup", backup)
    rec.wait("/backups/{backup}", ("error", "available"))
    _volume(rec, "vol2")
    _, tr = c("transfer", "POST", "/volume-transfers", {"transfer": {"volume_id": "{vol2}"}})
    rec.id_of("tr", tr)
    # resource, collection, the microversion below its first (None: 3.0),
    # its own id, whether PUT updates it
    routes = (
        ("volume", "/volumes", None, "{vol}", True),
        ("snapshot", "/snapshots", None, "{snap}", True),
        ("backup", "/backups", None, "{backup}", True),
        ("transfer", "/volume-transfers", None, "{tr}", False),
        ("attachment", "/attachments", "3.26", None, False),
        ("group", "/groups", "3.12", None, False),
        ("group_snapshot", "/group_snapshots", "3.13", None, False),
        ("message", "/messages", "3.2", None, False),
        ("type", "/types", None, None, False),
        ("group_type", "/group_types", "3.10", None, False),
    )
    for resource, collection, below, mine, updates in routes:
        for label, ident in (("bad_id", BAD_ID), ("missing", MISSING)):
            c("%s_show_%s" % (resource, label), "GET", "%s/%s" % (collection, ident))
        if mine:
            path = "%s/%s" % (collection, mine)
            c("%s_show_other" % resource, "GET", path, caller="other")
            body = {resource: {"name": "x"}}
            if updates:
                c("%s_update_other" % resource, "PUT", path, body, caller="other")
                c("%s_update_bad_id" % resource, "PUT", "%s/%s" % (collection, BAD_ID), body)
            c("%s_delete_other" % resource, "DELETE", path, caller="other")
            c("%s_delete_bad_id" % resource, "DELETE", "%s/%s" % (collection, BAD_ID))
        c("%s_list_too_new" % resource, "GET", collection, version="3.99")
        c("%s_list_bad_version" % resource, "GET", collection, version="3.x")
        c("%s_list_too_old" % resource, "GET", collection, version=below or "2.0")


def _each(rec, name, path, versions, callers=CALLERS, query=""):
    """GET ``path`` per version and caller, recorded as
    ``<name>_<version>_<caller>``."""
    for version in versions:
        for caller in callers:
            label = "%s_%s_%s" % (name, version, caller)
            rec.call(label, "GET", path, caller=caller, query=query, version=version)


def type_views(rec):
    """Volume types with extra specs (one a user may see) and a QoS spec,
    their specs and access lists, and QoS specs: as the member and admin."""
    c = rec.call
    specs = {"multiattach": "<is> True", "secret": "s"}
    body = {"volume_type": {"name": "{tag}-t", "extra_specs": specs}}
    _, vt = c("type_create_3.0_admin", "POST", "/types", body, caller="admin", version="3.0")
    rec.id_of("type", vt)
    body = {"qos_specs": {"name": "{tag}-q", "read_iops_sec": "10"}}
    _, spec = c("qos_create_3.0_admin", "POST", "/qos-specs", body, caller="admin", version="3.0")
    rec.id_of("qos", spec)
    path = "/qos-specs/{qos}/associate"
    c("qos_associate", "GET", path, caller="admin", query="vol_type_id={type}")
    _each(rec, "type_show", "/types/{type}", ("3.0", "3.70"))
    _each(rec, "type_list", "/types", ("3.0", "3.70"), query="is_public=true")
    _each(rec, "type_default", "/types/default", ("3.0",))
    _each(rec, "type_specs", "/types/{type}/extra_specs", ("3.0",))
    _each(rec, "type_spec_show", "/types/{type}/extra_specs/multiattach", ("3.0",))
    body = {"volume_type": {"description": "d"}}
    c("type_update_3.0_admin", "PUT", "/types/{type}", body, caller="admin", version="3.0")
    _each(rec, "qos_show", "/qos-specs/{qos}", ("3.0",), ("admin",))
    _each(rec, "qos_list", "/qos-specs", ("3.0",), ("admin",))
    body = {"qos_specs": {"write_iops_sec": "5"}}
    c("qos_update_3.0_admin", "PUT", "/qos-specs/{qos}", body, caller="admin", version="3.0")
    body = {"volume_type": {"name": "{tag}-p", "os-volume-type-access:is_public": False}}
    _, private = c("private_create_3.0_admin", "POST", "/types", body, caller="admin")
    rec.id_of("private", private)
    action = {"addProjectAccess": {"project": "{member_project}"}}
    c("private_add_access", "POST", "/types/{private}/action", action, caller="admin")
    _each(rec, "private_show", "/types/{private}", ("3.0",))
    _each(rec, "private_access", "/types/{private}/os-volume-type-access", ("3.0",), ("admin",))
    c("qos_disassociate", "GET", "/qos-specs/{qos}/disassociate_all", caller="admin")


def group_views(rec):
    """Group types, groups and group snapshots: create, update, show and
    the lists, as the member and as admin, at the microversions that add
    keys (groups' replication_status 3.38, project_id 3.58; group
    snapshots' group_type_id 3.19, project_id 3.58)."""
    c = rec.call
    body = {"group_type": {"name": "{tag}-g", "group_specs": {"k": "v"}}}
    _, gt = c("gtype_create_3.11_admin", "POST", "/group_types", body, "admin", version="3.11")
    rec.id_of("gtype", gt)
    _each(rec, "gtype_show", "/group_types/{gtype}", ("3.11",))
    _each(rec, "gtype_list", "/group_types", ("3.11",))
    _each(rec, "gtype_specs", "/group_types/{gtype}/group_specs", ("3.11",), ("admin",))
    body = {"group": {"group_type": "{gtype}", "volume_types": ["__DEFAULT__"], "name": "{tag}"}}
    _, gr = c("group_create_3.13_member", "POST", "/groups", body, version="3.13")
    rec.id_of("group", gr)
    rec.wait("/groups/{group}", ("available",))
    versions = ("3.13", "3.38", "3.58")
    _each(rec, "group_show", "/groups/{group}", versions)
    _each(rec, "group_list", "/groups", versions, query="name={tag}")
    _each(rec, "group_detail", "/groups/detail", versions, query="name={tag}")
    body = {"group": {"description": "d"}}
    c("group_update_3.13_member", "PUT", "/groups/{group}", body, version="3.13")
    vol = {"size": 1, "name": "{tag}-v", "group_id": "{group}", "volume_type": "__DEFAULT__"}
    _, v = c("volume_in_group", "POST", "/volumes", {"volume": vol}, version="3.13")
    rec.wait("/volumes/" + rec.id_of("vol", v), ("available",))
    rec.undo("/volumes/" + rec.case["ids"]["vol"])  # deleted with its group
    body = {"group_snapshot": {"group_id": "{group}", "name": "{tag}"}}
    _, gs = c("gsnap_create_3.14_member", "POST", "/group_snapshots", body, version="3.14")
    rec.id_of("gsnap", gs)
    rec.wait("/group_snapshots/{gsnap}", ("available", "error"))
    versions = ("3.14", "3.19", "3.58")
    _each(rec, "gsnap_show", "/group_snapshots/{gsnap}", versions)
    _each(rec, "gsnap_list", "/group_snapshots", versions, query="name={tag}")
    _each(rec, "gsnap_detail", "/group_snapshots/detail", versions, query="name={tag}")
    c("gsnap_delete", "DELETE", "/group_snapshots/{gsnap}", version="3.14")
    rec.wait("/group_snapshots/{gsnap}", (), gone=True)
    rec.undo("/group_snapshots/" + rec.case["ids"]["gsnap"])


def attachment_views(rec):
    """Attachments: create, show and the lists as the member and as admin
    at 3.27 and 3.54 (attach_mode)."""
    c = rec.call
    _volume(rec, "vol")
    inst = "11111111-2222-4333-8444-555555555555"
    body = {"attachment": {"volume_uuid": "{vol}", "instance_uuid": inst}}
    _, att = c("attachment_create_3.27_member", "POST", "/attachments", body, version="3.27")
    rec.id_of("att", att)
    versions = ("3.27", "3.54")
    _each(rec, "attachment_show", "/attachments/{att}", versions)
    _each(rec, "attachment_list", "/attachments", versions, query="volume_id={vol}")
    _each(rec, "attachment_detail", "/attachments/detail", versions, query="volume_id={vol}")


def admin_views(rec):
    """What an admin reads (and a member where allowed): services, pools,
    limits, quotas and quota classes, zones, the volume summary, resource
    filters, clusters, manageable lists and default types, at the
    microversions that add keys."""
    _each(rec, "services", "/os-services", ("3.0", "3.7", "3.49"), ("admin",))
    _each(rec, "pools", "/scheduler-stats/get_pools", ("3.0",), ("admin",), "detail=true")
    _each(rec, "limits", "/limits", ("3.0", "3.39"))
    _each(rec, "quotas", "/os-quota-sets/{member_project}", ("3.0",))
    _each(rec, "quotas_usage", "/os-quota-sets/{member_project}", ("3.0",), query="usage=true")
    _each(rec, "quotas_defaults", "/os-quota-sets/{member_project}/defaults", ("3.0",))
    _each(rec, "quota_class", "/os-quota-class-sets/default", ("3.0",), ("admin",))
    _each(rec, "zones", "/os-availability-zone", ("3.0",))
    _each(rec, "summary", "/volumes/summary", ("3.12", "3.36"))
    _each(rec, "resource_filters", "/resource_filters", ("3.33",))
    _each(rec, "clusters", "/clusters", ("3.7",), ("admin",))
    _each(rec, "clusters_detail", "/clusters/detail", ("3.7",), ("admin",))
    _each(rec, "manageable", "/manageable_volumes", ("3.8",), ("admin",), "host=x@y#z")
    _each(rec, "default_types", "/default-types", ("3.62",), ("admin",))
    _each(rec, "messages", "/messages", ("3.3",))


def write_views(rec):
    """The answers of writes not recorded elsewhere: volume metadata,
    volumes from a snapshot and from a volume, transfer create and accept
    at 3.0, 3.55 and 3.57, and an admin's quota update and delete (no
    backup: without cinder-backup the rig cannot delete one)."""
    c = rec.call
    _volume(rec, "vol")
    meta = "/volumes/{vol}/metadata"
    c("volume_metadata_create", "POST", meta, {"metadata": {"a": "1"}})
    c("volume_metadata_replace", "PUT", meta, {"metadata": {"b": "2"}})
    c("volume_metadata_item", "PUT", meta + "/b", {"meta": {"b": "3"}})
    c("volume_metadata_show", "GET", meta)
    c("volume_metadata_item_show", "GET", meta + "/b")
    _, snap = c("snapshot", "POST", "/snapshots", {"snapshot": {"volume_id": "{vol}"}})
    rec.id_of("snap", snap)
    rec.wait("/snapshots/{snap}", ("available",))
    body = {"volume": {"size": 1, "snapshot_id": "{snap}", "name": "{tag}-v"}}
    _, v = c("volume_from_snapshot", "POST", "/volumes", body)
    rec.wait("/volumes/" + rec.id_of("from_snap", v), ("available",))
    body = {"volume": {"size": 1, "source_volid": "{vol}", "name": "{tag}-v"}}
    _, v = c("volume_from_volume", "POST", "/volumes", body)
    rec.wait("/volumes/" + rec.id_of("from_vol", v), ("available",))
    _volume(rec, "vol3")
    old = "/os-volume-transfer"
    for version, collection, volume in (
        ("3.0", old, "from_snap"),
        ("3.55", "/volume-transfers", "from_vol"),
        ("3.57", "/volume-transfers", "vol3"),
    ):
        label = version.replace(".", "")
        body = {"transfer": {"volume_id": "{%s}" % volume, "name": "t"}}
        _, tr = c("transfer_create_%s" % version, "POST", collection, body, version=version)
        ident = rec.id_of("tr" + label, tr)
        rec.case["ids"]["key" + label] = tr["transfer"]["auth_key"]
        body = {"accept": {"auth_key": "{key%s}" % label}}
        path = "%s/{tr%s}" % (collection, label)
        c("transfer_accept_%s" % version, "POST", path + "/accept", body, "other", version=version)
        rec.undo("%s/%s" % (collection, ident))
        c("transfer_show_accepted_%s" % version, "GET", path, version=version)
        # the other project owns the volume now
        volume_id = rec.case["ids"][volume]
        rec.undo("/volumes/" + volume_id)
        rec.created.append(("other", "/volumes/" + volume_id))
    quota = "/os-quota-sets/{member_project}"
    c("quota_update_admin", "PUT", quota, {"quota_set": {"volumes": 20}}, caller="admin")
    c("quota_update_member", "PUT", quota, {"quota_set": {"volumes": 20}})
    c("quota_delete_admin", "DELETE", quota, caller="admin")
    c("quotas_after_delete", "GET", quota)


def view_errors_others(rec):
    """Another project's attachment, group and group snapshot: show,
    update and delete by the other project, as for volumes (no backup:
    the rig cannot delete one)."""
    c = rec.call
    _volume(rec, "vol")
    inst = "11111111-2222-4333-8444-555555555555"
    body = {"attachment": {"volume_uuid": "{vol}", "instance_uuid": inst}}
    _, att = c("attachment", "POST", "/attachments", body)
    rec.id_of("att", att)
    body = {"group_type": {"name": "{tag}-g"}}
    _, gt = c("gtype", "POST", "/group_types", body, caller="admin")
    rec.id_of("gtype", gt)
    body = {"group": {"group_type": "{gtype}", "volume_types": ["__DEFAULT__"], "name": "{tag}"}}
    _, gr = c("group", "POST", "/groups", body)
    rec.id_of("group", gr)
    rec.wait("/groups/{group}", ("available",))
    vol = {"size": 1, "name": "{tag}-v", "group_id": "{group}", "volume_type": "__DEFAULT__"}
    _, v = c("volume_in_group", "POST", "/volumes", {"volume": vol})
    rec.wait("/volumes/" + rec.id_of("vol2", v), ("available",))
    rec.undo("/volumes/" + rec.case["ids"]["vol2"])  # deleted with its group
    body = {"group_snapshot": {"group_id": "{group}", "name": "{tag}"}}
    _, gs = c("gsnap", "POST", "/group_snapshots", body)
    rec.id_of("gsnap", gs)
    rec.wait("/group_snapshots/{gsnap}", ("available", "error"))
    c("attachment_show_other", "GET", "/attachments/{att}", caller="other")
    c("attachment_update_other", "PUT", "/attachments/{att}", {"attachment": {}}, "other")
    c("attachment_delete_other", "DELETE", "/attachments/{att}", caller="other")
    c("group_show_other", "GET", "/groups/{group}", caller="other")
    c("group_update_other", "PUT", "/groups/{group}", {"group": {"name": "x"}}, "other")
    c("group_delete_other", "POST", "/groups/{group}/action", {"delete": {}}, "other")
    c("gsnap_show_other", "GET", "/group_snapshots/{gsnap}", caller="other")
    c("gsnap_delete_other", "DELETE", "/group_snapshots/{gsnap}", caller="other")
    c("gtype_show_other", "GET", "/group_types/{gtype}", caller="other")
    c("gsnap_delete", "DELETE", "/group_snapshots/{gsnap}")
    rec.wait("/group_snapshots/{gsnap}", (), gone=True)
    rec.undo("/group_snapshots/" + rec.case["ids"]["gsnap"])
    c("attachment_delete", "DELETE", "/attachments/{att}")


def count_views(rec):
    """The lists' ``count`` (3.45, with ``with_count``) of volumes,
    snapshots and backups, the summary of an admin's ``all_tenants`` and
    the limits of another project (``project_id``, 3.39)."""
    _volume(rec, "vol")
    for collection in ("volumes", "snapshots", "backups"):
        for view in ("", "/detail"):
            name = "%s%s_count" % (collection, view.replace("/", "_"))
            path = "/%s%s" % (collection, view)
            _each(rec, name, path, ("3.44", "3.45"), ("member",), "with_count=true")
    _each(rec, "summary_all_tenants", "/volumes/summary", ("3.12",), ("admin",), "all_tenants=1")
    query = "project_id={member_project}"
    _each(rec, "limits_project", "/limits", ("3.38", "3.39"), ("admin",), query)


CASES = {
    "views-volumes": volume_views,
    "views-snapshots": snapshot_views,
    "views-backups": backup_views,
    "views-transfers": transfer_views,
    "view-errors": view_errors,
    "views-types": type_views,
    "views-groups": group_views,
    "views-attachments": attachment_views,
    "views-admin": admin_views,
    "views-writes": write_views,
    "view-errors-others": view_errors_others,
    "views-counts": count_views,
}
