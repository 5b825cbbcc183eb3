"""``/v2/schemas/…``: Glance's JSON schemas (any token), from
:mod:`occli.localcloud.image.schemas`."""

from occli.localcloud.app import Response
from occli.localcloud.image import schemas

PREFIX = "/v2/schemas/"


def register(service):
    for name in schemas.SCHEMAS:
        service.route("GET", PREFIX + name, show_schema)


def show_schema(req):
    """``GET /v2/schemas/<name>``: 200, Glance's schema of that name."""
    return Response(200, schemas.get(req.path.split(PREFIX, 1)[1]))
