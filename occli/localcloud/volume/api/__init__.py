"""Cinder's HTTP edge: routes, microversions, fault bodies, views.

:mod:`.service` holds ``VolumeService`` (negotiation, fault bodies, both
URL forms of every route).
"""
