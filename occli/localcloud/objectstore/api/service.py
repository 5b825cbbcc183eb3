"""``ObjectStoreService``: Swift's framing around the resource modules.

The routes are ``auth=False``: the handlers authorise (a token whose
project owns the account, or a valid temp URL on an object path: see
:func:`.common.authorize`). A path that is not UTF-8 or holds a NUL is a
412 (the proxy's ``check_utf8``, ``before``). Errors are Swift's bodies
(``error_body``): the domain error's ``text`` verbatim, else Swift's HTML
page. The objects' files (``files``), the tables (``migrations``) and what
other services read (``read_object``, ``signed_object``) are here too.
"""

import re
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import files
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Route
from occli.localcloud.app import Service
from occli.localcloud.objectstore import migrations
from occli.localcloud.objectstore import objects as object_rules
from occli.localcloud.objectstore import tempurl
from occli.localcloud.objectstore.api import accounts
from occli.localcloud.objectstore.api import containers
from occli.localcloud.objectstore.api import info
from occli.localcloud.objectstore.api import objects
from occli.localcloud.objectstore.api.common import OBJECT
from occli.localcloud.objectstore.api.common import TOO_LARGE
from occli.localcloud.objectstore.api.common import wsgi_text

# The API modules, each with register(service), in route order.
RESOURCES = (info, accounts, containers, objects)

_HTML_ERRORS = {
    401: "This server could not verify that you are authorized to access "
    "the document you requested.",
    403: "Access was denied to this resource.",
    404: "The resource could not be found.",
    405: "The method is not allowed for this resource.",
    409: "There was a conflict when trying to complete your request.",
    411: "Length Required",
    412: "A precondition for this request was not met.",
    422: "Unable to process the contained instructions",
    499: "The client was disconnected during request.",
}


class ObjectStoreService(Service):
    """Swift v1 on ``/object-store/v1/AUTH_<project_id>``."""

    name = "objectstore"
    prefix = "/object-store"
    # Also answer ``/v1/AUTH_<project>/...`` at the root. heat (and
    # heatclient's TEMP_URL_SIGNAL) build a temp URL as
    # ``<scheme>://<netloc of the object-store endpoint>/v1/AUTH_p/c/o``,
    # dropping the endpoint's path: fine for a real Swift on its own port,
    # a 404 here without this alias. Swift's capabilities are at the
    # proxy's root (``/info``) too, where swiftclient and openstacksdk ask.
    root_paths = ("/v1/AUTH_", "/info")
    listing_limit = 10000

    @property
    def max_object_size(self):
        """Swift's ``max_file_size``: ``Config.max_object_size``."""
        return self.cloud.config.max_object_size

    @property
    def max_body(self):
        """Bodies up to an object's size get past the application's check."""
        return self.max_object_size

    def __init__(self, cloud):
        super().__init__(cloud)
        self.files = files.Files(cloud.config.data_dir)
        self.add_resources(RESOURCES)

    _object_path = re.compile("^" + OBJECT + "/?$")

    def body_digests(self, method, path):
        """An object PUT's body is stored with its MD5 (``files.MD5``)."""
        sub = path[len(self.prefix) :] if path.startswith(self.prefix + "/") else path
        return files.MD5 if method == "PUT" and self._object_path.match(sub) else ()

    def swift_route(self, method, regex, handler, mode="auto"):
        """Route the path ``regex`` matches (an account, container or
        object path: names may hold any character but ``/``, an object's
        ``/`` too), authorised by ``handler`` itself (``auth=False``)."""
        route = Route(method, "/", handler, auth=False, mode=mode)
        route.regex = re.compile("^" + regex + "/?$")
        self.routes.append(route)

    def migrations(self):
        return list(migrations.components(self.files))

    # -- framework hooks ---------------------------------------------------

    def error_body(self, status, message, extra):
        text = extra.get("text")
        if text is None and status == 413:
            text = TOO_LARGE
        if text is None:
            text = "<html><h1>%s</h1><p>%s</p></html>" % (
                common.reason(status),
                _HTML_ERRORS.get(status, message),
            )
        return Response(
            status,
            raw=text,
            content_type=(
                "text/html; charset=UTF-8" if text.startswith("<") else "text/plain; charset=UTF-8"
            ),
        )

    def before(self, req):
        # container and object names as text, not WSGI's latin-1 of UTF-8
        req.params = {k: wsgi_text(v) for k, v in req.params.items()}
        if "object" in req.params:
            # routing drops a path's trailing slashes; in Swift they belong
            # to the object's name (``PUT …/c/dir/`` stores ``dir/``, a
            # pseudo-directory marker), as its split_path keeps them
            req.params["object"] += "/" * (len(req.path) - len(req.path.rstrip("/")))

    def after(self, req, resp):
        resp.headers.setdefault("X-Trans-Id", req.request_id)

    def not_found(self, req):
        return HTTPError(404)

    def method_not_allowed(self, req):
        return HTTPError(405)

    # -- storage access for other services --------------------------------

    def read_object(
        self, db: sqlite3.Connection, account: str, container: str, name: str
    ) -> dict[str, Any] | None:
        """The stored object as a dict (``body``, ``timestamp``, …) or None;
        ``body`` is the whole content (heat's signals are small)."""
        obj = object_rules.read(db, account, container, name)
        if obj is not None:
            obj["body"] = self.files.read(obj["file"])
        return obj

    def signed_object(
        self, db: sqlite3.Connection, url: str, method: str = "HEAD"
    ) -> tuple[str, str, str] | None:
        """``(account, container, object)`` temp URL ``url`` validly grants
        ``method`` on, or None (see :func:`.tempurl.signed_object`)."""
        return tempurl.signed_object(db, url, self.prefix, method)
