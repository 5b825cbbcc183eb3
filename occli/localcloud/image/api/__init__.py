"""Glance v2's HTTP edge: :mod:`.service` holds ``ImageService`` (the
routes, glance's plain-text error pages, migrations, seed)."""
