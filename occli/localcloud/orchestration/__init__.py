"""Heat v1 software configs and software deployments of the local cloud.

Mounted at ``/orchestration``; the API lives under ``/v1/{project_id}/``.
Behaviour follows heat's API controllers, engine and DB layer (CONTRACT.md
§4), quirks included. Layout, the same for every local-cloud service:

* :mod:`.api` — ``OrchestrationService`` (heat's error body:
  ``error.type`` from a domain error's ``type``) and one module per
  resource: routes, request checks, views;
* rules, over a sqlite3 connection and plain values, raising
  :mod:`occli.localcloud.errors`: :mod:`.configs`, :mod:`.deployments`,
  :mod:`.signals` (TEMP_URL_SIGNAL polling), :mod:`.templates`
  (``POST /validate`` and its bounds), :mod:`.config_io` (input/output
  normalising), :mod:`.fields` (string columns, nesting, heat's 500s);
* :mod:`.migrations` — the tables (store component ``orchestration``).
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("orchestration", "heat", "/orchestration/v1/{project_id}"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.orchestration.api.service import OrchestrationService

    return OrchestrationService
