"""Heat's client plugins: the engine's calls to the cloud's other services.

Real Heat reaches Nova, Neutron, Cinder, Swift and itself through their
REST APIs with a trust delegating the stack owner's roles
(``heat/engine/clients/os/*``). The local engine does the same, in process:
each call is a WSGI request to the cloud's own application carrying the
stack's trust id in the environ (``occli.trust``, a key no HTTP client can
set), which the cloud resolves as Keystone resolves a token scoped to that
trust (the owner, with the delegated roles the owner still holds), so
every resource a stack makes is made by the service that owns it, under
its policies and quotas, owned by the stack's project. A stack stored
before Heat's trusts (no trust id) carries its delegated
:class:`~occli.localcloud.app.Context` instead. No socket is opened;
nothing leaves the process.
"""

import io
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from occli.localcloud import registry
from occli.localcloud.app import Context

# the WSGI environ key carrying a trusted in-process caller
TRUST_KEY = "occli.trust"
# a client gives up on answers larger than this (a stack's own reads are small)
MAX_ANSWER = 64 * 1024 * 1024


# the exception names the OpenStack client libraries give a status
# (novaclient's and neutronclient's ``exceptions``), which Heat's failure
# texts start with ("BadRequest: resources.server: …")
_CLIENT_TYPES = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    413: "OverLimit",
    415: "HTTPUnsupported",
    429: "RateLimit",
    501: "HTTPNotImplemented",
}


class ClientError(Exception):
    """A service refused an engine call: ``status`` and the service's own
    message, as a client library words it (``<message> (HTTP 400)
    (Request-ID: req-…)``: what Heat puts in ``Resource CREATE failed``)."""

    def __init__(
        self, status: int, message: str, body: Any = None, request_id: str | None = None
    ) -> None:
        text = "%s (HTTP %d)" % (message, status)
        if request_id:
            text += " (Request-ID: %s)" % request_id
        super().__init__(text)
        self.status = status
        self.reason = message
        self.message = text
        self.body = body

    @property
    def client_type(self) -> str:
        return _CLIENT_TYPES.get(self.status, "ClientException")

    @property
    def not_found(self) -> bool:
        return self.status == 404


class Answer:
    """A service's answer: status, headers (lower-case names), JSON body
    (``None`` when empty or not JSON) and the raw bytes."""

    def __init__(self, status: int, headers: dict[str, str], raw: bytes) -> None:
        self.status = status
        self.headers = headers
        self.raw = raw
        try:
            self.body: Any = json.loads(raw) if raw else None
        except ValueError:
            self.body = None


def _message(body: Any, raw: bytes) -> str:
    """The human text of an error body in any service's shape (Nova's
    ``{"badRequest": {"message"}}``, Neutron's ``NeutronError``, Heat's
    ``error.message``, Keystone's ``error.message``, Cinder's)."""
    if isinstance(body, dict):
        for value in body.values():
            if isinstance(value, dict):
                for key in ("message", "explanation"):
                    if isinstance(value.get(key), str):
                        return value[key]
        for key in ("message", "explanation", "title"):
            if isinstance(body.get(key), str):
                return body[key]
    return raw.decode("utf-8", "replace").strip()[:500]


class TrustContext(Context):
    """The caller a stack's engine calls run as (Heat's stored context):
    ``trust_id``, the stack owner's trust to Heat's service user
    (``stack.trust_id``, ``trustor_user_id``), which the calls act
    through; the other fields are the owner's at create time."""

    def __init__(self, trust_id: str, trustor_user_id: str, **fields: Any) -> None:
        super().__init__(**fields)
        self.trust_id = trust_id
        self.trustor_user_id = trustor_user_id


class Clients:
    """The engine's way into the other services, as one trusted caller.

    ``app`` is the cloud's WSGI application, ``context`` the stack's
    :class:`TrustContext` (or, for a stack stored before Heat's trusts, its
    delegated caller: the owner's user, project and roles at create time).
    """

    def __init__(self, app: Callable[..., Any], context: Context) -> None:
        self.app = app
        self.context = context
        self._paths = {kind: path for kind, _name, path in registry.catalog_entries()}

    def endpoint(self, service_type: str) -> str:
        """The path of ``service_type``'s API root for this project."""
        return self._paths[service_type].format(project_id=self.context.project_id)

    def has_service(self, service_type: str) -> bool:
        return service_type in self._paths

    def request(
        self,
        service_type: str,
        method: str,
        path: str,
        json_body: Any = None,
        headers: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        raw: bytes | None = None,
    ) -> Answer:
        """One call; an answer of 400 or more raises :class:`ClientError`."""
        data = raw if raw is not None else b""
        if json_body is not None:
            data = json.dumps(json_body).encode()
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method.upper(),
            "PATH_INFO": self.endpoint(service_type) + path,
            "QUERY_STRING": urlencode(query or {}, doseq=True),
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "CONTENT_LENGTH": str(len(data)),
            TRUST_KEY: (
                self.context.trust_id if isinstance(self.context, TrustContext) else self.context
            ),
            # Swift refuses a request without a token before it asks the
            # cloud who is calling; the trust, not this value, is what counts
            "HTTP_X_AUTH_TOKEN": "trusted-in-process",
        }
        if json_body is not None:
            environ["CONTENT_TYPE"] = "application/json"
        for name, value in (headers or {}).items():
            key = name.upper().replace("-", "_")
            if key == "CONTENT_TYPE":
                environ["CONTENT_TYPE"] = value
            else:
                environ["HTTP_" + key] = value
        started: dict[str, Any] = {}

        def start_response(status: str, response_headers: list[tuple[str, str]]) -> None:
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = {k.lower(): v for k, v in response_headers}

        chunks = self.app(environ, start_response)
        try:
            body = bytearray()
            for chunk in chunks:
                body += chunk
                if len(body) > MAX_ANSWER:
                    raise ClientError(502, "The answer of %s %s is too large." % (method, path))
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        answer = Answer(started["status"], started["headers"], bytes(body))
        if answer.status >= 400:
            raise ClientError(
                answer.status,
                _message(answer.body, answer.raw),
                answer.body,
                answer.headers.get("x-openstack-request-id"),
            )
        return answer

    def get(self, service_type: str, path: str, **kwargs: Any) -> Answer:
        return self.request(service_type, "GET", path, **kwargs)

    def post(self, service_type: str, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.request(service_type, "POST", path, json_body=body, **kwargs)

    def put(self, service_type: str, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.request(service_type, "PUT", path, json_body=body, **kwargs)

    def patch(self, service_type: str, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.request(service_type, "PATCH", path, json_body=body, **kwargs)

    def delete(self, service_type: str, path: str, **kwargs: Any) -> Answer:
        return self.request(service_type, "DELETE", path, **kwargs)

    def delete_ignoring_not_found(self, service_type: str, path: str) -> None:
        """Delete, counting a resource that is already gone as deleted
        (Heat's ``client_plugin.ignore_not_found``)."""
        try:
            self.delete(service_type, path)
        except ClientError as exc:
            if not exc.not_found:
                raise
