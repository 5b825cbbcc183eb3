"""Keystone v3 for the local cloud: version discovery, tokens, catalog,
application credentials, and the admin API (domains, projects, users,
roles, grants, role assignments). Mounted at the root of the URL space
(CONTRACT.md §1–§2; doc/localcloud-internals.md). Layout:

* :mod:`.api` — the ``Service``: routes, views, keystone's error body (a
  rule's ``Unauthorized`` on the login path gets ``WWW-Authenticate``);
  :mod:`.admin_api` — the admin API's routes and views;
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

Names re-exported here are for importers; patch :mod:`.passwords` itself
(e.g. ``passwords.verify_password``) to change what the rules call.
"""

from occli.localcloud.identity.api import VERSION
from occli.localcloud.identity.api import IdentityService
from occli.localcloud.identity.app_credentials import AUTH_FAILED as APP_CRED_AUTH_FAILED
from occli.localcloud.identity.app_credentials import NO_SCOPE as APP_CRED_NO_SCOPE
from occli.localcloud.identity.app_credentials import RESTRICTED as APP_CRED_RESTRICTED
from occli.localcloud.identity.assignments import ROLE_IMPLIES
from occli.localcloud.identity.catalog import CATALOG
from occli.localcloud.identity.catalog import INTERFACES
from occli.localcloud.identity.catalog import catalog
from occli.localcloud.identity.migrations import MIGRATIONS
from occli.localcloud.identity.passwords import hash_password
from occli.localcloud.identity.passwords import verify_password
from occli.localcloud.identity.projects import DEFAULT_DOMAIN
from occli.localcloud.identity.schemas import METHODS
from occli.localcloud.identity.schemas import SCOPE_KEYS
from occli.localcloud.identity.tokens import ALLOW_EXPIRED_WINDOW

__all__ = [
    "ALLOW_EXPIRED_WINDOW",
    "APP_CRED_AUTH_FAILED",
    "APP_CRED_NO_SCOPE",
    "APP_CRED_RESTRICTED",
    "CATALOG",
    "DEFAULT_DOMAIN",
    "INTERFACES",
    "METHODS",
    "MIGRATIONS",
    "ROLE_IMPLIES",
    "SCOPE_KEYS",
    "VERSION",
    "IdentityService",
    "catalog",
    "hash_password",
    "verify_password",
]
