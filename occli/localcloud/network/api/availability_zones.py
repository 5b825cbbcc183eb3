"""``/v2.0/availability_zones``: the zones of networks and routers (list
only). Neutron creates this resource without pagination or sorting
(``neutron/extensions/availability_zone.py``): their parameters are
ignored, filters and ``fields=`` apply."""

from occli.localcloud.app import Response
from occli.localcloud.network import availability_zones
from occli.localcloud.network import query

_IGNORED = ("limit", "marker", "page_reverse", "sort_key", "sort_dir")


def register(service):
    service.route("GET", "/v2.0/availability_zones", list_availability_zones)


def list_availability_zones(req):
    plain = {k: v for k, v in req.query.items() if k not in _IGNORED}
    found = query.Listing(plain, availability_zones.ATTRIBUTES, ())
    zones = availability_zones.listing(req.db, req.context)
    zones = found.apply(zones, availability_zones.not_found)
    return Response(200, {"availability_zones": [found.select(z) for z in zones]})
