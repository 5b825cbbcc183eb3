"""Authorization of Heat's stack routes (issue 25), as Heat's default
policies (``heat/policies/*.py``) give it: readers list, show, preview,
look up, signal and ``check``; members create, update, delete, abandon,
export, mark unhealthy, generate a type's template and take the other
actions; another project's stack is "could not be found" (404), another
project's URL a 403 (``before``); ``global_tenant`` is denied to all.

A's member owns one stack (``{stack_name}``/``{stack_id}``) of a
RandomString with an output; writes that are allowed act on a fresh
stack (the ``stack_id`` factory makes it, ``stack_name`` names it).
"""

import time

_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"rand": {"type": "OS::Heat::RandomString"}},
    "outputs": {"value": {"value": {"get_attr": ["rand", "value"]}}},
}
_S = "/v1/{project_id}/stacks"
_STACK = _S + "/{stack_name}/{stack_id}"
_RES = _STACK + "/resources/{resource_name}"


def _new_stack(world):
    """A's new stack, complete; its id (its name in ``world.stack_names``)."""
    from tests.security.test_authz_matrix import _unique

    name = world.secret(_unique("authz-a-stack"))
    body = {"stack_name": name, "template": _TEMPLATE}
    created = world.as_("a_member", "POST", world.heat + "/stacks", json_body=body)
    assert created.status == 201, created.body
    stack_id = world.secret(created.json()["stack"]["id"])
    path = "%s/stacks/%s/%s" % (world.heat, name, stack_id)
    deadline = time.monotonic() + 30
    while True:
        status = world.as_("a_member", "GET", path).json()["stack"]["stack_status"]
        if not status.endswith("IN_PROGRESS"):
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.02)
    assert status == "CREATE_COMPLETE", status
    world.stack_names = getattr(world, "stack_names", {})
    world.stack_names[stack_id] = name
    world.last_stack = stack_id
    return stack_id


def _last_stack_name(world):
    return world.stack_names[world.last_stack]


FACTORIES = {"stack_id": _new_stack, "stack_name": _last_stack_name}


def setup(world, ids):
    ids["stack_id"] = _new_stack(world)
    ids["stack_name"] = _last_stack_name(world)
    ids["resource_name"] = "rand"
    ids["output_key"] = "value"
    ids["type_name"] = "OS::Heat::RandomString"
    ids["template_version"] = "heat_template_version.2018-08-31"
    path = "%s/stacks/%s/%s/events" % (world.heat, ids["stack_name"], ids["stack_id"])
    events = world.as_("a_member", "GET", path).json()["events"]
    ids["event_id"] = world.secret(next(e["id"] for e in events if e["resource_name"] == "rand"))


def _body(ids):
    return {"template": _TEMPLATE}


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    fresh = ("stack_id", "stack_name")
    heat = {
        ("GET", _S): rule("any"),
        ("POST", _S): rule(
            "create",
            201,
            body=lambda ids: {"stack_name": _unique("authz-new"), "template": _TEMPLATE},
        ),
        ("POST", _S + "/preview"): rule(
            "any", body=lambda ids: {"stack_name": _unique("authz-pre"), "template": _TEMPLATE}
        ),
        ("GET", _S + "/detail"): rule("any"),
        ("GET", _STACK): rule("read"),
        ("PUT", _STACK): rule("write", 202, fresh=fresh, body=_body),
        ("PATCH", _STACK): rule("write", 202, fresh=fresh, body=lambda ids: {}),
        ("DELETE", _STACK): rule("write", 204, fresh=fresh),
        ("GET", _STACK + "/template"): rule("read"),
        ("GET", _STACK + "/environment"): rule("read"),
        ("GET", _STACK + "/files"): rule("read"),
        ("PUT", _STACK + "/preview"): rule("write", fresh=fresh, body=_body),
        ("PATCH", _STACK + "/preview"): rule("write", fresh=fresh, body=lambda ids: {}),
        ("DELETE", _STACK + "/abandon"): rule("write", fresh=fresh),
        ("GET", _STACK + "/export"): rule("write"),
        ("GET", _STACK + "/outputs"): rule("read"),
        ("GET", _STACK + "/outputs/{output_key}"): rule("read"),
        ("GET", _STACK + "/resources"): rule("read"),
        ("GET", _RES): rule("read"),
        ("GET", _RES + "/metadata"): rule("read"),
        # a RandomString takes no signal: Heat's 400 for the allowed
        ("POST", _RES + "/signal"): rule("read", 400),
        ("PATCH", _RES): rule("write", body=lambda ids: {"mark_unhealthy": False}),
        ("GET", _STACK + "/events"): rule("read"),
        ("GET", _RES + "/events"): rule("read"),
        ("GET", _RES + "/events/{event_id}"): rule("read"),
        ("POST", _STACK + "/actions"): rule("read", fresh=fresh, body=lambda ids: {"check": None}),
        ("GET", "/v1/{project_id}/resource_types"): rule("any"),
        ("GET", "/v1/{project_id}/resource_types/{type_name}"): rule("any"),
        ("GET", "/v1/{project_id}/resource_types/{type_name}/template"): rule("create"),
        ("GET", "/v1/{project_id}/template_versions"): rule("any"),
        ("GET", "/v1/{project_id}/template_versions/{template_version}/functions"): rule("any"),
        ("GET", "/v1/{project_id}/build_info"): rule("any"),
    }
    # the 302 lookups: a reader's too; another project's name is not found
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        heat[(method, _S + "/{stack_name}")] = rule("read", 302)
    for path in ("resources", "events", "template", "actions", "environment", "files"):
        heat[("GET", _S + "/{stack_name}/" + path)] = rule("read", 302)
    for path in ("resources", "events", "template", "actions"):
        heat[("POST", _S + "/{stack_name}/" + path)] = rule("read", 302)
    return {("orchestration",) + key: value for key, value in heat.items()}
