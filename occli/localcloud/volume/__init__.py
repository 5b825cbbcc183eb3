"""Cinder (block storage API v3) for the local cloud, mounted at ``/volume``.

* :mod:`.api` — ``VolumeService`` and one module per resource: routes,
  microversions, Cinder's fault bodies, version documents and views;
  :mod:`.schemas` its request checks;
* rules over a sqlite3 connection raising :mod:`occli.localcloud.errors`
  with Cinder's messages: :mod:`.volumes`, :mod:`.snapshots`,
  :mod:`.types` (the seeded ``__DEFAULT__``), :mod:`.attachments`,
  :mod:`.quotas`; ``creating`` → ``available`` on the shared
  :mod:`occli.localcloud.progress`;
* :mod:`.migrations` — the tables (store components ``volume.<part>``).

Compute attaches volumes through :mod:`.volumes` (``reserve_check``,
``attach``, ``detach``) inside its own transaction.
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (
    ("volumev3", "cinderv3", "/volume/v3/{project_id}"),
    ("block-storage", "cinder", "/volume/v3/{project_id}"),
)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.volume.api.service import VolumeService

    return VolumeService
