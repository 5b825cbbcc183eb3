"""The JSON body of a Glance request, with Glance's texts for a missing,
malformed or scalar one (glance/common/wsgi.py ``JSONRequestDeserializer``
and ``_get_request_body`` in glance/api/v2/images.py)."""

from typing import Any

from occli.localcloud.app import HTTPError


def json_body(req: Any) -> Any:
    """The request's JSON object or array, else Glance's 400."""
    try:
        body = req.json(required=False)
    except HTTPError as exc:
        if exc.status != 400:
            raise
        raise HTTPError(400, "Malformed JSON in request body.") from None
    if body is None:
        raise HTTPError(400, "Body expected in request.")
    if not isinstance(body, dict | list):
        raise HTTPError(400, "Unexpected body type. Expected list/dict.")
    return body
