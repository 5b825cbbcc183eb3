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

The API layer is imported on first use of ``ComputeService`` and the other
names below, so the rules modules import without it.
"""

_LAZY = {
    "ComputeService": ("occli.localcloud.compute.api.service", "ComputeService"),
    "FAULT_NAMES": ("occli.localcloud.compute.api.service", "FAULT_NAMES"),
    "version_gate": ("occli.localcloud.compute.api.service", "version_gate"),
    "microversions": ("occli.localcloud.compute.api.microversions", None),
    # interfaces for other modules (doc/localcloud-internals.md, Compute)
    "compute_hosts": ("occli.localcloud.compute.hosts", "compute_hosts"),
    "servers_on_host": ("occli.localcloud.compute.servers", "servers_on_host"),
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    import importlib

    module_name, attribute = _LAZY[name]
    value = importlib.import_module(module_name)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value
