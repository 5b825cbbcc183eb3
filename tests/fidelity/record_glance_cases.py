"""The cases ``record_glance.py`` records: one function per fixture file,
each sending its requests through a ``Recorder`` (``rec.call`` records one
exchange, ``rec.image`` creates an image, ``rec.raw`` records nothing)."""

import hashlib
import json
import time
import uuid
from typing import Any

PATCH_TYPE = "application/openstack-images-v2.1-json-patch"
DATA = bytes(range(256)) * 16  # 4 KiB that are not UTF-8
ONE = "/v2/images/{image}"
DEADLINE = 60  # seconds an import may take to settle


def settle(rec, image_id):
    """Poll the image until its import is over (bounded): ``active`` and
    its task's lock dropped (the flow's last step), or its stores listed
    as failed; its body."""
    deadline = time.monotonic() + DEADLINE
    while True:
        image = rec.raw("GET", "/v2/images/" + image_id, caller="admin").json()
        done = image["status"] == "active" and not image.get("os_glance_import_task")
        if done or image.get("os_glance_failed_import"):
            return image
        assert time.monotonic() < deadline, ("did not settle", image_id, image)
        time.sleep(0.2)


def patch(rec, name, ops, caller="member", media_type=PATCH_TYPE, path=ONE):
    """PATCH ``path`` with the JSON-patch ``ops`` as ``media_type``."""
    return rec.call(
        name,
        "PATCH",
        path,
        caller=caller,
        data=json.dumps(ops),
        headers={"Content-Type": media_type},
    )


def upload(rec, name, content_type="application/octet-stream", note=None):
    """PUT ``DATA`` to the case's image's ``/file`` as ``content_type``."""
    headers = {"Content-Type": content_type}
    return rec.call(name, "PUT", ONE + "/file", data=DATA, headers=headers, note=note)


def create(rec):
    """POST /v2/images with defaults, with every field, and refused bodies;
    show, show of an unknown id."""
    _, image = rec.image("create_defaults", {})
    rec.case["ids"]["image"] = image["id"]
    rec.call("show_defaults", "GET", ONE)
    full = {
        "name": rec.tag + "-full",
        # Glance never reuses a deleted image's id: one of the run's own
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, rec.tag)),
        "container_format": "bare",
        "disk_format": "qcow2",
        "min_disk": 1,
        "min_ram": 64,
        "protected": False,
        "os_hidden": False,
        "tags": ["red", "blue"],
        "visibility": "private",
        "hw_disk_bus": "virtio",
        "owner_note": "free text",
    }
    _, image = rec.image("create_every_field", full)
    rec.case["ids"]["full"] = image.get("id", "")
    rec.call("create_same_id_409", "POST", "/v2/images", full)
    for key, body in (
        ("property_int", {"name": "x", "foo": 1}),
        ("property_list", {"name": "x", "foo": ["a"]}),
        ("property_null", {"name": "x", "foo": None}),
        ("reserved_os_glance", {"name": "x", "os_glance_foo": "bar"}),
        ("bad_disk_format", {"name": "x", "disk_format": "floppy"}),
        ("bad_container_format", {"name": "x", "container_format": "box"}),
        ("name_too_long", {"name": "n" * 256}),
        ("bad_visibility", {"name": "x", "visibility": "everyone"}),
        ("readonly_status", {"name": "x", "status": "active"}),
        ("readonly_size", {"name": "x", "size": 10}),
        ("readonly_checksum", {"name": "x", "checksum": "abc"}),
        ("bad_min_ram", {"name": "x", "min_ram": -1}),
        ("bad_min_disk_type", {"name": "x", "min_disk": "one"}),
        ("bad_tags_type", {"name": "x", "tags": "red"}),
        ("bad_id", {"name": "x", "id": "not-a-uuid"}),
        ("bad_protected", {"name": "x", "protected": "yes"}),
        ("owner_other", {"name": "x", "owner": rec.ids["other_project"]}),
    ):
        rec.image("create_" + key, body)
    rec.call("create_list_body", "POST", "/v2/images", ["a"])
    rec.call(
        "create_malformed_json",
        "POST",
        "/v2/images",
        data="{bad",
        headers={"Content-Type": "application/json"},
    )
    rec.call(
        "create_scalar_json",
        "POST",
        "/v2/images",
        data="3",
        headers={"Content-Type": "application/json"},
    )
    rec.call(
        "create_public_member_403", "POST", "/v2/images", {"name": "x", "visibility": "public"}
    )
    rec.call("show_unknown", "GET", "/v2/images/0b0c1e3a-0000-4000-8000-000000000000")
    rec.call("show_not_uuid", "GET", "/v2/images/nope")


