"""``POST /validate``: heat's template validation (200 or 400), a slow
route that stores nothing."""

from occli.localcloud.app import Response
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.api import common


def register(service):
    # stores nothing: no write lock (a 512 KB template parses for ~1 s)
    service.route("POST", common.BASE + "/validate", validate_template, mode=None)


def validate_template(req):
    """``POST /validate``: heat's template validation (200 or 400).

    A ``mode=None`` route: auth and policy in a short read, the parsing
    outside any transaction (``req.db`` is None), so a flood of large
    templates never holds the write lock other projects' writes wait for;
    and in the engine process (``templates.validate_apart``), so it never
    holds this process's GIL either; a slow route (own threads).
    """
    template = common.json_object(req).get("template")
    if template is None:
        raise common.error(400, "No template specified", "HTTPBadRequest")
    return Response(200, raw=templates.validate_apart(template))
