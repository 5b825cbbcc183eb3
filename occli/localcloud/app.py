"""The local cloud's WSGI application: routing, auth, errors, request ids.

Each OpenStack service is a :class:`Service` mounted under a URL prefix
(identity at ``/``, compute at ``/compute``, …). A service lists its routes;
a route handler takes a :class:`Request`, returns a :class:`Response` (the
one form, checked by :func:`as_response`) and raises :class:`HTTPError` for
failures, which the service renders in its own project's error shape (nova
faults, keystone errors, heat errors, …).

A route runs in a read transaction (GET, HEAD: never the write lock) or a
write transaction (other methods) of the store, or in none (see
:class:`Route`).
"""

import functools
import json
import re
import time
import uuid
from urllib.parse import parse_qs

from occli.localcloud import errors
from occli.localcloud import files
from occli.localcloud.common import reason

MAX_BODY = 1024 * 1024
# the largest read of a request body a handler streams (Request.body_chunks)
READ_CHUNK = 1024 * 1024
# json.dumps' encoder without its cycle check (bodies are trees, a cycle
# would still fail, with RecursionError): the same bytes, ~13% faster on a
# 1.4 MB server list
_ENCODER = json.JSONEncoder(check_circular=False)
# deeper request JSON is refused (400) before any service walks it
MAX_JSON_DEPTH = 100
_SURROGATE = re.compile("[\ud800-\udfff]")


class HTTPError(Exception):
    """An HTTP error that the owning service renders in its error shape."""

    def __init__(self, status, message="", headers=None, extra=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})


class Unauthenticated(HTTPError):
    """Missing, invalid or expired ``X-Auth-Token``.

    Rendered in keystonemiddleware's shape whichever service raised it,
    because in a real deployment that middleware answers before the service.
    """

    MESSAGE = "The request you have made requires authentication."

    def __init__(self, www_authenticate_uri):
        super().__init__(
            401,
            self.MESSAGE,
            headers={"WWW-Authenticate": 'Keystone uri="%s"' % www_authenticate_uri},
        )

    def body(self):
        return {"error": {"code": 401, "title": "Unauthorized", "message": self.message}}


class DropConnection(Exception):
    """Close the client connection without sending any response.

    The WSGI server adapter (``server.py``) turns this into the server's
    own "drop the socket" signal.
    """


class Response:
    """An answer: a JSON-able ``body``, or ``raw`` bytes or text, or a
    ``stream`` (an iterable of bytes sent as it is iterated, ``length`` bytes
    in all; closed, if it has ``close()``, when a HEAD answer drops it)."""

    def __init__(
        self,
        status=200,
        body=None,
        headers=None,
        raw=None,
        content_type="application/json",
        stream=None,
        length=0,
    ):
        self.status = status
        self.body = body
        self.headers = dict(headers or {})
        self.raw = raw
        self.content_type = content_type
        self.stream = stream
        self.length = length

    def payload(self):
        if self.raw is not None:
            return self.raw if isinstance(self.raw, bytes) else self.raw.encode()
        if self.body is None:
            return b""
        return _ENCODER.encode(self.body).encode()


class Context:
    """Who is calling: filled in from a validated token.

    ``token_id`` is the token's sha256 hash (the raw token is never kept),
    ``domain_id`` the scoped project's domain (else the user's), ``roles``
    role names including implied ones (admin ⇒ manager ⇒ member ⇒ reader),
    ``expires_at`` an aware UTC datetime and ``system_scope`` ``"all"``
    for a system-scoped token (else None).
    """

    def __init__(
        self,
        user_id,
        user_name,
        project_id,
        project_name,
        roles,
        token_id=None,
        domain_id="default",
        expires_at=None,
        system_scope=None,
    ):
        self.user_id = user_id
        self.user_name = user_name
        self.project_id = project_id
        self.project_name = project_name
        self.roles = list(roles)
        self.token_id = token_id
        self.domain_id = domain_id
        self.expires_at = expires_at
        self.system_scope = system_scope

    @property
    def is_admin(self):
        return "admin" in self.roles