def listing(rec):
    """Three images of the member, a community and a public one of the
    admin, a hidden one: list filters, visibility values, sorting, paging."""
    images: tuple[dict[str, Any], ...] = (
        {"tags": ["t1", "t2"]},
        {"disk_format": "raw", "hw_x": "1"},
        {"min_ram": 5},
    )
    for i, extra in enumerate(images):
        body = dict(extra, name="%s-l%d" % (rec.tag, i), container_format="bare")
        _, image = rec.image(None, body)
        rec.case["ids"]["l%d" % i] = image["id"]
    _, image = rec.image(None, {"name": rec.tag + "-comm", "visibility": "community"}, "admin")
    rec.case["ids"]["community"] = image["id"]
    _, image = rec.image(None, {"name": rec.tag + "-hidden", "os_hidden": True})
    rec.case["ids"]["hidden"] = image["id"]
    _, image = rec.image(None, {"name": rec.tag + "-mycomm", "visibility": "community"})
    rec.case["ids"]["mycomm"] = image["id"]
    q = "name=%s-l0" % rec.tag
    rec.call("by_name", "GET", "/v2/images", query=q)
    rec.call("by_tag", "GET", "/v2/images", query="tag=t1&owner={member_project}")
    rec.call("by_status", "GET", "/v2/images", query="status=queued&owner={member_project}")
    rec.call("by_disk_format", "GET", "/v2/images", query="disk_format=raw&owner={member_project}")
    rec.call("by_owner", "GET", "/v2/images", query="owner={member_project}")
    for value in ("private", "public", "shared", "community", "all", "bogus"):
        rec.call("visibility_" + value, "GET", "/v2/images", query="visibility=" + value)
    rec.call("default_member", "GET", "/v2/images")
    rec.call("default_admin", "GET", "/v2/images", caller="admin")
    rec.call("community_other_default", "GET", "/v2/images", caller="other")
    rec.call(
        "community_other_visibility",
        "GET",
        "/v2/images",
        caller="other",
        query="visibility=community",
    )
    rec.call("community_other_show", "GET", "/v2/images/{community}", caller="other")
    rec.call("hidden_true", "GET", "/v2/images", query="os_hidden=true")
    rec.call("hidden_bad", "GET", "/v2/images", query="os_hidden=maybe")
    rec.call("hidden_show", "GET", "/v2/images/{hidden}")
    own = "owner={member_project}&"
    rec.call("sort_name_asc", "GET", "/v2/images", query=own + "sort_key=name&sort_dir=asc")
    rec.call("sort_new_syntax", "GET", "/v2/images", query=own + "sort=name:desc")
    rec.call(
        "sort_two_keys",
        "GET",
        "/v2/images",
        query=own + "sort_key=disk_format&sort_key=name&sort_dir=asc&sort_dir=desc",
    )
    rec.call("sort_new_two", "GET", "/v2/images", query=own + "sort=disk_format,name:asc")
    rec.call("sort_marker", "GET", "/v2/images", query=own + "sort=name:asc&limit=2&marker={l0}")
    rec.call("sort_mixed_syntax", "GET", "/v2/images", query=own + "sort=name&sort_key=name")
    rec.call(
        "sort_dirs_mismatch",
        "GET",
        "/v2/images",
        query=own + "sort_key=name&sort_key=id&sort_key=size&sort_dir=asc&sort_dir=desc",
    )
    rec.call("by_property", "GET", "/v2/images", query="hw_x=1&owner={member_project}")
    rec.call("by_two_tags", "GET", "/v2/images", query="tag=t1&tag=t2")
    rec.call("by_container_format", "GET", "/v2/images", query=own + "container_format=bare")
    rec.call("by_protected", "GET", "/v2/images", query=own + "protected=false")
    rec.call("by_size_max", "GET", "/v2/images", query=own + "size_max=10")
    rec.call("by_unknown_key", "GET", "/v2/images", query=own + "nope=1")
    rec.call("by_name_in", "GET", "/v2/images", query="name=in:{tag}-l0,{tag}-l1")
    rec.call("by_name_bad_operator", "GET", "/v2/images", query="name=gt:x")
    rec.call("by_id_bad_operator", "GET", "/v2/images", query="id=gt:x")
    after = own + "created_at=gt:2000-01-01T00:00:00Z"
    rec.call("by_created_at_gt", "GET", "/v2/images", query=after)
    rec.call("by_created_at_lt", "GET", "/v2/images", query=own + "created_at=lt:2000-01-01")
    rec.call("by_created_at_bad", "GET", "/v2/images", query="created_at=gt:yesterday")
    rec.call("by_size_min_bad", "GET", "/v2/images", query="size_min=x")
    rec.call("sort_bad_key", "GET", "/v2/images", query=own + "sort_key=nope")
    rec.call("sort_bad_dir", "GET", "/v2/images", query=own + "sort_key=name&sort_dir=up")
    rec.call("sort_bad_new_dir", "GET", "/v2/images", query=own + "sort=name:up")
    rec.call("limit_2", "GET", "/v2/images", query=own + "limit=2")
    rec.call("marker_l2", "GET", "/v2/images", query=own + "limit=2&marker={l2}")
    rec.call("limit_bad", "GET", "/v2/images", query="limit=x")
    rec.call("limit_negative", "GET", "/v2/images", query="limit=-1")
    rec.call(
        "marker_unknown", "GET", "/v2/images", query="marker=0b0c1e3a-0000-4000-8000-000000000000"
    )
    rec.call("marker_other_invisible", "GET", "/v2/images", caller="other", query="marker={l0}")
    rec.call("member_status_bad", "GET", "/v2/images", query="member_status=nope")
    rec.call("changes_since", "GET", "/v2/images", query="changes-since=2020-01-01")


