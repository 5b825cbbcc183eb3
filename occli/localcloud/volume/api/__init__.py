"""Cinder's HTTP edge: routes, microversions, fault bodies, views.

:mod:`.service` holds ``VolumeService`` (negotiation, fault bodies, policy
403s; both URL forms of every route through ``Service.api``); one module
per resource registers its handlers — :mod:`.versions`, :mod:`.volumes`,
:mod:`.metadata`, :mod:`.snapshots`, :mod:`.types`, :mod:`.attachments`,
:mod:`.quotas`; :mod:`.microversions`, :mod:`.views` and :mod:`.common`
(lookups, list parameters, the policy 403) serve them.
"""
