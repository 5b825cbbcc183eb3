"""Glance v2's HTTP edge: :mod:`.service` holds ``ImageService`` (glance's
plain-text error pages, migrations, seed, the image files); one module per
resource registers its handlers — :mod:`.versions` (version discovery),
:mod:`.images` (list, show, create, update, delete, actions: query
parameters, links), :mod:`.image_data` (upload and download, streamed).
Handlers call the rules in :mod:`occli.localcloud.image.images`,
:mod:`~occli.localcloud.image.writes` and :mod:`~occli.localcloud.image.data`.
"""