def patch_ops(rec):
    """JSON patch: each op, bad paths, read-only attributes, media types."""
    _, image = rec.image(None, {"name": rec.tag + "-p", "tags": ["a"]})
    rec.case["ids"]["image"] = image["id"]
    patch(rec, "add_property", [{"op": "add", "path": "/color", "value": "red"}])
    patch(rec, "replace_property", [{"op": "replace", "path": "/color", "value": "blue"}])
    patch(rec, "replace_name", [{"op": "replace", "path": "/name", "value": rec.tag + "-p2"}])
    patch(rec, "add_tag_list", [{"op": "replace", "path": "/tags", "value": ["a", "b"]}])
    patch(rec, "remove_property", [{"op": "remove", "path": "/color"}])
    patch(rec, "remove_missing", [{"op": "remove", "path": "/color"}])
    patch(rec, "replace_missing", [{"op": "replace", "path": "/nothing", "value": "x"}])
    patch(rec, "add_int_property", [{"op": "add", "path": "/n", "value": 1}])
    patch(rec, "reserved_os_glance", [{"op": "add", "path": "/os_glance_x", "value": "1"}])
    for attr, value in (("status", "active"), ("size", 1), ("id", "x"), ("checksum", "x")):
        patch(rec, "readonly_" + attr, [{"op": "replace", "path": "/" + attr, "value": value}])
    patch(rec, "bad_op", [{"op": "frob", "path": "/name", "value": "x"}])
    patch(rec, "bad_path", [{"op": "add", "path": "name", "value": "x"}])
    patch(rec, "deep_path", [{"op": "add", "path": "/a/b", "value": "x"}])
    patch(rec, "no_value", [{"op": "add", "path": "/name"}])
    patch(rec, "not_a_list", {"op": "add", "path": "/name", "value": "x"})
    patch(rec, "bad_visibility", [{"op": "replace", "path": "/visibility", "value": "x"}])
    patch(rec, "bad_media_type", [], media_type="application/json")
    patch(
        rec,
        "draft10_add",
        [{"add": "/x10", "value": "y"}],
        media_type=PATCH_TYPE.replace("2.1", "2.0"),
    )
    patch(rec, "protect", [{"op": "replace", "path": "/protected", "value": True}])
    rec.call("delete_protected_403", "DELETE", ONE)
    patch(rec, "unprotect", [{"op": "replace", "path": "/protected", "value": False}])
    patch(rec, "other_project_404", [{"op": "add", "path": "/x", "value": "1"}], caller="other")
    rec.call("show_after", "GET", ONE)


