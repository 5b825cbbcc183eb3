"""Keystone 30's default policies for the admin API (keystone's
``keystone/common/policies/*.py``; no domain manager).

``admin`` anywhere is ``rule:admin_required`` (keystone's well-known
behaviour: the admin role on any project, or on the system, is cloud
admin). A *system reader* is base.py's ``SYSTEM_READER``: a
system-scoped token with the ``reader`` role (implied by member, manager
and admin); it may read everything a domain reader of every domain may
(below) and the roles, implied roles and system grants. A *domain reader*
is a domain-scoped token with the ``reader`` role on that domain. What
each action allows (keystone's check string, minus the domain manager;
"or a system reader" goes with every read):

* ``get_domain``: admin, or a token scoped to the domain or to one of its
  projects (any role); ``list_domains``: admin or a domain reader (its own
  domain); ``create/update/delete_domain``: admin.
* ``get_project``: admin, a domain reader of the project's domain, or a
  token scoped to that project (any role); ``list_projects``: admin or a
  domain reader; ``list_user_projects``: admin, a domain reader of the
  user's domain, or the user itself; ``create/update/delete_project``:
  admin.
* ``get_user``: admin, a domain reader of the user's domain, or the user
  itself; ``list_users``: admin or a domain reader;
  ``create/update/delete_user``: admin. Changing one's own password
  (``POST /v3/users/{id}/password``) is not a policy: it takes the
  original password.
* roles: ``get/list_role``: admin or a system reader;
  ``create/update/delete_role``: admin. Implied roles likewise
  (``get/list_implied_role(s)``, ``list_role_inference_rules``: admin or
  a system reader; ``create/delete_implied_role``: admin).
* system grants: ``list/check_system_grant_for_user/group``: admin or a
  system reader; ``create/revoke_system_grant_for_*``: admin.
* grants: ``check_grant``: admin, or a domain reader of both the user's and
  the target's domain; ``create/revoke_grant``: admin.
* ``list_role_assignments``: admin or a domain reader. A project member
  cannot list even its own assignments (keystone answers 403 too).

A domain-scoped token lists only its domain's projects, users and
assignments, whatever its roles (keystone filters the answer).
"""

from occli.localcloud import errors

MESSAGE = "You are not authorized to perform the requested action: %s."


def forbidden(action):
    return errors.Forbidden(MESSAGE % ("identity:" + action))


def domain_scope(ctx):
    """The domain a token is scoped to, or None (project-, system-scoped or
    unscoped: an unscoped token has no roles)."""
    if ctx.project_id is None and ctx.roles and not ctx.system_scope:
        return ctx.domain_id
    return None


def system_reader(ctx):
    """keystone's ``role:reader and system_scope:all``."""
    return ctx.system_scope == "all" and "reader" in ctx.roles


def domain_reader(ctx, domain_id):
    """A domain reader of ``domain_id``, or a system reader (who reads
    every domain's)."""
    if system_reader(ctx):
        return True
    scope = domain_scope(ctx)
    return scope is not None and scope == domain_id and "reader" in ctx.roles


def enforce(ctx, action, allowed):
    """Forbidden (``identity:<action>``) unless ``allowed``."""
    if not allowed:
        raise forbidden(action)


def admin_only(ctx, action):
    enforce(ctx, action, ctx.is_admin)


def admin_or_system_reader(ctx, action):
    """``rule:admin_required or (role:reader and system_scope:all)``."""
    enforce(ctx, action, ctx.is_admin or system_reader(ctx))


def admin_or_domain_reader(ctx, action):
    """List policies: admin, a system reader or a domain-scoped reader."""
    enforce(
        ctx,
        action,
        ctx.is_admin
        or system_reader(ctx)
        or (domain_scope(ctx) is not None and "reader" in ctx.roles),
    )


def get_domain(ctx, domain_id):
    enforce(
        ctx,
        "get_domain",
        ctx.is_admin
        or system_reader(ctx)
        or (not ctx.system_scope and ctx.domain_id == domain_id and ctx.roles),
    )


def get_project(ctx, project):
    """``project``: the project row (None when it does not exist)."""
    allowed = ctx.is_admin
    if project is not None and not allowed:
        allowed = domain_reader(ctx, project["domain_id"]) or ctx.project_id == project["id"]
    enforce(ctx, "get_project", allowed)


def user_target(ctx, action, user):
    """``get_user`` / ``list_user_projects``: admin, the domain reader of
    the user's domain, the user itself (``user`` None: unknown)."""
    allowed = ctx.is_admin
    if user is not None and not allowed:
        allowed = domain_reader(ctx, user["domain_id"]) or ctx.user_id == user["id"]
    enforce(ctx, action, allowed)


def check_grant(ctx, user_domain_id, target_domain_id):
    enforce(
        ctx,
        "check_grant",
        ctx.is_admin
        or (domain_reader(ctx, user_domain_id) and domain_reader(ctx, target_domain_id)),
    )