class Request:
    def __init__(self, environ, cloud):
        self.environ = environ
        self.cloud = cloud
        self.method = environ["REQUEST_METHOD"].upper()
        self.path = environ.get("PATH_INFO", "") or "/"
        self.query_string = environ.get("QUERY_STRING", "")
        self.query = parse_qs(self.query_string, keep_blank_values=True)
        self.request_id = "req-" + str(uuid.uuid4())
        self.params = {}
        self.context = None
        self.microversion = None
        self.db = None
        self._body = None
        #: whether the body was streamed (:meth:`body_chunks`): then the
        #: request cannot be run again
        self.streamed = False

    @property
    def base_url(self):
        env = self.environ
        host = env.get("HTTP_HOST") or "%s:%s" % (
            env.get("SERVER_NAME", "127.0.0.1"),
            env.get("SERVER_PORT", "80"),
        )
        return "%s://%s" % (env.get("wsgi.url_scheme", "http"), host)

    def header(self, name, default=None):
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        return self.environ.get(key, default)

    def arg(self, name, default=None):
        """The last value of query parameter ``name``."""
        values = self.query.get(name)
        return values[-1] if values else default

    @property
    def content_length(self):
        """The declared body length (0 if absent or invalid)."""
        try:
            return max(0, int(self.environ.get("CONTENT_LENGTH") or 0))
        except ValueError:
            return 0

    def body_chunks(self, length, size=READ_CHUNK):
        """Yield the body in reads of at most ``size`` bytes: ``length``
        bytes, or (``length`` None: a chunked body the server decoded) until
        the input ends; fewer if the input ends first. For a ``mode=None``
        handler that streams a body it need not hold whole."""
        stream = self.environ["wsgi.input"]
        self.streamed = True
        left = length
        while left is None or left > 0:
            chunk = stream.read(size if left is None else min(size, left))
            if not chunk:
                return
            if left is not None:
                left -= len(chunk)
            yield chunk

    @property
    def body(self):
        """The body (its length was checked against the service's
        ``max_body`` before routing)."""
        if self._body is None:
            length = self.content_length
            self._body = self.environ["wsgi.input"].read(length) if length else b""
        return self._body

    def json(self, required=True):
        """The JSON body; a 400 in the service's shape unless it is strict
        JSON: valid syntax and encoding, no ``NaN``/``Infinity`` nor numbers
        that overflow to them, no lone surrogate (``"\\udc80"``: not text,
        unstorable), nesting at most ``MAX_JSON_DEPTH`` deep."""
        raw = self.body
        if not raw:
            if required:
                raise HTTPError(400, "The request body is empty.")
            return None
        try:
            data = json.loads(raw, parse_constant=_not_a_number, parse_float=_finite_float)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise HTTPError(400, "Malformed request body.") from None
        if not _plain_json(data):
            raise HTTPError(400, "Malformed request body.")
        return data


def _not_a_number(text):
    raise ValueError("%s is not valid JSON" % text)


