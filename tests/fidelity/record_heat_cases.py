"""The cases ``record_heat.py`` records: one function per fixture file, each
sending its requests through a ``Recorder`` (``rec.call`` records one
exchange; ``rec.raw`` and ``rec.wait`` do not)."""

import copy
import time
from typing import Any

from tests.fidelity import heat_templates as T


def _first(items, **match):
    return next(i for i in items if all(i.get(k) == v for k, v in match.items()))


def lifecycle(rec):
    """BASIC created, shown, listed, its resources, events, outputs; updated
    (PATCH existing, PUT replacing), actions, export, abandon, deleted."""
    name = rec.tag + "-basic"
    body = {
        "template": T.BASIC,
        "parameters": {"length": 12},
        "timeout_mins": 10,
        "disable_rollback": True,
        "tags": ["red", "blue"],
    }
    # heat takes tags as one comma-separated string (heatclient sends that)
    rec.create(name, body, record="create_tags_as_list")
    body["tags"] = "red,blue"
    status, answer = rec.create(name, body, record="create")
    assert status == 201, answer
    sid = answer["stack"]["id"]
    rec.case["ids"].update(name=name, id=sid)
    rec.call("show_in_progress", "GET", "/stacks/{name}/{id}")
    rec.call("lookup_by_name_302", "GET", "/stacks/{name}")
    rec.call("lookup_by_id_302", "GET", "/stacks/{id}")
    rec.call("lookup_resources_302", "GET", "/stacks/{name}/resources", query="nested_depth=1")
    rec.call("lookup_events_302", "GET", "/stacks/{name}/events", query="sort_dir=asc&limit=2")
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_complete", "GET", "/stacks/{name}/{id}")
    rec.call("show_without_outputs", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False")
    rec.call("outputs_list", "GET", "/stacks/{name}/{id}/outputs")
    rec.call("output_show", "GET", "/stacks/{name}/{id}/outputs/rand_value")
    rec.call("output_show_unknown", "GET", "/stacks/{name}/{id}/outputs/nope")
    rec.call("template_show", "GET", "/stacks/{name}/{id}/template")
    rec.call("environment_show", "GET", "/stacks/{name}/{id}/environment")
    rec.call("files_show", "GET", "/stacks/{name}/{id}/files")
    rec.call("list", "GET", "/stacks")
    rec.call("detail", "GET", "/stacks/detail")
    # resources
    rec.call("resources", "GET", "/stacks/{name}/{id}/resources")
    rec.call(
        "resources_with_detail", "GET", "/stacks/{name}/{id}/resources", query="with_detail=True"
    )
    rec.call(
        "resources_by_type", "GET", "/stacks/{name}/{id}/resources", query="type=OS::Heat::None"
    )
    rec.call("resources_by_name", "GET", "/stacks/{name}/{id}/resources", query="name=rand")
    rec.call(
        "resources_by_status", "GET", "/stacks/{name}/{id}/resources", query="status=COMPLETE"
    )
    rec.call(
        "resources_bad_nested_depth",
        "GET",
        "/stacks/{name}/{id}/resources",
        query="nested_depth=x",
    )
    rec.call("resource_show", "GET", "/stacks/{name}/{id}/resources/rand")
    rec.call("resource_show_test", "GET", "/stacks/{name}/{id}/resources/slow")
    rec.call("resource_show_unknown", "GET", "/stacks/{name}/{id}/resources/ghost")
    rec.call("resource_metadata", "GET", "/stacks/{name}/{id}/resources/rand/metadata")
    rec.call(
        "signal_not_signallable", "POST", "/stacks/{name}/{id}/resources/rand/signal", {"a": 1}
    )
    rec.call("signal_unknown_resource", "POST", "/stacks/{name}/{id}/resources/ghost/signal", {})
    rec.call(
        "mark_unhealthy",
        "PATCH",
        "/stacks/{name}/{id}/resources/none",
        {"mark_unhealthy": True, "resource_status_reason": "broken by hand"},
    )
    rec.call("resource_show_unhealthy", "GET", "/stacks/{name}/{id}/resources/none")
    rec.call(
        "show_after_mark_unhealthy", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False"
    )
    rec.call(
        "mark_unhealthy_bad_body",
        "PATCH",
        "/stacks/{name}/{id}/resources/none",
        {"mark_unhealthy": "perhaps"},
    )
    rec.call(
        "mark_unhealthy_unknown_key",
        "PATCH",
        "/stacks/{name}/{id}/resources/none",
        {"mark_unhealthy": False, "color": "red"},
    )
    rec.call(
        "mark_healthy", "PATCH", "/stacks/{name}/{id}/resources/none", {"mark_unhealthy": False}
    )
    rec.call("resource_show_healthy_again", "GET", "/stacks/{name}/{id}/resources/none")
    # events
    status, events = rec.call(
        "events_asc", "GET", "/stacks/{name}/{id}/events", query="sort_dir=asc"
    )
    first = events["events"][0]["id"]
    rec.case["ids"]["first_event"] = first
    rec.call("events_default_order", "GET", "/stacks/{name}/{id}/events")
    rec.call(
        "events_desc_limit", "GET", "/stacks/{name}/{id}/events", query="sort_dir=desc&limit=2"
    )
    rec.call(
        "events_marker",
        "GET",
        "/stacks/{name}/{id}/events",
        query="sort_dir=asc&marker={first_event}&limit=3".format(first_event=first),
    )
    rec.call("events_bad_marker", "GET", "/stacks/{name}/{id}/events", query="marker=nope")
    rec.call(
        "events_resource_name", "GET", "/stacks/{name}/{id}/events", query="resource_name=rand"
    )
    rec.call(
        "events_stack_level", "GET", "/stacks/{name}/{id}/events", query="resource_name=" + name
    )
    rec.call(
        "events_filters",
        "GET",
        "/stacks/{name}/{id}/events",
        query="resource_action=CREATE&resource_status=COMPLETE&resource_type=OS::Heat::None",
    )
    rec.call(
        "events_sort_keys",
        "GET",
        "/stacks/{name}/{id}/events",
        query="sort_keys=resource_name&sort_dir=asc",
    )
    rec.call("events_bad_limit", "GET", "/stacks/{name}/{id}/events", query="limit=-1")
    status, rand_events = rec.call(
        "resource_events", "GET", "/stacks/{name}/{id}/resources/rand/events"
    )
    rec.case["ids"]["rand_event"] = rand_events["events"][0]["id"]
    rec.call("event_show", "GET", "/stacks/{name}/{id}/resources/rand/events/{rand_event}")
    rec.call(
        "event_show_wrong_resource", "GET", "/stacks/{name}/{id}/resources/val/events/{rand_event}"
    )
    rec.call(
        "event_show_unknown",
        "GET",
        "/stacks/{name}/{id}/resources/rand/events/00000000-0000-0000-0000-000000000000",
    )
    rec.call(
        "resource_events_unknown_resource", "GET", "/stacks/{name}/{id}/resources/ghost/events"
    )
    # updates
    rec.call(
        "preview_update_patch",
        "PATCH",
        "/stacks/{name}/{id}/preview",
        {"parameters": {"label": "two"}},
    )
    rec.call("update_patch", "PATCH", "/stacks/{name}/{id}", {"parameters": {"label": "two"}})
    rec.call(
        "show_update_in_progress", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False"
    )
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_after_patch", "GET", "/stacks/{name}/{id}")
    rec.call("resource_val_after_patch", "GET", "/stacks/{name}/{id}/resources/val")
    replace = {"template": T.basic_replace(), "parameters": {"length": 12, "label": "two"}}
    rec.call("preview_update_put", "PUT", "/stacks/{name}/{id}/preview", replace)
    rec.call("update_put", "PUT", "/stacks/{name}/{id}", replace)
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_after_put", "GET", "/stacks/{name}/{id}")
    rec.call("resources_after_put", "GET", "/stacks/{name}/{id}/resources")
    rec.call("events_after_put", "GET", "/stacks/{name}/{id}/events", query="sort_dir=asc")
    rec.call("update_put_without_template", "PUT", "/stacks/{name}/{id}", {"parameters": {}})
    rec.call(
        "update_put_unknown_type",
        "PUT",
        "/stacks/{name}/{id}",
        {
            "template": {
                "heat_template_version": T.VERSION,
                "resources": {"x": {"type": "OS::No::Such"}},
            }
        },
    )
    # actions
    rec.call(
        "cancel_update_when_complete",
        "POST",
        "/stacks/{name}/{id}/actions",
        {"cancel_update": None},
    )
    rec.call("action_unknown", "POST", "/stacks/{name}/{id}/actions", {"explode": None})
    rec.call(
        "action_two", "POST", "/stacks/{name}/{id}/actions", {"suspend": None, "resume": None}
    )
    rec.call("suspend", "POST", "/stacks/{name}/{id}/actions", {"suspend": None})
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_suspended", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False")
    rec.call("resume", "POST", "/stacks/{name}/{id}/actions", {"resume": None})
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_resumed", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False")
    rec.call("check", "POST", "/stacks/{name}/{id}/actions", {"check": None})
    rec.wait("/stacks/%s/%s" % (name, sid))
    rec.call("show_checked", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False")
    rec.call("resources_after_check", "GET", "/stacks/{name}/{id}/resources")
    rec.call(
        "events_stack_level_all",
        "GET",
        "/stacks/{name}/{id}/events",
        query="sort_dir=asc&resource_name=" + name,
    )
    rec.call("export", "GET", "/stacks/{name}/{id}/export")
    rec.call("abandon", "DELETE", "/stacks/{name}/{id}/abandon")
    # delete
    rec.call("delete", "DELETE", "/stacks/{name}/{id}")
    rec.call(
        "show_delete_in_progress", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False"
    )
    rec.wait("/stacks/%s/%s" % (name, sid), gone_ok=True)
    rec.call("show_deleted_by_id", "GET", "/stacks/{name}/{id}")
    rec.call("lookup_deleted_by_name", "GET", "/stacks/{name}")
    rec.call("lookup_deleted_by_id", "GET", "/stacks/{id}")
    rec.call("resources_of_deleted", "GET", "/stacks/{name}/{id}/resources")
    rec.call(
        "events_of_deleted", "GET", "/stacks/{name}/{id}/events", query="sort_dir=asc&limit=3"
    )
    rec.call("list_after_delete", "GET", "/stacks")
    rec.call("list_show_deleted", "GET", "/stacks", query="show_deleted=True")
    rec.call("delete_again", "DELETE", "/stacks/{name}/{id}")
    rec.call("show_unknown_id", "GET", "/stacks/{name}/00000000-0000-0000-0000-000000000000")
    rec.call("lookup_unknown_name", "GET", "/stacks/no-such-stack-" + rec.tag)


def deleted(rec):
    """A stack's answers right after DELETE_COMPLETE and once purged."""
    name = rec.tag + "-gone"
    none = {"heat_template_version": T.VERSION, "resources": {"n": {"type": "OS::Heat::None"}}}
    status, answer = rec.create(name, {"template": none})
    assert status == 201, answer
    rec.case["ids"].update(name=name, id=answer["stack"]["id"])
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call("delete", "DELETE", "/stacks/{name}/{id}")
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]), gone_ok=True)
    rec.call("show_deleted_by_id", "GET", "/stacks/{name}/{id}")
    rec.call("lookup_deleted_by_name", "GET", "/stacks/{name}")
    rec.call("list_show_deleted", "GET", "/stacks", query="show_deleted=True")
    # heat writes DELETE_COMPLETE, then soft-deletes the row (purge_db): the
    # answers above came in between; these come after (bounded wait)
    deadline = time.monotonic() + 30
    while rec.raw("GET", "/stacks/" + name).status_code != 404 and time.monotonic() < deadline:
        time.sleep(0.5)
    rec.call("lookup_by_name_after_purge", "GET", "/stacks/{name}")
    rec.call("lookup_by_id_after_purge", "GET", "/stacks/{id}")
    rec.call("show_by_id_after_purge", "GET", "/stacks/{name}/{id}")
    rec.call("resources_after_purge", "GET", "/stacks/{name}/{id}/resources")
    rec.call("events_after_purge", "GET", "/stacks/{name}/{id}/events", query="limit=2")
    rec.call("delete_after_purge", "DELETE", "/stacks/{name}/{id}")
    rec.call("list_after_purge", "GET", "/stacks")
    rec.call("list_show_deleted_after_purge", "GET", "/stacks", query="show_deleted=True")