def data(rec):
    """PUT/GET …/file: upload, second upload, content types, downloads,
    deactivate/reactivate and a deactivated image's data."""
    _, image = rec.image(
        None, {"name": rec.tag + "-d", "disk_format": "raw", "container_format": "bare"}
    )
    rec.case["ids"]["image"] = image["id"]
    rec.call("download_queued", "GET", ONE + "/file")
    upload(rec, "upload_bad_type", content_type="text/plain")
    upload(rec, "upload", note="md5 %s" % hashlib.md5(DATA).hexdigest())
    rec.call("show_uploaded", "GET", ONE)
    upload(rec, "upload_again_409")
    rec.call("download", "GET", ONE + "/file")
    rec.call("download_other_404", "GET", ONE + "/file", caller="other")
    rec.call("deactivate_member", "POST", ONE + "/actions/deactivate")
    rec.call("deactivate_admin", "POST", ONE + "/actions/deactivate", caller="admin")
    rec.call("show_deactivated", "GET", ONE)
    rec.call("download_deactivated_member", "GET", ONE + "/file")
    rec.call("download_deactivated_admin", "GET", ONE + "/file", caller="admin")
    rec.call("reactivate_member", "POST", ONE + "/actions/reactivate")
    rec.call("reactivate_admin", "POST", ONE + "/actions/reactivate", caller="admin")
    rec.call("reactivate_active", "POST", ONE + "/actions/reactivate", caller="admin")
    _, queued = rec.image(None, {"name": rec.tag + "-q"})
    rec.case["ids"]["queued"] = queued["id"]
    rec.call("deactivate_queued", "POST", "/v2/images/{queued}/actions/deactivate", caller="admin")
    rec.call("delete", "DELETE", ONE)
    rec.call("delete_again", "DELETE", ONE)
    rec.call("download_deleted", "GET", ONE + "/file")


def members(rec):
    """Sharing: members of a private image (403), of a shared one: add,
    list, show, status changes by owner and member, listing as the member."""
    _, image = rec.image(None, {"name": rec.tag + "-m", "visibility": "private"})
    rec.case["ids"]["image"] = image["id"]
    add = {"member": rec.ids["other_project"]}
    rec.call("add_to_private", "POST", ONE + "/members", add)
    patch(rec, "share", [{"op": "replace", "path": "/visibility", "value": "shared"}])
    rec.call("add", "POST", ONE + "/members", add)
    rec.call("add_again", "POST", ONE + "/members", add)
    rec.call("add_no_member", "POST", ONE + "/members", {})
    rec.call("list", "GET", ONE + "/members")
    rec.call("show", "GET", ONE + "/members/{other_project}")
    rec.call("show_as_member", "GET", ONE + "/members/{other_project}", caller="other")
    rec.call("list_as_member", "GET", ONE + "/members", caller="other")
    rec.call(
        "other_lists_pending", "GET", "/v2/images", caller="other", query="member_status=pending"
    )
    rec.call("other_lists_default", "GET", "/v2/images", caller="other")
    path = ONE + "/members/{other_project}"
    rec.call("owner_accepts_403", "PUT", path, {"status": "accepted"})
    rec.call("member_bad_status", "PUT", path, {"status": "maybe"}, caller="other")
    rec.call("member_accepts", "PUT", path, {"status": "accepted"}, caller="other")
    rec.call("other_lists_after", "GET", "/v2/images", caller="other")
    rec.call("member_adds_403", "POST", ONE + "/members", {"member": "x"}, caller="other")
    rec.call("member_deletes_403", "DELETE", path, caller="other")
    rec.call("show_unknown_member", "GET", ONE + "/members/nobody")
    rec.call("remove", "DELETE", path)
    rec.call("remove_again", "DELETE", path)
    rec.call("other_show_after", "GET", ONE, caller="other")
    rec.call("member_schema", "GET", "/v2/schemas/member")
    rec.call("members_schema", "GET", "/v2/schemas/members")