def _finite_float(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("%s overflows a double" % text)
    return value


def _plain_json(data):
    """Whether decoded JSON nests at most MAX_JSON_DEPTH deep and holds no
    lone surrogate (iterative: the depth is what is being checked)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return False
        elif isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                return False
            if isinstance(value, dict):
                pending.extend((key, depth) for key in value)
                value = value.values()
            pending.extend((item, depth + 1) for item in value)
    return True


@functools.cache
def _route_regex(pattern):
    """The compiled regex of a route ``pattern`` (``{name}`` a segment),
    once per process: every cloud of a process (occli.testing starts one
    per test) mounts the same ~1,000 patterns, more than ``re``'s cache
    holds, and compiling them took most of a cloud's start."""
    regex = Route._param.sub(r"(?P<\1>[^/]+)", pattern.rstrip("/") or "")
    return re.compile("^" + regex + "/?$")


class Route:
    """One route of a service.

    ``mode``: ``"read"`` (the default for GET: the handler runs in a read
    transaction, ``req.db`` is read-only and a change it must persist goes
    through a short ``req.cloud.store.transaction()`` of its own),
    ``"write"`` (the default for other methods: one write transaction for
    the whole request) or ``None`` (no transaction: ``req.db`` is None and
    the handler opens its own, e.g. to hash passwords without the lock).
    ``role``: a role the caller's token must hold (admins always pass),
    checked after the service's ``before``; None: any authenticated caller.
    ``regex`` (the compiled ``pattern``) is compiled when first read.
    """

    _param = re.compile(r"\{(\w+)\}")
    MODES = ("read", "write", None)
    regex: re.Pattern[str]

    def __init__(self, method, pattern, handler, auth=True, mode="auto", role=None):
        if mode == "auto":
            mode = "read" if method in ("GET", "HEAD") else "write"
        if mode not in self.MODES:
            raise ValueError("route mode must be one of %r" % (self.MODES,))
        self.method = method
        self.pattern = pattern
        self.handler = handler
        self.auth = auth
        self.mode = mode
        self.role = role

    def __getattr__(self, name):
        # only while ``regex`` is unset: a process's first cloud compiled
        # its ~1,000 patterns at start (40-50 ms), though a test reaches a
        # few; once set, reading it is a plain attribute read
        if name != "regex":
            raise AttributeError(name)
        self.regex = _route_regex(self.pattern)
        return self.regex


#: the routes :meth:`Service.add_resources` built, per service class and
#: resources, shared by every cloud of a process: occli.testing starts a
#: cloud per test, and rebuilding ~1,000 routes took 1.5-2 ms of each
_ROUTE_TABLES: dict[tuple, tuple[Route, ...]] = {}


class Service:
    """Base of one OpenStack service mounted at ``prefix``.

    Every service is written the same way: a subclass whose constructor
    adds its routes (:meth:`route`, :meth:`api` for a versioned API with
    its ``/{project_id}`` alias, :meth:`add_resources`); the cloud applies its
    :meth:`migrations` and then calls its ``seed(db)``, if it has one, in a
    write transaction. Handlers parse the request and render answers; the
    rules they call work over the connection and plain values and raise
    :mod:`occli.localcloud.errors`, which the application renders through
    :meth:`error_body`.

    ``requires_project``: authenticated routes of this service answer 403
    to tokens that are not project-scoped (nova and heat need a project).
    ``max_body``: a larger declared ``Content-Length`` is a 413 before
    anything is read (the HTTP server refuses bodies above the largest
    ``max_body`` of the mounted services).
    """

    name: str | None = None
    prefix = ""
    # paths outside ``prefix`` this service also answers, unprefixed (as a
    # service on its own port would): see ObjectStoreService
    root_paths: tuple[str, ...] = ()
    requires_project = True
    # the role a route that changes something needs by default, as the
    # services' default policies require it (nova's PROJECT_MEMBER_OR_ADMIN,
    # heat's PROJECT_MEMBER, glance's member): a reader only reads
    write_role: str | None = None
    # the versioned API's path (nova's "/v2.1", cinder's "/v3"), whose
    # routes (:meth:`api`) also answer after a "/{project_id}" segment
    api_prefix = ""

    @property
    def max_body(self):
        """:data:`MAX_BODY`, unless a service allows larger bodies (Swift)."""
        return MAX_BODY

    def __init__(self, cloud):
        self.cloud = cloud
        self.routes = []
        self._project_routes = []

    def route(self, method, pattern, handler, auth=True, mode="auto", role="auto"):
        self.routes.append(self.make_route(method, pattern, handler, auth, mode, role))

    def make_route(self, method, pattern, handler, auth=True, mode="auto", role="auto"):
        """A Route; ``role="auto"``: :attr:`write_role` unless a read."""
        if role == "auto":
            role = None if method in ("GET", "HEAD") else self.write_role
        return Route(method, pattern, handler, auth, mode, role)

    def add_resources(self, resources):
        """Add the routes of ``resources`` (modules with
        ``register(service)``), in order, then the ``/{project_id}`` forms
        :meth:`api` made of them: first match wins, so every path without
        the segment is tried first.

        Built once per process for a service class and its ``resources``
        (see :data:`_ROUTE_TABLES`), each instance's ``routes`` a list of
        its own: registering holds no state of a cloud (a handler finds its
        service through ``req.cloud``; tests/unit/test_testing_routes.py
        checks that no handler holds a service or a cloud)."""
        key = (type(self), tuple(resources))
        # pending /{project_id} forms of api() calls of the caller's own
        # are not the resources': such a table is built, not shared
        shared = not self._project_routes
        table = _ROUTE_TABLES.get(key) if shared else None
        if table is not None:
            self.routes.extend(table)
            return
        start = len(self.routes)
        for module in resources:
            module.register(self)
        self.routes.extend(self._project_routes)
        self._project_routes = []
        if shared:
            _ROUTE_TABLES[key] = tuple(self.routes[start:])

    def api(
        self,
        method,
        pattern,
        handler,
        min_version=None,
        max_version=None,
        role="auto",
        mode="auto",
    ):
        """Route ``<api_prefix><pattern>`` and (see :meth:`add_resources`)
        ``<api_prefix>/{project_id}<pattern>``, as nova's and cinder's
        routers map both; outside [``min_version``, ``max_version``] of
        ``req.microversion`` the route answers :func:`version_gate`'s 404.
        ``role``: see :meth:`make_route`; ``mode``: see :class:`Route`."""
        handler = self.api_handler(
            method, pattern, version_gate(handler, min_version, max_version)
        )
        self.route(method, self.api_prefix + pattern, handler, role=role, mode=mode)
        self._project_routes.append(
            self.make_route(
                method, self.api_prefix + "/{project_id}" + pattern, handler, role=role, mode=mode
            )
        )

    def api_handler(self, method, pattern, handler):
        """The handler :meth:`api` routes for ``handler`` (version-gated
        already): itself; a service may wrap it (compute records nova's
        instance actions)."""
        return handler

    def migrations(self):
        """This service's schema, applied by the cloud (see Store.migrate):
        ``(component, steps)`` pairs, in order, each list of steps (SQL
        scripts or callables taking the connection) versioned under its
        component (``name``, or ``name.<part>`` for parts versioned apart);
        a service's ``migrations.COMPONENTS``."""
        return []

    def slow_request(self, method, path):
        """Whether a request (its method and full path) is one of this
        service's slow routes (CPU-bound for tens of ms or more: password
        hashing, template validation), which the HTTP server serves on
        threads of their own (``server.SlowDispatcher``)."""
        return False

    def body_digests(self, method, path):
        """The hashlib digests (names) this service's handler of a request
        (its method and full path) asks ``files.Files.store`` for, which the
        HTTP server hashes as a large body arrives (``spool``); () for none."""
        return ()

    def before(self, req):
        """Called after routing and auth, before the handler."""

    def after(self, req, resp):
        """Called on every response of this service, errors included."""

    def error_body(self, status, message, extra):
        """The JSON body of an error; may also return a whole Response."""
        return {"error": {"code": status, "title": reason(status), "message": message}}

    def not_found(self, req):
        return HTTPError(404, "The resource could not be found.")

    def policy_denied(self, req, route):
        """The error for a caller without the role ``route`` needs."""
        return HTTPError(403, "You are not authorized to perform the requested action.")

    def method_not_allowed(self, req):
        return HTTPError(405, "The method is not allowed for this resource.")


class Application:
    """Dispatch WSGI requests to the services of a cloud."""

    def __init__(self, cloud, services):
        self.cloud = cloud
        # longest prefix first so "/compute" wins over "/"
        self.services = sorted(services, key=lambda s: -len(s.prefix))

    def service_for(self, path):
        """The service that serves ``path``, or None."""
        for svc in self.services:
            if any(path.startswith(r) for r in svc.root_paths):
                return svc
        for svc in self.services:
            p = svc.prefix
            if not p or path == p or path.startswith(p + "/"):
                return svc
        return None

    def __call__(self, environ, start_response):
        started = time.monotonic()
        req = Request(environ, self.cloud)
        svc = self.service_for(req.path)
        try:
            resp = self._handle(req, svc)
        except DropConnection:
            self.cloud.log_request(req, 0, time.monotonic() - started)
            raise
        resp.headers.setdefault("x-openstack-request-id", req.request_id)
        if resp.stream is not None:
            body, length = resp.stream, resp.length
        else:
            payload = resp.payload()
            body, length = [payload], len(payload)
        # a header a service set to None is left out (nova's root version
        # document carries no request id)
        headers = [(k, str(v)) for k, v in resp.headers.items() if v is not None]
        if resp.status != 204:
            headers.append(("Content-Type", resp.content_type))
        # a HEAD answer has the length of the GET body, and no body
        headers.append(("Content-Length", str(length)))
        if req.method == "HEAD":
            close = getattr(body, "close", None)
            if close is not None:
                close()
            body = [b""]
        start_response("%d %s" % (resp.status, reason(resp.status)), headers)
        self.cloud.log_request(req, resp.status, time.monotonic() - started)
        return body

    def _route(self, req, svc):
        sub = req.path
        if sub == svc.prefix or sub.startswith(svc.prefix + "/"):
            sub = sub[len(svc.prefix) :]
        sub = (sub or "/").rstrip("/")
        allowed = False
        for r in svc.routes:
            m = r.regex.match(sub)
            if m:
                allowed = True
                if r.method == req.method or (req.method == "HEAD" and r.method == "GET"):
                    req.params = m.groupdict()
                    return r
        raise svc.method_not_allowed(req) if allowed else svc.not_found(req)

    def _handle(self, req, svc):
        try:
            resp = self._dispatch(req, svc)
        except DropConnection:
            raise
        except HTTPError as exc:
            resp = self._error(svc, exc)
        except errors.Error as exc:
            resp = self._error(svc, HTTPError(exc.code, exc.message, extra=exc.extra))
        except Exception:  # noqa: BLE001 - any bug is a logged 500
            self.cloud.log_exception(req)
            resp = self._error(svc, HTTPError(500, "An unexpected error occurred."))
        if svc is not None:
            try:
                svc.after(req, resp)
            except HTTPError:
                pass
        return resp

    def _dispatch(self, req, svc):
        if svc is None:
            raise HTTPError(404, "Not found.")
        if req.content_length > svc.max_body:
            raise HTTPError(413, "Request is too large.")
        fault = self.cloud.faults.match(req)
        if fault is not None:
            injected = fault.apply(req)
            if injected is not None:
                return injected
        attempts = files.STALE_ATTEMPTS
        while True:
            # routed again each time: before() may rewrite req.params
            route = self._route(req, svc)
            try:
                return self._run(req, svc, route)
            except files.Stale:
                # a file its snapshot named was replaced meanwhile: run it
                # again in a newer one, unless its body is spent
                req.db = None
                attempts -= 1
                if attempts == 0 or req.streamed:
                    raise HTTPError(503, "The stored data changed while it was read.") from None

    def _run(self, req, svc, route):
        """``route``'s handler in the transaction its mode asks for."""
        store = self.cloud.store
        if route.mode is None:
            # auth (if any) and before() in their own read transaction;
            # the handler opens its own (req.db is None while it runs)
            if route.auth:
                with store.read() as db:
                    req.db = db
                    self._before(req, svc, route)
                req.db = None
            else:
                svc.before(req)
            return as_response(route.handler(req), route.handler)
        with store.read() if route.mode == "read" else store.transaction() as db:
            req.db = db
            self._before(req, svc, route)
            return as_response(route.handler(req), route.handler)

    def _before(self, req, svc, route):
        if route.auth:
            req.context = self.cloud.authenticate(req)
            if svc.requires_project and not req.context.project_id:
                raise HTTPError(403, "A project-scoped token is required.")
        svc.before(req)
        if (
            route.auth
            and route.role
            and not (route.role in req.context.roles or req.context.is_admin)
        ):
            raise svc.policy_denied(req, route)

    def _error(self, svc, exc):
        if isinstance(exc, Unauthenticated):
            body = exc.body()
        elif svc is not None:
            body = svc.error_body(exc.status, exc.message, exc.extra)
        else:
            body = {
                "error": {"code": exc.status, "title": reason(exc.status), "message": exc.message}
            }
        if isinstance(body, Response):
            body.status = exc.status
            body.headers = {**exc.headers, **body.headers}
            return body
        return Response(exc.status, body, headers=exc.headers)


def version_gate(handler, min_version=None, max_version=None):
    """``handler``, or with a range a wrapper answering the bare 404 of
    nova's and cinder's routers to requests whose ``req.microversion`` is
    outside [``min_version``, ``max_version``] (None: unbounded)."""
    if min_version is None and max_version is None:
        return handler

    def gated(req):
        version = req.microversion
        if (min_version is not None and version < min_version) or (
            max_version is not None and version > max_version
        ):
            raise HTTPError(404, "The resource could not be found.")
        return handler(req)

    gated.__name__ = handler.__name__
    gated.__doc__ = handler.__doc__
    return gated


def as_response(result: object, handler: object) -> Response:
    """``handler``'s result, checked: a :class:`Response`, the one form a
    handler returns (doc/localcloud-internals.md "Writing a service");
    anything else is a bug, a TypeError the application logs as a 500."""
    if not isinstance(result, Response):
        raise TypeError(
            "handler %s returned %s, not a Response"
            % (getattr(handler, "__name__", repr(handler)), type(result).__name__)
        )
    return result
