"""``/os-availability-zone`` (``cinder/api/contrib/availability_zones.py``):
the zones of the volume services, available while one is enabled; any
token reads them."""

from occli.localcloud.app import Response
from occli.localcloud.volume import services


def register(service):
    service.api("GET", "/os-availability-zone", list_zones)


def list_zones(req):
    zones: dict[str, bool] = {}
    for svc in services.listing(req.db, binary=services.VOLUME):
        zones[svc["zone"]] = zones.get(svc["zone"], False) or not svc["disabled"]
    body = [{"zoneName": name, "zoneState": {"available": up}} for name, up in zones.items()]
    return Response(200, {"availabilityZoneInfo": body})