def failures(rec):
    """A TestResource that fails: with rollback off (heatclient's default)
    and on; and a create that times out."""
    for label, rollback in (("norollback", True), ("rollback", False)):
        name = "%s-fail-%s" % (rec.tag, label)
        body = {"template": T.FAILING, "disable_rollback": rollback}
        status, answer = rec.create(name, body, record="create_" + label)
        assert status == 201, answer
        sid = answer["stack"]["id"]
        ids = {label: name, label + "_id": sid}
        rec.wait("/stacks/%s/%s" % (name, sid))
        path = "/stacks/{%s}/{%s_id}" % (label, label)
        rec.call("show_" + label, "GET", path, **ids)
        rec.call("resources_" + label, "GET", path + "/resources")
        rec.call("resource_bad_" + label, "GET", path + "/resources/bad")
        rec.call("events_" + label, "GET", path + "/events", query="sort_dir=asc")
    name = rec.tag + "-timeout"
    body = {
        "template": {
            "heat_template_version": T.VERSION,
            "resources": {
                "sleepy": {"type": "OS::Heat::TestResource", "properties": {"wait_secs": 120}}
            },
        },
        "timeout_mins": 1,
    }
    status, answer = rec.create(name, body, record="create_timeout")
    assert status == 201, answer
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call(
        "show_timeout",
        "GET",
        "/stacks/{timeout}/{timeout_id}",
        timeout=name,
        timeout_id=answer["stack"]["id"],
    )
    rec.call(
        "events_timeout", "GET", "/stacks/{timeout}/{timeout_id}/events", query="sort_dir=asc"
    )


