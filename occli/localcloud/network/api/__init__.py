"""Neutron's HTTP edge: routes, list and show answers, neutron's errors.

:mod:`.service` holds ``NetworkService`` (error bodies, policy 403s, the
tables and the seed); one module per resource registers its handlers —
:mod:`.versions`, :mod:`.extensions`, :mod:`.networks`, :mod:`.subnets`,
:mod:`.ports`, :mod:`.security_groups` (groups and rules),
:mod:`.floating_ips`, :mod:`.routers`, :mod:`.quotas`; :mod:`.common` (a collection's
names, list and show answers, the nova notifier) serves them.
"""
