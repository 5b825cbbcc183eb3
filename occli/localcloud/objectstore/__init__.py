"""A minimal Swift v1 object store with temp URLs, on SQLite.

Mounted at ``/object-store``; the account of project ``p`` is
``/object-store/v1/AUTH_p`` (also answered unprefixed, ``/v1/AUTH_p``, where
heat's temp URLs point). Account HEAD/GET/POST (metadata, including the
temp-URL keys and account quotas), container PUT/GET/HEAD/DELETE and object
PUT/GET/HEAD/DELETE; an object's bytes are a file of its own (at most
``ObjectStoreService.max_object_size`` bytes), its metadata a row. Bad input
gets Swift's answers, never a 500. Layout, the same for every local-cloud
service:

* :mod:`.api` — the ``Service``: routes, token and temp-URL authorisation
  (it needs the request), headers, listings, Swift's error bodies;
* rules, over a sqlite3 connection and plain values, raising
  :mod:`occli.localcloud.errors`: :mod:`.accounts`, :mod:`.containers`,
  :mod:`.objects`, :mod:`.tempurl` (signature math, ``Content-Disposition``);
* :mod:`.files` — the objects' files under ``<data_dir>/objects``;
* :mod:`.migrations` — the tables (store component ``objectstore``).
"""

from occli.localcloud.objectstore.api import ObjectStoreService
from occli.localcloud.objectstore.tempurl import TEMP_URL_KEYS
from occli.localcloud.objectstore.tempurl import content_disposition
from occli.localcloud.objectstore.tempurl import temp_url_signature

__all__ = ["TEMP_URL_KEYS", "ObjectStoreService", "content_disposition", "temp_url_signature"]