def nested(rec):
    """A ResourceGroup of RandomString; a template resource mapped by the
    environment and an OS::Heat::Stack; nested_depth and show_nested."""
    name = rec.tag + "-group"
    status, answer = rec.create(name, {"template": T.GROUP}, record="create_group")
    assert status == 201, answer
    rec.case["ids"].update(group=name, group_id=answer["stack"]["id"])
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call("show_group", "GET", "/stacks/{group}/{group_id}")
    rec.call("resources_group", "GET", "/stacks/{group}/{group_id}/resources")
    rec.call(
        "resources_group_depth1",
        "GET",
        "/stacks/{group}/{group_id}/resources",
        query="nested_depth=1",
    )
    status, res = rec.call("resource_group", "GET", "/stacks/{group}/{group_id}/resources/group")
    rec.call(
        "events_group_depth1",
        "GET",
        "/stacks/{group}/{group_id}/events",
        query="nested_depth=1&sort_dir=asc",
    )
    rec.call("list_show_nested", "GET", "/stacks", query="show_nested=True")
    rec.call("list_not_nested", "GET", "/stacks")
    nested_link = _first(res["resource"]["links"], rel="nested")["href"]
    inner = nested_link.rsplit("/", 2)
    rec.case["ids"].update(inner=inner[-2], inner_id=inner[-1])
    rec.call("show_group_inner", "GET", "/stacks/{inner}/{inner_id}")
    rec.call("resources_group_inner", "GET", "/stacks/{inner}/{inner_id}/resources")
    rec.call("delete_inner_directly", "DELETE", "/stacks/{inner}/{inner_id}")
    name = rec.tag + "-nest"
    body = {"template": T.NESTING, "environment": T.NESTING_ENV, "files": T.NESTING_FILES}
    status, answer = rec.create(name, body, record="create_nesting")
    assert status == 201, answer
    rec.case["ids"].update(nest=name, nest_id=answer["stack"]["id"])
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call("show_nesting", "GET", "/stacks/{nest}/{nest_id}")
    rec.call(
        "resources_nesting_depth2",
        "GET",
        "/stacks/{nest}/{nest_id}/resources",
        query="nested_depth=2",
    )
    rec.call("resource_thing", "GET", "/stacks/{nest}/{nest_id}/resources/thing")
    rec.call("resource_child", "GET", "/stacks/{nest}/{nest_id}/resources/child")
    rec.call("environment_nesting", "GET", "/stacks/{nest}/{nest_id}/environment")
    rec.call("files_nesting", "GET", "/stacks/{nest}/{nest_id}/files")
    rec.call(
        "events_nesting_depth1",
        "GET",
        "/stacks/{nest}/{nest_id}/events",
        query="nested_depth=1&sort_dir=asc",
    )


