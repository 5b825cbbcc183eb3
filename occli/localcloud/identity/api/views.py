"""Keystone's views of domains, projects (a domain too, ``is_domain``),
users and roles."""

import json

from occli.localcloud.identity import assignments
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.api.common import url


def domain_view(req, row):
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "tags": json.loads(row["tags"]),
        "options": {},
        "links": {"self": url(req, "domains", row["id"])},
    }


def domain_as_project_view(req, row):
    """A domain as keystone shows it on the projects API (``is_domain``)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "domain_id": None,
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "parent_id": None,
        "is_domain": True,
        "tags": json.loads(row["tags"]),
        "options": {},
        "links": {"self": url(req, "projects", row["id"])},
    }


def project_view(req, row):
    view = projects.extra(row)
    view.update(
        {
            "id": row["id"],
            "name": row["name"],
            "domain_id": row["domain_id"],
            "description": row["description"],
            "enabled": bool(row["enabled"]),
            "parent_id": row["parent_id"],
            "is_domain": False,
            "tags": json.loads(row["tags"]),
            "options": {},
            "links": {"self": url(req, "projects", row["id"])},
        }
    )
    return view


def user_view(req, row):
    view = users.extra(row)
    view.update(
        {
            "id": row["id"],
            "name": row["name"],
            "domain_id": row["domain_id"],
            "enabled": bool(row["enabled"]),
        }
    )
    if row["default_project"] is not None:
        view["default_project_id"] = row["default_project"]
    view.update(
        {
            "password_expires_at": None,
            "options": {},
            "links": {"self": url(req, "users", row["id"])},
        }
    )
    return view


def role_view(req, row):
    return {
        "id": row["id"],
        "name": row["name"],
        "domain_id": None,
        "description": row["description"],
        "options": ({"immutable": True} if assignments.immutable(row) else {}),
        "links": {"self": url(req, "roles", row["id"])},
    }