def imports(rec):
    """Discovery (/v2/info/*), stage + glance-direct import, web-download
    and copy-image, the tasks, schemas and metadefs lists."""
    rec.call("info_import", "GET", "/v2/info/import")
    rec.call("info_stores", "GET", "/v2/info/stores")
    rec.call("info_stores_detail_member", "GET", "/v2/info/stores/detail")
    rec.call("info_stores_detail_admin", "GET", "/v2/info/stores/detail", caller="admin")
    _, image = rec.image(
        "create_headers",
        {"name": rec.tag + "-i", "disk_format": "raw", "container_format": "bare"},
    )
    rec.case["ids"]["image"] = image["id"]
    rec.call("import_unstaged", "POST", ONE + "/import", {"method": {"name": "glance-direct"}})
    rec.call(
        "stage",
        "PUT",
        ONE + "/stage",
        data=DATA,
        headers={"Content-Type": "application/octet-stream"},
    )
    rec.call("show_staged", "GET", ONE)
    rec.call(
        "stage_again",
        "PUT",
        ONE + "/stage",
        data=DATA,
        headers={"Content-Type": "application/octet-stream"},
    )
    rec.call("import_no_method", "POST", ONE + "/import", {})
    rec.call("import_unknown_method", "POST", ONE + "/import", {"method": {"name": "nope"}})
    rec.call("import", "POST", ONE + "/import", {"method": {"name": "glance-direct"}})
    settle(rec, image["id"])
    rec.call("show_imported", "GET", ONE)
    copy = {"method": {"name": "copy-image"}, "stores": ["file"]}
    rec.call("copy_image_same_store", "POST", ONE + "/import", copy)
    rec.call("copy_image_admin", "POST", ONE + "/import", copy, caller="admin")
    every = {"method": {"name": "copy-image"}, "all_stores": True}
    rec.call("copy_image_all_stores", "POST", ONE + "/import", every, caller="admin")
    rec.call("import_active", "POST", ONE + "/import", {"method": {"name": "glance-direct"}})
    _, web = rec.image(
        None, {"name": rec.tag + "-w", "disk_format": "raw", "container_format": "bare"}
    )
    rec.case["ids"]["web"] = web["id"]
    for key, uri in (
        ("port", "http://127.0.0.1:9/x.img"),
        ("scheme", "ftp://127.0.0.1/x.img"),
        ("no_uri", None),
    ):
        method = {"name": "web-download"}
        if uri:
            method["uri"] = uri
        rec.call("web_download_" + key, "POST", "/v2/images/{web}/import", {"method": method})
    # port 80 of the loopback: Glance 33.0.0 refuses loopback hosts as well
    web = {"method": {"name": "web-download", "uri": "http://127.0.0.1/nothing.img"}}
    rec.call("web_download_loopback", "POST", "/v2/images/{web}/import", web)
    rec.call("web_download_active", "POST", ONE + "/import", web)
    rec.call("show_web_after", "GET", "/v2/images/{web}")
    rec.call(
        "copy_image_queued",
        "POST",
        "/v2/images/{web}/import",
        {"method": {"name": "copy-image"}, "stores": ["file"]},
    )
    rec.call("tasks", "GET", "/v2/tasks")
    rec.call("tasks_admin", "GET", "/v2/tasks", caller="admin")
    rec.call("image_tasks", "GET", ONE + "/tasks")
    rec.call("schema_image", "GET", "/v2/schemas/image")
    rec.call("schema_images", "GET", "/v2/schemas/images")
    rec.call("schema_task", "GET", "/v2/schemas/task")
    rec.call("metadefs_namespaces", "GET", "/v2/metadefs/namespaces", query="limit=2")


CASES = {
    "create": create,
    "listing": listing,
    "patch": patch_ops,
    "data": data,
    "members": members,
    "imports": imports,
}