def listing(rec):
    """List filters, sorting, paging and tags over three small stacks."""
    none = {"heat_template_version": T.VERSION, "resources": {"n": {"type": "OS::Heat::None"}}}
    made = []
    for suffix, tags in (("a", "x,y"), ("b", "y"), ("c", None)):
        body: dict[str, Any] = {"template": none}
        if tags:
            body["tags"] = tags
        status, answer = rec.create("%s-l%s" % (rec.tag, suffix), body)
        assert status == 201, answer
        made.append(("%s-l%s" % (rec.tag, suffix), answer["stack"]["id"]))
        rec.case["ids"]["l" + suffix] = answer["stack"]["id"]
    for lname, lid in made:
        rec.wait("/stacks/%s/%s" % (lname, lid))
    queries = {
        "all": "",
        "name": "name=%s-lb" % rec.tag,
        "status": "status=COMPLETE",
        "action_status": "action=CREATE&status=COMPLETE",
        "sort_name_asc": "sort_keys=stack_name&sort_dir=asc",
        "sort_name_desc": "sort_keys=stack_name&sort_dir=desc",
        "sort_created": "sort_keys=created_at&sort_dir=asc",
        "sort_bad_key": "sort_keys=color",
        "sort_bad_dir": "sort_dir=sideways",
        "limit1": "limit=1&sort_keys=stack_name&sort_dir=asc",
        "marker": "limit=1&sort_keys=stack_name&sort_dir=asc&marker=" + made[0][1],
        "bad_marker": "marker=00000000-0000-0000-0000-000000000000",
        "bad_limit": "limit=abc",
        "tags": "tags=y",
        "tags_all": "tags=x,y",
        "tags_any": "tags_any=x,q",
        "not_tags": "not_tags=y",
        "not_tags_any": "not_tags_any=x,q",
        "with_count": "with_count=True",
        "unknown_filter": "color=red",
        "id_filter": "id=" + made[2][1],
        "global_tenant_member": "global_tenant=True",
    }
    for key, query in queries.items():
        rec.call("list_" + key, "GET", "/stacks", query=query)
    rec.call(
        "list_global_tenant_admin",
        "GET",
        "/stacks",
        query="global_tenant=True&name=%s-la" % rec.tag,
        caller="admin",
    )


