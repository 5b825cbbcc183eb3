"""Swift (object-store v1); :mod:`occli.v2.object_store.base` holds the
base manager.

``occli.v2.object_store`` was the manager's module before the packages:
its names (``ObjectStoreManager``, ``temp_url_signature``…) stay
reachable here."""

from occli import v2

__getattr__ = v2.forward(__name__)
