"""Keystone (identity v3): domains, projects, users, roles and role
assignments; :mod:`occli.v2.identity.base` holds their base manager.

``occli.v2.identity`` was the managers' module before the packages: its
names (``ProjectManager``, ``IdentityManager``…) stay reachable here."""

from occli import v2

__getattr__ = v2.forward(__name__)
