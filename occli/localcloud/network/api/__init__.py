"""Neutron's HTTP edge: routes, list queries, neutron's error bodies.

:mod:`.service` holds ``NetworkService``.
"""
