"""Swift temp URLs made for a stack (Heat's swift client plugin,
``heat/engine/clients/os/swift.py`` ``get_temp_url``).

The account's ``Temp-URL-Key`` is set on first use, as Heat sets it; the
URL is signed with HMAC-SHA256 over ``/v1/AUTH_<project>/<container>/
<object>`` (what swiftclient's ``generate_temp_url`` signs) and is
absolute, ``<scheme>://<netloc>/v1/AUTH_…`` as Heat builds it (the
object store answers that path at the root too): the agent of a server
polls it from outside the cloud.
"""

import hashlib
import hmac
import os
import secrets
from typing import Any
from urllib.parse import quote

from occli.localcloud.orchestration.engine.clients import Clients

KEY_HEADER = "x-account-meta-temp-url-key"
# heat's MAX_EPOCH: the temp URLs it makes never expire in practice
MAX_EPOCH = 2147483647


def root_url(config: Any) -> str:
    """The root URL clients reach the cloud at (what the cloud wrote into
    ``<data_dir>/endpoint`` when it started serving), else its configured
    address."""
    try:
        with open(os.path.join(config.data_dir, "endpoint"), encoding="utf-8") as f:
            url = f.read().strip()
    except OSError:
        url = ""
    return url or "http://%s:%s" % (config.host, config.port)


def account_key(clients: Clients) -> str:
    """The account's temp URL key, set to a new random one when missing."""
    headers = clients.request("object-store", "HEAD", "").headers
    if not headers.get(KEY_HEADER):
        clients.post("object-store", "", headers={KEY_HEADER: secrets.token_hex(16)})
        headers = clients.request("object-store", "HEAD", "").headers
    return headers[KEY_HEADER]


def get_temp_url(
    clients: Clients, config: Any, container: str, obj: str, method: str = "PUT"
) -> str:
    """A temp URL granting ``method`` on ``container/obj`` of the stack's
    project."""
    key = account_key(clients)
    path = "/v1/AUTH_%s/%s/%s" % (clients.context.project_id, container, obj)
    expires = int(MAX_EPOCH - 60)
    body = "%s\n%d\n%s" % (method, expires, path)
    sig = hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()
    return "%s%s?temp_url_sig=%s&temp_url_expires=%d" % (
        root_url(config),
        quote(path),
        sig,
        expires,
    )
