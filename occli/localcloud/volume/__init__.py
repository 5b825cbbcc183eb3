"""Cinder (block storage API v3) for the local cloud, mounted at ``/volume``.

* :mod:`.api` — ``VolumeService``: routes, microversions, Cinder's fault
  bodies and version documents; :mod:`.views` and :mod:`.schemas` its
  answers and request checks;
* rules over a sqlite3 connection raising :mod:`occli.localcloud.errors`
  with Cinder's messages: :mod:`.volumes`, :mod:`.snapshots`,
  :mod:`.types` (the seeded ``__DEFAULT__``), :mod:`.attachments`,
  :mod:`.quotas`; ``creating`` → ``available`` on the shared
  :mod:`occli.localcloud.progress`;
* :mod:`.migrations` — the tables (store components ``volume.<part>``).

Compute attaches volumes through :mod:`.volumes` (``reserve_check``,
``attach``, ``detach``) inside its own transaction.
"""

from occli.localcloud.volume.api import MAX_VERSION
from occli.localcloud.volume.api import VolumeService

__all__ = ["MAX_VERSION", "VolumeService"]
