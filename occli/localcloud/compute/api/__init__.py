"""Nova's HTTP edge: routes, request schemas, views, microversion gates.

:mod:`.service` holds ``ComputeService`` (negotiation, fault bodies, both
URL forms); one module per resource registers its handlers —
:mod:`.servers` (+ :mod:`.server_views`), :mod:`.server_actions`,
:mod:`.metadata`, :mod:`.flavors`, :mod:`.keypairs`, :mod:`.hosts`
(os-services, os-hypervisors, os-availability-zone), :mod:`.limits`,
:mod:`.aggregates`, :mod:`.versions`; :mod:`.schemas`,
:mod:`.microversions` and :mod:`.common` (links, paging, the caller) serve
them. Handlers turn requests into plain values, call the rules in
:mod:`occli.localcloud.compute` and render what they return.
"""
