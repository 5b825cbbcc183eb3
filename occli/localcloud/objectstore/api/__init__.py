"""Swift v1's HTTP edge: :mod:`.service` holds ``ObjectStoreService`` (the
UTF-8 path check, Swift's error bodies, the objects' files, what other
services read); one module per resource registers its handlers, which
authorise the caller themselves (token or temp URL) — :mod:`.accounts`,
:mod:`.containers`, :mod:`.objects` (streamed bodies); :mod:`.common`
(the path patterns, authorisation, headers, listings) serves them.
Handlers call the rules in :mod:`occli.localcloud.objectstore`.
"""
