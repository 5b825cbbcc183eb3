"""Heat v1's HTTP edge: :mod:`.service` holds ``OrchestrationService``
(the project check, heat's error body and 403s, ``HEAT_PARITY_500S``);
one module per resource registers its handlers — :mod:`.versions`,
:mod:`.software_configs`, :mod:`.software_deployments`, :mod:`.validate`;
:mod:`.views` (heat's ``format_*``) and :mod:`.common` (errors, bodies,
query integers) serve them. Handlers read the request, call the rules in
:mod:`occli.localcloud.orchestration` and render what they return.
"""
