"""Swift (object-store v1): ``client.object_store``, the account, its
containers and objects (the ``container``, ``object`` and ``object store
account`` commands, and the deployment signal path), and temp URLs.

Methods that change something return a :class:`occli.base.Result` (or,
for the commands, the dict of what OSC shows). Requests go through the
``object-store`` adapter (the catalog endpoint is the account URL,
``…/v1/AUTH_<project>``).

Temp URLs are signed over the *full* URL path of the object, as taken from
the catalog endpoint (``/v1/AUTH_p/c/o`` on a plain Swift,
``/object-store/v1/AUTH_p/c/o`` behind a path prefix), percent-decoded:
Swift's tempurl middleware verifies the request's decoded ``PATH_INFO``
(as swiftclient's ``generate_temp_url`` signs the plain path), so a name
with a space or a non-ASCII character must be signed as it is, not escaped.
"""

import hashlib
import hmac
import time
import uuid
from urllib.parse import unquote
from urllib.parse import urlencode
from urllib.parse import urlparse

from occli import base
from occli.v2.object_store import account
from occli.v2.object_store import base as swift
from occli.v2.object_store import containers
from occli.v2.object_store import objects

TEMP_URL_KEY_HEADER = "X-Account-Meta-Temp-URL-Key"
TEMP_URL_KEY_2_HEADER = "X-Account-Meta-Temp-URL-Key-2"


def temp_url_signature(key: str, method: str, expires: float, path: str) -> str:
    """Hex HMAC-SHA256 of ``"METHOD\\nEXPIRES\\nPATH"`` keyed by ``key``."""
    body = "%s\n%d\n%s" % (method.upper(), int(expires), path)
    return hmac.new(key.encode("utf-8"), body.encode("utf-8"), hashlib.sha256).hexdigest()


class ObjectStoreManager(account.AccountMixin, containers.ContainerMixin, objects.ObjectMixin):
    """The project's Swift account: the methods of the account
    (:mod:`occli.v2.object_store.account`), of its containers
    (:mod:`occli.v2.object_store.containers`) and of their objects
    (:mod:`occli.v2.object_store.objects`), and temp URLs."""

    def object_url(self, container: str, name: str) -> str:
        """The URL of an object (names are percent-encoded)."""
        return self.endpoint + swift.object_path(container, name)

    def get_temp_url_key(self) -> str | None:
        """The account's temp-URL key, or None when none is set."""
        return self.head_account().get(TEMP_URL_KEY_HEADER) or None

    def set_temp_url_key(self, key: str, secondary: bool = False) -> base.Result:
        """Set the account's temp-URL key (``-Key-2`` if ``secondary``)."""
        header = TEMP_URL_KEY_2_HEADER if secondary else TEMP_URL_KEY_HEADER
        return self._post(self.endpoint, {header: key})

    def ensure_temp_url_key(self) -> str:
        """The account's temp-URL key, setting a random one if there is none."""
        key = self.get_temp_url_key()
        if key is None:
            key = uuid.uuid4().hex
            self.set_temp_url_key(key)
        return key

    # -- temp URLs ----------------------------------------------------------

    def temp_url(
        self,
        path: str,
        method: str = "GET",
        expires: float = 3600,
        key: str | None = None,
        absolute: bool = False,
    ) -> str:
        """A temp URL for ``path`` (``"<container>/<object>"``).

        ``expires`` is a lifetime in seconds, or a Unix time if ``absolute``.
        ``key`` defaults to the account's key (set if missing). The
        signature is HMAC-SHA256 over the object URL's full, decoded path.
        """
        container, _, name = path.lstrip("/").partition("/")
        if not container or not name:
            raise ValueError("temp_url path must be '<container>/<object>', got %r" % path)
        if key is None:
            key = self.ensure_temp_url_key()
        expires = int(expires if absolute else time.time() + expires)
        url = self.object_url(container, name)
        signature = temp_url_signature(key, method, expires, unquote(urlparse(url).path))
        return "%s?%s" % (url, urlencode({"temp_url_sig": signature, "temp_url_expires": expires}))

    def locate(self, url: object) -> tuple[str, str] | None:
        """``(container, object)`` of an object URL in this account, or None."""
        if not isinstance(url, str):
            return None
        account = urlparse(self.endpoint)
        target = urlparse(url)
        prefix = account.path.rstrip("/") + "/"
        if target.netloc != account.netloc or not target.path.startswith(prefix):
            return None
        container, _, name = target.path[len(prefix) :].partition("/")
        if not container or not name:
            return None
        return unquote(container), unquote(name)