def refusals(rec):
    """Each refusal of heat_templates.REFUSALS at create and at validate;
    duplicate names, bad names, a size over the limit, other projects."""
    for key, body in T.REFUSALS:
        stack_name = "%s-r-%s" % (rec.tag, key.replace("_", "-"))
        rec.create(stack_name, copy.deepcopy(body), record="create_" + key)
        validate = {
            k: v
            for k, v in body.items()
            if k in ("template", "parameters", "environment", "files")
        }
        rec.call("validate_" + key, "POST", "/validate", validate)
    ok = {
        "template": {
            "heat_template_version": T.VERSION,
            "resources": {"n": {"type": "OS::Heat::None"}},
        }
    }
    status, answer = rec.create(rec.tag + "-dup", ok, record="create_first")
    assert status == 201, answer
    rec.case["ids"].update(dup=rec.tag + "-dup", dup_id=answer["stack"]["id"])
    rec.create(rec.tag + "-dup", ok, record="create_duplicate_name")
    for key, bad in (
        ("digit_first", "1abc"),
        ("space", "a b"),
        ("too_long", "a" * 256),
        ("empty", ""),
    ):
        rec.create(bad, ok, record="create_bad_name_" + key)
    rec.call("create_no_name", "POST", "/stacks", ok)
    rec.call(
        "create_bad_timeout",
        "POST",
        "/stacks",
        dict(ok, stack_name=rec.tag + "-to", timeout_mins="soon"),
    )
    rec.call(
        "create_unknown_body_key",
        "POST",
        "/stacks",
        dict(ok, stack_name=rec.tag + "-uk", colour="red"),
    )
    big = {"heat_template_version": T.VERSION, "description": "x" * 530000, "resources": {}}
    rec.create(rec.tag + "-big", {"template": big}, record="create_template_too_big")
    rec.call("validate_template_too_big", "POST", "/validate", {"template": big})
    huge = {"heat_template_version": T.VERSION, "description": "x" * 1100000, "resources": {}}
    rec.create(rec.tag + "-huge", {"template": huge}, record="create_body_too_big")
    rec.call("create_not_json", "POST", "/stacks", text="{not json", note="body: '{not json'")
    rec.call("validate_ok", "POST", "/validate", {"template": T.BASIC})
    rec.call(
        "validate_show_nested",
        "POST",
        "/validate",
        {"template": T.NESTING, "environment": T.NESTING_ENV, "files": T.NESTING_FILES},
        query="show_nested=True",
    )
    rec.wait("/stacks/%s/%s" % (rec.tag + "-dup", rec.case["ids"]["dup_id"]))
    # another project's stack, seen by the member
    status, answer = rec.create(rec.tag + "-adm", ok, caller="admin")
    assert status == 201, answer
    rec.case["ids"].update(adm=rec.tag + "-adm", adm_id=answer["stack"]["id"])
    rec.wait("/stacks/%s/%s" % (rec.tag + "-adm", answer["stack"]["id"]), caller="admin")
    rec.call("other_project_stack_in_own_path", "GET", "/stacks/{adm}/{adm_id}")
    rec.call("other_project_lookup_in_own_path", "GET", "/stacks/{adm}")
    rec.call(
        "other_project_path", "GET", "/stacks/{adm}/{adm_id}", project=rec.ids["admin_project"]
    )
    rec.call("other_project_list", "GET", "/stacks", project=rec.ids["admin_project"])
    rec.call(
        "admin_sees_member_stack",
        "GET",
        "/stacks/{dup}/{dup_id}",
        caller="admin",
        project=rec.ids["member_project"],
    )
    rec.call("admin_member_stack_in_admin_path", "GET", "/stacks/{dup}/{dup_id}", caller="admin")
    rec.call("member_deletes_admin_stack", "DELETE", "/stacks/{adm}/{adm_id}")


