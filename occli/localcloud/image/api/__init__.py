"""Glance v2's HTTP edge: :mod:`.service` holds ``ImageService`` (glance's
plain-text error pages, migrations, seed); one module per resource
registers its handlers — :mod:`.versions` (version discovery),
:mod:`.images` (list, show: query parameters, links). Handlers call the
rules in :mod:`occli.localcloud.image.images`.
"""
