"""exceptions.from_response: nova, keystone, heat and non-JSON error bodies."""

import pytest
import requests

from occli import exceptions


def response(status, body=None, text=None, headers=None):
    resp = requests.Response()
    resp.status_code = status
    resp.reason = "Reason"
    resp.headers.update(headers or {})
    if body is not None:
        import json

        resp._content = json.dumps(body).encode()
        resp.headers["Content-Type"] = "application/json"
    else:
        resp._content = (text or "").encode()
    return resp


def test_nova_fault_body():
    exc = exceptions.from_response(
        response(
            404,
            {"itemNotFound": {"code": 404, "message": "Aggregate 42 could not be found."}},
            headers={"x-compute-request-id": "req-1"},
        )
    )
    assert isinstance(exc, exceptions.NotFound)
    assert str(exc) == ("Aggregate 42 could not be found. (HTTP 404) (Request-ID: req-1)")


def test_keystone_error_body():
    exc = exceptions.from_response(
        response(
            401,
            {
                "error": {
                    "code": 401,
                    "title": "Unauthorized",
                    "message": "The request you have made requires authentication.",
                }
            },
            headers={"x-openstack-request-id": "req-2"},
        )
    )
    assert isinstance(exc, exceptions.Unauthorized)
    assert exc.message.startswith("The request you have made")
    assert exc.request_id == "req-2"


def test_heat_error_body_uses_error_message():
    exc = exceptions.from_response(
        response(
            404,
            {
                "code": 404,
                "title": "Not Found",
                "explanation": "The resource could not be found.",
                "error": {
                    "type": "NotFound",
                    "traceback": None,
                    "message": "Software config with id x not found",
                },
            },
        )
    )
    assert exc.message == "Software config with id x not found"
    assert exc.details["type"] == "NotFound"


def test_html_gateway_page_becomes_text():
    exc = exceptions.from_response(
        response(
            504,
            text="<html><body><h1>504 Gateway Time-out</h1>"
            "The server didn't respond in time.</body></html>",
        )
    )
    assert isinstance(exc, exceptions.InternalServerError)
    assert exc.message == ("504 Gateway Time-out The server didn't respond in time.")
    assert "<" not in str(exc)


@pytest.mark.parametrize(
    "status,cls",
    [
        (400, exceptions.BadRequest),
        (403, exceptions.Forbidden),
        (405, exceptions.MethodNotAllowed),
        (406, exceptions.NotAcceptable),
        (409, exceptions.Conflict),
        (501, exceptions.HTTPNotImplemented),
        (503, exceptions.ServiceUnavailable),
        (418, exceptions.HTTPException),
    ],
)
def test_status_to_class(status, cls):
    exc = exceptions.from_response(
        response(status, {"badRequest": {"code": status, "message": "m"}})
    )
    assert type(exc) is cls
    assert exc.code == status


def test_rate_limit_retry_after_from_header_and_body():
    exc = exceptions.from_response(
        response(429, {"overLimit": {"code": 429, "message": "slow down", "retryAfter": "7"}})
    )
    assert isinstance(exc, exceptions.RateLimit)
    assert exc.retry_after == 7
    exc = exceptions.from_response(
        response(413, {"overLimit": {"code": 413, "message": "x"}}, headers={"Retry-After": "3"})
    )
    assert isinstance(exc, exceptions.OverLimit)
    assert exc.retry_after == 3


def test_empty_body_falls_back_to_reason():
    exc = exceptions.from_response(response(500, text=""))
    assert exc.message == "Reason"
