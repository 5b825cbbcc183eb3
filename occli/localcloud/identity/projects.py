"""Domains and projects: lookups, the seed's ``ensure``, scope checks."""

import uuid

from occli.localcloud import errors

DEFAULT_DOMAIN = "default"


def domain_ref_ok(ref):
    """Whether ``ref`` names a domain (an object with ``id`` or ``name``)."""
    return isinstance(ref, dict) and ("id" in ref or "name" in ref)


def find_domain(db, ref):
    """The domain row of ``ref`` (``{"id": …}`` or ``{"name": …}``), or None."""
    if "id" in ref:
        return db.execute("SELECT * FROM domains WHERE id = ?",
                          (str(ref["id"]),)).fetchone()
    return db.execute("SELECT * FROM domains WHERE name = ?",
                      (str(ref["name"]),)).fetchone()


def ensure_domain(db, domain_id, name):
    db.execute("INSERT OR IGNORE INTO domains (id, name) VALUES (?, ?)",
               (domain_id, name))


def project_id(db, name, domain_id=DEFAULT_DOMAIN):
    """The id of project ``name`` in ``domain_id``, or None."""
    row = db.execute("SELECT id FROM projects WHERE name = ?"
                     " AND domain_id = ?", (name, domain_id)).fetchone()
    return row["id"] if row else None


def project(db, project_id):
    """``{"id", "name", "domain_id", "enabled"}`` of a project, or None."""
    row = db.execute("SELECT id, name, domain_id, enabled FROM projects"
                     " WHERE id = ?", (project_id,)).fetchone()
    return dict(row) if row else None


def ensure_project(db, name, domain_id=DEFAULT_DOMAIN):
    """The id of project ``name``, created (random id) if missing."""
    db.execute("INSERT OR IGNORE INTO projects (id, name, domain_id)"
               " VALUES (?, ?, ?)", (uuid.uuid4().hex, name, domain_id))
    return project_id(db, name, domain_id)


def find_project(db, ref):
    """The project row of a scope's ``ref`` (``id``, or ``name`` +
    ``domain``), or None."""
    if "id" in ref:
        return db.execute("SELECT * FROM projects WHERE id = ?",
                          (str(ref["id"]),)).fetchone()
    domain = find_domain(db, ref["domain"])
    return domain and db.execute(
        "SELECT * FROM projects WHERE name = ? AND domain_id = ?",
        (str(ref["name"]), domain["id"])).fetchone()


def enabled_project(db, project_id):
    """``project_id`` if it and its domain are enabled, else Unauthorized."""
    row = db.execute(
        "SELECT p.id, p.enabled, d.enabled AS domain_enabled"
        " FROM projects p JOIN domains d ON d.id = p.domain_id"
        " WHERE p.id = ?", (project_id,)).fetchone()
    if not row or not row["enabled"] or not row["domain_enabled"]:
        raise errors.Unauthorized("Project %s is disabled." % project_id)
    return row["id"]


def scoped_project(db, project_id):
    """A token's project with its domain (``id``, ``name``, ``domain``), or
    None if missing or disabled."""
    row = db.execute(
        "SELECT p.id, p.name, p.enabled, d.id AS domain_id,"
        " d.name AS domain_name, d.enabled AS domain_enabled"
        " FROM projects p JOIN domains d ON d.id = p.domain_id"
        " WHERE p.id = ?", (project_id,)).fetchone()
    if not row or not row["enabled"] or not row["domain_enabled"]:
        return None
    return {"id": row["id"], "name": row["name"],
            "domain": {"id": row["domain_id"], "name": row["domain_name"]}}
