"""The seeded identities: domain ``default``/``Default``, projects
``admin``, ``demo`` and ``alt``, the roles ``keystone-manage bootstrap``
makes (``admin``, ``manager``, ``member``, ``reader``, ``service``, with
admin ⇒ manager ⇒ member ⇒ reader implied), users ``admin`` (admin on
projects admin and demo, on the default domain and, as bootstrap grants
it, on the system), ``demo`` (member on demo) and ``alt`` (member on alt: a second
project for two-project scenarios). Idempotent: a restart keeps the ids
and applies changed passwords.

The devstack profile (:func:`seed_devstack`) makes instead what devstack's
lib/keystone create_keystone_accounts does: projects ``admin``,
``service``, ``demo``, ``alt_demo`` and ``invisible_to_admin``, the roles
``ResellerAdmin`` and ``anotherrole`` besides bootstrap's, users ``demo``
and ``alt_demo`` with that function's project roles."""

from occli.localcloud.identity import assignments
from occli.localcloud.identity import implied_roles
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.projects import DEFAULT_DOMAIN


def _bootstrap(db):
    """keystone-manage bootstrap's domain and roles: the roles' ids by name."""
    projects.ensure_domain(db, DEFAULT_DOMAIN, "Default", "The default domain")
    roles = {name: assignments.ensure_role(db, name) for name in assignments.IMMUTABLE_ROLES}
    rows = {name: assignments.get_role(db, roles[name]) for name in roles}
    for prior, implied in (("member", "reader"), ("manager", "member"), ("admin", "manager")):
        implied_roles.ensure(db, rows[prior], rows[implied])
    return roles


def seed(db, admin_password, demo_password, alt_password):
    roles = _bootstrap(db)
    admin_project = projects.ensure_project(db, "admin")
    demo_project = projects.ensure_project(db, "demo")
    alt_project = projects.ensure_project(db, "alt")
    admin = users.ensure_user(db, "admin", admin_password, admin_project)
    demo = users.ensure_user(db, "demo", demo_password, demo_project)
    alt = users.ensure_user(db, "alt", alt_password, alt_project)
    for user, target_type, target, role in (
        (admin, "project", admin_project, "admin"),
        (admin, "project", demo_project, "admin"),
        (admin, "domain", DEFAULT_DOMAIN, "admin"),
        (demo, "project", demo_project, "member"),
        (alt, "project", alt_project, "member"),
    ):
        assignments.assign(db, user, target_type, target, roles[role])
    assignments.assign_system(db, admin, roles["admin"])


def seed_devstack(db, admin_password, demo_password, alt_password):
    """The identities of devstack's lib/keystone create_keystone_accounts
    (its table of projects, users and roles; the reader, system and group
    personas are left out): ``alt_password`` is alt_demo's."""
    roles = _bootstrap(db)
    for name in ("ResellerAdmin", "anotherrole"):
        roles[name] = assignments.ensure_role(db, name)
    admin_project = projects.ensure_project(db, "admin")
    projects.ensure_project(db, "service")
    invisible = projects.ensure_project(db, "invisible_to_admin")
    demo_project = projects.ensure_project(db, "demo")
    alt_project = projects.ensure_project(db, "alt_demo")
    admin = users.ensure_user(db, "admin", admin_password, admin_project)
    demo = users.ensure_user(db, "demo", demo_password, demo_project)
    alt = users.ensure_user(db, "alt_demo", alt_password, alt_project)
    for user, target_type, target, role in (
        (admin, "project", admin_project, "admin"),
        (admin, "domain", DEFAULT_DOMAIN, "admin"),
        (demo, "project", demo_project, "member"),
        (admin, "project", demo_project, "admin"),
        (demo, "project", demo_project, "anotherrole"),
        (demo, "project", invisible, "member"),
        (alt, "project", alt_project, "admin"),
        (alt, "project", alt_project, "anotherrole"),
    ):
        assignments.assign(db, user, target_type, target, roles[role])
    assignments.assign_system(db, admin, roles["admin"])
