"""Keystone v3 for the local cloud: version discovery, tokens, catalog,
application credentials, and the admin API (domains, projects, users,
roles, grants, role assignments). Mounted at the root of the URL space
(CONTRACT.md §1–§2; doc/localcloud-internals.md). Layout:

* :mod:`.api` — ``IdentityService`` (keystone's error body, the token
  check) and one module per resource, the admin API's included: routes,
  views (a rule's ``Unauthorized`` on the login path gets
  ``WWW-Authenticate``);
* :mod:`.schemas` — request checks (auth body, scope, credential create);
  :mod:`.admin_schemas` — keystone's JSON schemas of the admin API;
  :mod:`.policy` — keystone's default policies;
* rules over a sqlite3 connection and plain values, raising
  :mod:`occli.localcloud.errors`: :mod:`.tokens` (issue, load, revoke,
  scope), :mod:`.app_credentials`, :mod:`.users`, :mod:`.domains`,
  :mod:`.projects` (domain lookups too), :mod:`.assignments` (roles,
  grants), :mod:`.seed`,
  :mod:`.catalog`, :mod:`.passwords` (scrypt; :data:`.passwords.SCRYPT`
  is the cost of new hashes, lowered by the tests' conftest);
* :mod:`.migrations` — the tables (store component ``identity``).

Like every service package it exports only ``SERVICE`` and ``CATALOG``
(:mod:`occli.localcloud.registry`): import other names from their modules,
and patch :mod:`.passwords` itself (e.g. ``passwords.verify_password``) to
change what the rules call.
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("identity", "keystone", "/v3"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.identity.api.service import IdentityService

    return IdentityService