def types(rec):
    """resource_types, template_versions (+ functions), build_info."""
    rec.call("resource_types", "GET", "/resource_types")
    rec.call(
        "resource_types_with_description", "GET", "/resource_types", query="with_description=true"
    )
    rec.call(
        "resource_types_name_filter", "GET", "/resource_types", query="name=OS::Heat::Random*"
    )
    rec.call(
        "resource_types_support_status",
        "GET",
        "/resource_types",
        query="support_status=DEPRECATED",
    )
    rec.call(
        "resource_types_bad_support_status",
        "GET",
        "/resource_types",
        query="support_status=SOMEDAY",
    )
    for rtype in (
        "OS::Heat::RandomString",
        "OS::Heat::TestResource",
        "OS::Heat::ResourceGroup",
        "OS::Heat::SoftwareDeployment",
        "OS::Nova::Server",
    ):
        rec.call("resource_type_" + rtype.split("::")[-1], "GET", "/resource_types/" + rtype)
    rec.call(
        "resource_type_with_description",
        "GET",
        "/resource_types/OS::Heat::Value",
        query="with_description=true",
    )
    rec.call("resource_type_unknown", "GET", "/resource_types/OS::No::Such")
    rec.call("resource_type_template", "GET", "/resource_types/OS::Heat::RandomString/template")
    rec.call(
        "resource_type_template_hot",
        "GET",
        "/resource_types/OS::Heat::RandomString/template",
        query="template_type=hot",
    )
    rec.call("template_versions", "GET", "/template_versions")
    for version in (
        "heat_template_version.2013-05-23",
        "heat_template_version.2016-10-14",
        "heat_template_version.2018-08-31",
        "heat_template_version.2021-04-16",
        "AWSTemplateFormatVersion.2010-09-09",
    ):
        rec.call(
            "functions_" + version.split(".")[-1],
            "GET",
            "/template_versions/%s/functions" % version,
        )
    rec.call(
        "functions_with_condition_func",
        "GET",
        "/template_versions/heat_template_version.2021-04-16/functions",
        query="with_condition_func=true",
    )
    rec.call(
        "functions_unknown_version",
        "GET",
        "/template_versions/heat_template_version.2099-01-01/functions",
    )
    rec.call("build_info", "GET", "/build_info")


