"""``/v2.0/security-groups`` (list, create, show, update, delete) and
``/v2.0/security-group-rules`` (list, create, show, delete). Listing
either makes the caller's project its ``default`` group if it has none,
so those GETs run in a write transaction."""

from occli.localcloud.app import Response
from occli.localcloud.network import security_groups
from occli.localcloud.network.api import common

GROUPS = common.Collection(
    "security_group",
    "security-groups",
    security_groups.GROUP_ATTRIBUTES,
    security_groups.GROUP_SORT_KEYS,
    security_groups.not_found,
)
RULES = common.Collection(
    "security_group_rule",
    "security-group-rules",
    security_groups.RULE_ATTRIBUTES,
    security_groups.RULE_SORT_KEYS,
    security_groups.rule_not_found,
)


def register(service):
    groups, group = "/v2.0/security-groups", "/v2.0/security-groups/{security_group_id}"
    service.route("GET", groups, list_groups, mode="write")
    service.route("POST", groups, create_group)
    service.route("GET", group, show_group)
    service.route("PUT", group, update_group)
    service.route("DELETE", group, delete_group)
    rules = "/v2.0/security-group-rules"
    rule = "/v2.0/security-group-rules/{security_group_rule_id}"
    service.route("GET", rules, list_rules, mode="write")
    service.route("POST", rules, create_rule)
    service.route("GET", rule, show_rule)
    service.route("DELETE", rule, delete_rule)


def list_groups(req):
    return common.list_body(req, GROUPS, security_groups.listing)


def create_group(req):
    return common.create_body(req, GROUPS, security_groups.create)


def show_group(req):
    found = security_groups.show(req.db, req.context, req.params["security_group_id"])
    return common.show_body(req, GROUPS, found)


def update_group(req):
    group_id = req.params["security_group_id"]
    updated = security_groups.update(req.db, req.context, group_id, req.json())
    return Response(200, {"security_group": common.tagged(req, GROUPS, updated)})


def delete_group(req):
    security_groups.delete(req.db, req.context, req.params["security_group_id"])
    return Response(204)


def list_rules(req):
    return common.list_body(req, RULES, security_groups.rule_listing)


def create_rule(req):
    return common.create_body(req, RULES, security_groups.create_rule)


def show_rule(req):
    found = security_groups.show_rule(req.db, req.context, req.params["security_group_rule_id"])
    return common.show_body(req, RULES, found)


def delete_rule(req):
    security_groups.delete_rule(req.db, req.context, req.params["security_group_rule_id"])
    return Response(204)
