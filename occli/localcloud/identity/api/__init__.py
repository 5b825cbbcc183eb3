"""Keystone v3's HTTP edge: :mod:`.service` holds ``IdentityService``
(keystone's error body, the token check, the slow password-hashing routes,
the lockout, seed, lookups for other services); one module per resource
registers its handlers — :mod:`.versions`, :mod:`.auth` (tokens, catalog),
:mod:`.app_credentials`, and the admin API: :mod:`.domains`,
:mod:`.projects`, :mod:`.users` (and the password change), :mod:`.roles`,
:mod:`.grants`, :mod:`.role_assignments`; :mod:`.views` and :mod:`.common`
(URLs, collections, the 401) serve them.

An admin handler checks in keystone's order: the body or query schema
(400, :mod:`occli.localcloud.identity.admin_schemas`), the policy (403,
:mod:`occli.localcloud.identity.policy`; keystone looks a grant's role,
user and target up first, so those are 404 before it), then the rules.
"""