def preview(rec):
    """POST /stacks/preview of BASIC, GROUP and NESTING."""
    rec.call(
        "preview_basic",
        "POST",
        "/stacks/preview",
        {"stack_name": rec.tag + "-pv", "template": T.BASIC},
    )
    rec.call(
        "preview_group",
        "POST",
        "/stacks/preview",
        {"stack_name": rec.tag + "-pvg", "template": T.GROUP},
    )
    rec.call(
        "preview_nesting",
        "POST",
        "/stacks/preview",
        {
            "stack_name": rec.tag + "-pvn",
            "template": T.NESTING,
            "environment": T.NESTING_ENV,
            "files": T.NESTING_FILES,
        },
    )
    rec.call(
        "preview_unknown_type",
        "POST",
        "/stacks/preview",
        {"stack_name": rec.tag + "-pvu", "template": T.REFUSALS[0][1]["template"]},
    )


def deployment(rec):
    """A server (fake driver), a script config and a NO_SIGNAL deployment."""
    flavor = rec._admin(
        "POST",
        "http://127.0.0.1:8774/v2.1/flavors",
        {"flavor": {"name": rec.tag + "-tiny", "ram": 64, "vcpus": 1, "disk": 1}},
    )
    rec.created.append(("flavor", "admin", flavor["flavor"]["id"]))
    name = rec.tag + "-deploy"
    tmpl = T.deployment(rec.tag + "-tiny", "cirros")
    status, answer = rec.create(name, {"template": tmpl}, record="create_deployment")
    assert status == 201, answer
    rec.case["ids"].update(dep=name, dep_id=answer["stack"]["id"], flavor=rec.tag + "-tiny")
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call("show_deployment", "GET", "/stacks/{dep}/{dep_id}")
    rec.call("resources_deployment", "GET", "/stacks/{dep}/{dep_id}/resources")
    for res in ("server", "config", "deploy"):
        rec.call("resource_" + res, "GET", "/stacks/{dep}/{dep_id}/resources/" + res)
    status, body = rec.call(
        "server_metadata", "GET", "/stacks/{dep}/{dep_id}/resources/server/metadata"
    )
    rec.call("software_deployments", "GET", "/software_deployments")
    rec.call("events_deployment", "GET", "/stacks/{dep}/{dep_id}/events", query="sort_dir=asc")
    rec.call(
        "signal_no_signal_deployment",
        "POST",
        "/stacks/{dep}/{dep_id}/resources/deploy/signal",
        {"deploy_status_code": 0, "deploy_stdout": "hi"},
    )
    update = {"template": copy.deepcopy(tmpl)}
    update["template"]["resources"]["deploy"]["properties"]["input_values"] = {"name": "again"}
    rec.call("update_input_values", "PUT", "/stacks/{dep}/{dep_id}", update)
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]))
    rec.call("show_after_update", "GET", "/stacks/{dep}/{dep_id}")
    rec.call("resources_after_update", "GET", "/stacks/{dep}/{dep_id}/resources")
    rec.call("delete_deployment_stack", "DELETE", "/stacks/{dep}/{dep_id}")
    rec.wait("/stacks/%s/%s" % (name, answer["stack"]["id"]), gone_ok=True)
    rec.call("show_deleted_deployment", "GET", "/stacks/{dep}/{dep_id}")


