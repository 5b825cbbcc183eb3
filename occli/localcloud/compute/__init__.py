"""The Nova (Compute API v2.1) service of the local cloud.

Mounted at ``/compute``: version documents at ``/compute/`` and
``/compute/v2.1/``; the API under ``/compute/v2.1`` with or without a
``/{project_id}`` segment. Two layers, like nova's ``api/openstack`` and
``compute/api``:

* :mod:`.api` — ``ComputeService`` and one module per resource: routes,
  request schemas, views, microversion gates;
* rules over a sqlite3 connection and plain values (the caller as a
  :class:`~.caller.Caller`), raising :mod:`occli.localcloud.errors` with
  nova's messages: :mod:`.servers` (create, update, delete, listing;
  :mod:`.build` the create's checks, :mod:`.server_filters` the list
  filters), :mod:`.actions`, :mod:`.metadata`, :mod:`.states` (lazy
  progress), :mod:`.scheduler`, :mod:`.block_devices`, :mod:`.networks`,
  :mod:`.flavors`, :mod:`.keypairs`, :mod:`.hosts`, :mod:`.aggregates`
  (zones), :mod:`.quotas`;
* :mod:`.migrations` — the tables, per store component ``compute.<part>``.

The API layer is imported on first use of ``SERVICE`` (``ComputeService``),
so the rules modules import without it.
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("compute", "nova", "/compute/v2.1"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.compute.api.service import ComputeService

    return ComputeService
