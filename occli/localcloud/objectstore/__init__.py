"""A minimal Swift v1 object store with temp URLs, on SQLite.

Mounted at ``/object-store``; the account of project ``p`` is
``/object-store/v1/AUTH_p`` (also answered unprefixed, ``/v1/AUTH_p``, where
heat's temp URLs point). ``GET /info``; account HEAD/GET/POST (metadata,
including the temp-URL keys and account quotas), container
PUT/POST/GET/HEAD/DELETE (metadata, ACLs enforced as keystoneauth does:
other projects' users, referrers, roles) and object PUT/POST/COPY/GET/
HEAD/DELETE (ranges, conditions, server-side copies, ``X-Delete-At``/
``-After`` expiry, static and dynamic large objects); listings with
Swift's query; an object's bytes are a
file of its own (at most ``ObjectStoreService.max_object_size`` bytes),
its metadata a row. Bad input gets Swift's answers, never a 500. Layout,
the same for every local-cloud service:

* :mod:`.api` — ``ObjectStoreService`` (Swift's error bodies) and one
  module per resource: routes, token and temp-URL authorisation (it needs
  the request), headers, listings;
* rules, over a sqlite3 connection and plain values, raising
  :mod:`occli.localcloud.errors`: :mod:`.accounts`, :mod:`.containers`,
  :mod:`.objects`, :mod:`.metadata` (Swift's limits), :mod:`.acls`
  (container ACLs: cleaning, what they grant), :mod:`.expiry` (the
  expiry headers, what is expired, the expirer's bounded sweep),
  :mod:`.tempurl` (signature math, ``Content-Disposition``), :mod:`.slo`
  and :mod:`.dlo` (large objects' manifests);
* :mod:`.files` — the objects' files under ``<data_dir>/objects``;
* :mod:`.migrations` — the tables (store component ``objectstore``).
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("object-store", "swift", "/object-store/v1/AUTH_{project_id}"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.objectstore.api.service import ObjectStoreService

    return ObjectStoreService