def signals(rec):
    """HEAT_SIGNAL deployments to a fake-driver server, signalled through
    the resource signal API: one with status 0, one with status 1."""
    flavor = rec._admin(
        "POST",
        "http://127.0.0.1:8774/v2.1/flavors",
        {"flavor": {"name": rec.tag + "-sig", "ram": 64, "vcpus": 1, "disk": 1}},
    )
    rec.created.append(("flavor", "admin", flavor["flavor"]["id"]))
    tmpl = T.deployment(rec.tag + "-sig", "cirros")
    tmpl["resources"]["deploy"]["properties"]["signal_transport"] = "HEAT_SIGNAL"
    tmpl["resources"]["bad"] = copy.deepcopy(tmpl["resources"]["deploy"])
    tmpl["outputs"]["stdout"] = {"value": {"get_attr": ["deploy", "deploy_stdout"]}}
    tmpl["outputs"]["result"] = {"value": {"get_attr": ["deploy", "result"]}}
    name = rec.tag + "-signal"
    status, answer = rec.create(name, {"template": tmpl}, record="create")
    assert status == 201, answer
    rec.case["ids"].update(name=name, id=answer["stack"]["id"], flavor=rec.tag + "-sig")
    path = "/stacks/%s/%s" % (name, answer["stack"]["id"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        res = rec.raw("GET", path + "/resources/deploy").json()["resource"]
        if res["resource_status"] == "CREATE_IN_PROGRESS" and res["physical_resource_id"]:
            break
        time.sleep(0.5)
    time.sleep(1)
    rec.call("show_waiting", "GET", "/stacks/{name}/{id}", query="resolve_outputs=False")
    rec.call("resource_waiting", "GET", "/stacks/{name}/{id}/resources/deploy")
    rec.call("deploy_metadata", "GET", "/stacks/{name}/{id}/resources/deploy/metadata")
    rec.call("server_metadata", "GET", "/stacks/{name}/{id}/resources/server/metadata")
    rec.call(
        "signal_ok",
        "POST",
        "/stacks/{name}/{id}/resources/deploy/signal",
        {
            "deploy_status_code": 0,
            "deploy_stdout": "hello stack",
            "deploy_stderr": "",
            "result": "42",
        },
    )
    rec.call(
        "signal_bad",
        "POST",
        "/stacks/{name}/{id}/resources/bad/signal",
        {"deploy_status_code": 1, "deploy_stdout": "", "deploy_stderr": "boom"},
    )
    rec.wait(path)
    rec.call("show_after_signals", "GET", "/stacks/{name}/{id}")
    rec.call("resources_after_signals", "GET", "/stacks/{name}/{id}/resources")
    rec.call("resource_bad", "GET", "/stacks/{name}/{id}/resources/bad")
    rec.call("events", "GET", "/stacks/{name}/{id}/events", query="sort_dir=asc")
    rec.call(
        "signal_after_complete",
        "POST",
        "/stacks/{name}/{id}/resources/deploy/signal",
        {"deploy_status_code": 0},
    )


CASES = {
    "types": types,
    "refusals": refusals,
    "lifecycle": lifecycle,
    "failures": failures,
    "deleted": deleted,
    "nested": nested,
    "listing": listing,
    "preview": preview,
    "deployment": deployment,
    "signals": signals,
}
