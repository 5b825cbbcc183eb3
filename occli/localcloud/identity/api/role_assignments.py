"""``/v3/role_assignments`` with keystone's filters and checks in its order;
``include_names`` reads each name once (:class:`_Names`)."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.identity import assignments
from occli.localcloud.identity import domains
from occli.localcloud.identity import groups
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import flag
from occli.localcloud.identity.api.common import url


def register(service):
    service.route("GET", "/v3/role_assignments", list_role_assignments)


def list_role_assignments(req):
    """``GET /v3/role_assignments`` with keystone's filters (``user.id``,
    ``role.id``, ``scope.project.id``, ``scope.domain.id``,
    ``include_subtree``, ``effective``, ``include_names``, ``group.id``;
    in effective mode a group's assignments are listed as its members',
    with keystone's ``membership`` link; ``scope.system``: the system
    grants only). There are no inherited assignments here: filtering on
    them lists nothing."""
    arg = req.arg
    ctx = req.context
    project_id = arg("scope.project.id")
    subtree = flag(req, "include_subtree")
    if subtree and not project_id:
        raise errors.BadRequest("'scope.project.id' is a dependency of 'include_subtree'")
    if subtree:
        project = projects.find(req.db, project_id)
        policy.enforce(
            ctx,
            "list_role_assignments_for_tree",
            ctx.is_admin
            or (project is not None and policy.domain_reader(ctx, project["domain_id"])),
        )
        if project is None:
            raise projects.not_found(project_id)
    else:
        policy.admin_or_domain_reader(ctx, "list_role_assignments")
    effective = flag(req, "effective")
    for one, other, message in (
        ("scope.domain.id", "scope.project.id", "Specify a domain or project, not both"),
        ("scope.system", "scope.domain.id", "Specify system or domain, not both"),
        ("scope.system", "scope.project.id", "Specify system or project, not both"),
        ("user.id", "group.id", "Specify a user or group, not both"),
    ):
        if arg(one) and arg(other):
            raise errors.BadRequest(message)
    if effective and arg("group.id"):
        raise errors.BadRequest(
            "Combining effective and group filter will always result in an empty list."
        )
    inherited = arg("scope.OS-INHERIT:inherited_to")
    if effective and inherited == "projects" and arg("scope.domain.id"):
        raise errors.BadRequest(
            "Combining effective, domain and"
            " inherited filters will always result"
            " in an empty list."
        )
    if inherited == "projects":
        return Response(200, collection(req, "role_assignments", []))
    project_ids = None
    if project_id:
        project_ids = projects.subtree_ids(req.db, project_id) if subtree else [project_id]
    found = assignments.list_assignments(
        req.db,
        user_id=arg("user.id"),
        role_id=arg("role.id"),
        project_ids=project_ids,
        domain_id=arg("scope.domain.id"),
        effective=effective,
        group_id=arg("group.id"),
        system=bool(arg("scope.system")),
    )
    scope = policy.domain_scope(ctx)
    if scope is not None:
        in_domain = {r["id"] for r in projects.select(req.db, domain_id=scope)}
        found = [
            a
            for a in found
            if (a["target_type"] == "domain" and a["target_id"] == scope)
            or (a["target_type"] == "project" and a["target_id"] in in_domain)
        ]
    names = _Names(req.db) if flag(req, "include_names") else None
    views = [_assignment_view(req, a, names) for a in found]
    return Response(200, collection(req, "role_assignments", views))


def _assignment_view(req, item, names):
    """Keystone's ``_format_entity``: a group's assignment names the group;
    one a user has through a group links to the group's grant and to the
    membership."""
    kind, target_id = item["target_type"], item["target_id"]
    prior = item["prior_role_id"]
    group_id = item["group_id"] or item["via_group"]
    actor = ("groups", group_id) if group_id else ("users", item["user_id"])
    # a system grant's URL has no target id: /v3/system/users/{id}/roles/{id}
    target = ("system",) if kind == "system" else (kind + "s", target_id)
    grant = url(req, *target, *actor, "roles", prior or item["role_id"])
    links = {"assignment": grant}
    if item["via_group"]:
        links["membership"] = url(req, "groups", item["via_group"], "users", item["user_id"])
    if prior:
        links["prior_role"] = url(req, "prior_role", item["role_id"], "implies", prior)
    scope = {"all": True} if kind == "system" else {"id": target_id}
    view = {"links": links, "scope": {kind: scope}}
    if item["group_id"]:
        view["group"] = {"id": item["group_id"]}
    else:
        view["user"] = {"id": item["user_id"]}
    view["role"] = {"id": item["role_id"]}
    if names is not None:
        if kind != "system":
            view["scope"][kind] = names.target(kind, target_id)
        if item["group_id"]:
            view["group"] = names.group(item["group_id"])
        else:
            view["user"] = names.user(item["user_id"])
        view["role"] = names.role(item["role_id"])
    return view


class _Names:
    """Names for ``include_names``, read once each."""

    # what each kind of row is read with
    _FIND = {
        "domains": domains.find,
        "projects": projects.find,
        "users": users.find,
        "groups": groups.find,
        "roles": assignments.find_role,
    }

    def __init__(self, db):
        self.db = db
        self._rows = {}

    def _row(self, table, row_id):
        """Row ``row_id`` of ``table`` (or None), read once."""
        key = (table, row_id)
        if key not in self._rows:
            self._rows[key] = self._FIND[table](self.db, row_id)
        return self._rows[key]

    def _domain(self, domain_id):
        row = self._row("domains", domain_id)
        return {"id": domain_id, "name": row["name"] if row else None}

    def _named(self, table, row_id):
        """``{"id", "name", "domain"}`` of a project, user or group."""
        row = self._row(table, row_id)
        return {
            "id": row_id,
            "name": row["name"] if row else None,
            "domain": self._domain(row["domain_id"] if row else None),
        }

    def target(self, kind, target_id):
        if kind == "domain":
            return self._domain(target_id)
        return self._named("projects", target_id)

    def user(self, user_id):
        return self._named("users", user_id)

    def group(self, group_id):
        return self._named("groups", group_id)

    def role(self, role_id):
        row = self._row("roles", role_id)
        return {"id": role_id, "name": row["name"] if row else None}
