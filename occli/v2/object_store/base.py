"""Base of the Swift v1 managers (the catalog's ``object-store`` service):
the requests of listings and the metadata headers of accounts, containers
and objects (Swift's ``X-<Kind>-Meta-<key>``)."""

import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import quote
from urllib.parse import urlparse

from occli import base
from occli import exceptions

if TYPE_CHECKING:
    import requests

#: An HTTP header name's characters (RFC 9110 ``token``): a property key
#: is sent as part of one.
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
#: What a header value may hold: printable ASCII and tabs.
_VALUE = re.compile(r"[\t\x20-\x7e]*")


#: Path segments requests removes from a URL (RFC 3986 dot segments, even
#: sent as ``%2E``: it unquotes unreserved characters): ``c/../x`` would
#: reach container ``x``. A name with one cannot be sent.
_DOT_SEGMENTS = (".", "..")


def container_path(container: str) -> str:
    """The path of a container under the account, percent-encoded: a
    ValidationError for an empty name, ``.``, ``..``, or one with ``/``
    (Swift would take the rest for an object's name)."""
    if not container or "/" in container or container in _DOT_SEGMENTS:
        raise exceptions.ValidationError(
            "{container}: a container name is not empty, '.' or '..' and has no '/', not %r."
            % container,
            params=("container",),
        )
    return "/" + quote(container, safe="")


def object_path(container: str, name: str) -> str:
    """The path of an object under the account, percent-encoded (its ``/``
    kept: they are part of the name): a ValidationError for an empty name
    or one with a ``.`` or ``..`` part, which no URL can carry."""
    if not name or any(part in _DOT_SEGMENTS for part in name.split("/")):
        raise exceptions.ValidationError(
            "{object}: an object name is not empty and has no '.' or '..' part between "
            "its '/', not %r." % name,
            params=("object",),
        )
    return "%s/%s" % (container_path(container), quote(name))


def check_properties(properties: Mapping[str, str], setting: bool = True) -> None:
    """ValidationError for a property Swift cannot take in a header: a key
    that is not a header-name token, a value (``setting``) that is not
    printable ASCII (OSC logs "Cannot set property … to non-ascii value")."""
    for key, value in properties.items():
        if not _TOKEN.fullmatch(key):
            raise exceptions.ValidationError(
                "{properties}: %r is not a valid property key (letters, digits and "
                "!#$%%&'*+-.^_`|~ only)." % key,
                params=("properties",),
            )
        if setting and not _VALUE.fullmatch(value):
            raise exceptions.ValidationError(
                "{properties}: Cannot set property %s to non-ascii value" % key,
                params=("properties",),
            )


def meta_headers(kind: str, properties: Mapping[str, str]) -> dict[str, str]:
    """The ``X-<Kind>-Meta-<key>: <value>`` headers that set ``properties``
    (``kind``: ``Account``, ``Container`` or ``Object``), checked."""
    if not properties:
        raise exceptions.ValidationError("Nothing to change.")
    check_properties(properties)
    return {"X-%s-Meta-%s" % (kind, k): v for k, v in properties.items()}


def remove_headers(kind: str, keys: Iterable[str]) -> dict[str, str]:
    """The ``X-Remove-<Kind>-Meta-<key>`` headers that remove the
    properties ``keys`` (Swift ignores their value; OSC sends ``x``)."""
    keys = list(keys)
    if not keys:
        raise exceptions.ValidationError("Nothing to change.")
    check_properties(dict.fromkeys(keys, ""), setting=False)
    return {"X-Remove-%s-Meta-%s" % (kind, k): "x" for k in keys}


def properties_of(headers: Mapping[str, str], kind: str) -> dict[str, str]:
    """The properties in the ``X-<Kind>-Meta-*`` headers of an answer
    (their keys as the answer spells them)."""
    prefix = "x-%s-meta-" % kind.lower()
    return {k[len(prefix) :]: v for k, v in headers.items() if k.lower().startswith(prefix)}


class SwiftManager(base.Manager):
    """A manager of the object-store API."""

    service_type = "object-store"

    @property
    def endpoint(self) -> str:
        """The account URL from the catalog (no trailing slash)."""
        endpoint = self.api.get_endpoint()
        if not endpoint:
            raise exceptions.ClientException(
                "No object-store endpoint found in the service catalog."
            )
        return endpoint.rstrip("/")

    @property
    def account(self) -> str:
        """The account's name (``AUTH_<project>``, the endpoint's last segment)."""
        return urlparse(self.endpoint).path.rstrip("/").rsplit("/", 1)[-1]

    def _post(self, path: str, headers: Mapping[str, str]) -> base.Result:
        """POST ``headers`` to an account, container or object (metadata)."""
        return self._result(self._request("POST", path, headers=headers))

    def _listing(
        self,
        url: str,
        full: bool = False,
        **query: str | int | None,
    ) -> Iterator[dict[str, Any]]:
        """The entries of an account's or a container's JSON listing, one
        page in memory at a time: the first page (``limit`` entries at
        most, Swift's 10000 by default), or with ``full`` every page, each
        asked for after the last name of the one before (OSC's
        ``full_listing``) until a page shorter than the ``limit`` sent or
        an empty one: Swift fills every page but the last (the user
        guide's cli-swift-large-lists), so none is asked for after a
        short one. ``query``: ``prefix``, ``delimiter``, ``marker``,
        ``end_marker``, ``limit`` (None or empty: not sent)."""
        params: dict[str, Any] = {"format": "json"}
        params.update((k, v) for k, v in query.items() if v not in (None, ""))
        page = int(params.get("limit", 0))
        seen: set[str] = set()
        while True:
            response = self._request("GET", url, params=params)
            entries = _entries(response)
            del response
            yield from entries
            if not full or not entries or len(entries) < page:
                return
            marker = entries[-1].get("name", entries[-1].get("subdir"))
            if not isinstance(marker, str) or marker in seen:
                return
            seen.add(marker)
            params["marker"] = marker


def _entries(response: "requests.Response") -> list[dict[str, Any]]:
    """The entries of a listing page (204 or no body: none):
    UnexpectedResponse when it is not a list of objects."""
    if response.status_code == 204 or not response.content:
        return []
    try:
        entries = response.json()
    except ValueError:
        entries = None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise exceptions.UnexpectedResponse(
            "The answer from %s is not what the API documents: the listing is not a "
            "JSON list of objects." % response.url,
            code=response.status_code,
        )
    return entries
