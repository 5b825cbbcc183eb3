"""``POST /validate``: Heat's template validation (200 or 400) through the
engine (:mod:`occli.localcloud.orchestration.engine.validate`), a slow
route that stores nothing."""

import json
from typing import Any

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc
from occli.localcloud.orchestration.api.stack_input import InstantiationData
from occli.localcloud.orchestration.api.stack_input import parse_template
from occli.localcloud.orchestration.engine import validate as engine_validate


def register(service):
    # stores nothing: no write lock (a 512 KB template parses for ~1 s)
    service.route("POST", common.BASE + "/validate", validate_template, mode=None)


def parsed_outcome(text: str) -> tuple[str, Any, str | None]:
    """``InstantiationData.template``'s parse of template text as plain
    values, run in the engine process: ``("parsed", template, None)`` or
    ``("refused", message, error type)``."""
    try:
        return "parsed", parse_template(text), None
    except errors.BadRequest as exc:
        return "refused", exc.message, exc.extra.get("type")
    except ValueError as exc:
        return "refused", "Template not in valid format: %s" % exc, "HTTPBadRequest"


def _template(body: dict[str, Any], data: InstantiationData) -> Any:
    """The body's template: text is parsed in the engine process, any
    other form as ``POST /stacks`` takes it."""
    text = body.get("template")
    if not isinstance(text, str) or "adopt_stack_data" in body:
        return data.template()
    outcome, value, type_ = templates.run_apart(parsed_outcome, text)
    if outcome == "refused":
        raise errors.BadRequest(value, type=type_)
    return value


def validate_template(req):
    """``POST /validate``: heat's template validation (200 or 400).

    A ``mode=None`` route: auth and policy in a short read, the rest
    outside any transaction (``req.db`` is None), so a flood of large
    templates never holds the write lock other projects' writes wait for;
    template text is parsed in the engine process
    (``templates.run_apart``), so libyaml never holds this process's GIL;
    a slow route (own threads). Answers over ``MAX_VALIDATE_RESPONSE``
    are refused.
    """
    body = common.json_object(req)
    shown = sc.single(req, "show_nested")
    show_nested = sc.extract_bool("show_nested", shown) if shown else False
    data = InstantiationData(body)
    template = _template(body, data)
    env = data.environment()
    args = {}
    if isinstance(body.get("environment_files"), list):
        args["environment_files"] = body["environment_files"]
    result = engine_validate.validate_template(
        req.cloud.orchestration.engine,
        req.context,
        template,
        env["parameters"],
        data.files(),
        env,
        args,
        show_nested=show_nested,
    )
    payload = json.dumps(result)
    try:
        templates.check_validate_response(payload)
    except templates.TemplateLimitExceeded as exc:
        raise errors.BadRequest(str(exc), type="RequestLimitExceeded") from None
    return Response(200, raw=payload)
