"""``GET /build_info``: Heat's build information (``build_info.py``): the
API's and the engine's revision (heat's ``[revision] heat_revision``,
``unknown`` unless configured)."""

from occli.localcloud.app import Response
from occli.localcloud.orchestration.api import common

REVISION = "unknown"


def register(service):
    service.route("GET", common.BASE + "/build_info", build_info)


def build_info(req):
    return Response(200, {"api": {"revision": REVISION}, "engine": {"revision": REVISION}})
