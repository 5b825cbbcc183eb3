"""Resource and Manager: the handful of verbs every resource manager reuses.

A manager talks to one service through the client's keystoneauth1
``Adapter`` of that service and turns
``_list/_get/_create/_update/_delete/_action`` into authenticated REST calls,
returning :class:`Resource` objects (or a :class:`Result`) and raising
:mod:`occli.exceptions` errors built by ``from_response``. It knows HTTP and
nothing of the shell.
"""

import builtins
import functools
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import Literal
from typing import Protocol
from typing import overload
from urllib.parse import parse_qs
from urllib.parse import urlparse

from occli import exceptions
from occli import paging

if TYPE_CHECKING:
    import requests
    from keystoneauth1 import adapter as ks_adapter
    from keystoneauth1 import session as ks_session

    from occli import api_versions


class ClientLike(Protocol):
    """What a manager uses of its client (:class:`occli.client.Client` is
    one): the session, the adapter and microversion of a service, its
    versioned root, and (by attribute) the other managers and what a
    service's managers alone ask of it. Named here, not
    imported, so that base sits below the client in the import graph."""

    session: "ks_session.Session"

    def adapter(self, service_type: str) -> "ks_adapter.Adapter": ...

    def api_version(self, service_type: str) -> "api_versions.APIVersion | None": ...

    def service_root(self, service_type: str, version: str) -> str: ...

    def __getattr__(self, name: str) -> Any: ...


_IDEMPOTENT = frozenset(("GET", "HEAD", "PUT", "DELETE"))
#: keystoneauth1's redirect statuses: one that is the answer was not followed.
_REDIRECTS = frozenset((301, 302, 303, 305, 307, 308))
#: Statuses worth trying again: the gateway or the service is busy.
RETRIABLE_STATUSES = [502, 503, 504]
#: What an answer's member must be, as an error names it.
_KINDS: dict[type | tuple[type, ...], str] = {
    dict: "an object",
    list: "a list",
    str: "a string",
    (int, float): "a number",
}
#: :meth:`Manager._value`'s default: the member must be there.
_REQUIRED = object()


class Clear:
    """The type of :data:`CLEAR` (one instance)."""

    def __repr__(self) -> str:
        return "CLEAR"


#: Pass as a field value to send it as JSON null, i.e. remove it, e.g.
#: ``client.servers.update(server, description=CLEAR)`` or
#: ``client.servers.unshelve(server, availability_zone=CLEAR)``.
CLEAR = Clear()


def getid(obj: object) -> Any:
    """The id of a resource object, or ``obj`` itself if it is an id."""
    return getattr(obj, "id", obj)


class Resource:
    """A resource from the API: attribute access to its body.

    As novaclient's, a resource not yet ``loaded`` (what a create, an
    update or an action answered, or one made by hand) fetches itself once
    (one GET by its id, the answer merged into the body, its request id
    appended to ``request_ids``) when an attribute its body lacks is read:
    e.g. ``name`` of the server ``servers.create`` answered. A resource that
    a ``get`` or a list answered is loaded, so reading a missing attribute
    of a listed (or streamed, ``iter()``) resource never sends a request;
    ``set_loaded(True)`` turns lazy loading off, :meth:`get` refreshes.
    """

    def __init__(
        self,
        manager: "Manager",
        info: Mapping[str, Any] | None,
        request_ids: Iterable[str] | None = None,
        loaded: bool = False,
    ) -> None:
        self.manager = manager
        self._info = dict(info or {})
        self.request_ids = list(request_ids or [])
        self._loaded = loaded

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("manager", "_info", "request_ids", "_loaded"):
            raise AttributeError(name)
        if name not in self._info and not self._loaded:
            self._lazy_load()
        try:
            return self._info[name]
        except KeyError:
            raise AttributeError("%s has no attribute %r" % (type(self).__name__, name)) from None

    def _lazy_load(self) -> None:
        """novaclient's lazy loading: merge in what a GET by id answers,
        once (marked loaded first, so that a failed GET is not retried),
        when the manager's ``get`` takes the id alone."""
        self._loaded = True
        get = getattr(self.manager, "get", None)
        if "id" not in self._info or get is None:
            return
        import inspect

        try:
            inspect.signature(get).bind(self._info["id"])
        except (TypeError, ValueError):
            return  # a get that needs more than the id (e.g. the server's too)
        fresh = get(self._info["id"])
        self._info = {**self._info, **fresh._info}
        self.request_ids.extend(fresh.request_ids)

    def is_loaded(self) -> bool:
        """Whether the whole resource was read (no lazy loading then)."""
        return self._loaded

    def set_loaded(self, loaded: bool) -> None:
        """Mark the resource loaded (True: a missing attribute is an
        AttributeError, no GET) or not."""
        self._loaded = loaded

    def __getitem__(self, key: str) -> Any:
        return self._info[key]

    def __contains__(self, key: object) -> bool:
        return key in self._info

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Resource):
            return NotImplemented
        if "id" in self._info and "id" in other._info:
            return type(self) is type(other) and self.id == other.id
        return self._info == other._info

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._info.get("id")))

    def __repr__(self) -> str:
        shown = ", ".join(
            "%s=%r" % (k, self._info[k]) for k in ("id", "name", "status") if k in self._info
        )
        return "<%s %s>" % (type(self).__name__, shown)

    def to_dict(self) -> dict[str, Any]:
        """A copy of the resource body."""
        return dict(self._info)

    def get(self) -> "Resource":
        """Fetch the resource again and update this object in place."""
        fresh = self.manager.get(self.id)
        self._info = fresh._info
        self.request_ids = fresh.request_ids
        self._loaded = True
        return self


class Result:
    """What a request answered when it returns no resource: ``request_ids``
    and ``body`` (the JSON body, ``{}`` when there is none)."""

    def __init__(
        self, body: dict[str, Any] | None = None, request_ids: Iterable[str] = ()
    ) -> None:
        self.body = {} if body is None else body
        self.request_ids = list(request_ids)

    def __repr__(self) -> str:
        return "<Result request_ids=%r>" % (self.request_ids,)


class ListWithMeta(list[Any]):
    """A list of resources carrying the ``request_ids`` of the requests
    that read it (one per page), as novaclient's ``ListWithMeta``."""

    def __init__(self, values: Iterable[Any] = (), request_ids: Iterable[str] = ()) -> None:
        super().__init__(values)
        self.request_ids = list(request_ids)

    def append_request_ids(self, request_ids: str | Iterable[str] | None) -> None:
        """Add request ids (a str or a list of them)."""
        if isinstance(request_ids, str):
            request_ids = [request_ids]
        self.request_ids.extend(request_ids or ())


class DictWithMeta(dict[str, Any]):
    """A dict carrying ``request_ids``, as novaclient's."""

    def __init__(
        self,
        values: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
        request_ids: Iterable[str] = (),
    ) -> None:
        super().__init__(values)
        self.request_ids = list(request_ids)


class StrWithMeta(str):
    """A str carrying ``request_ids``, as novaclient's."""

    request_ids: list[str]

    def __new__(cls, value: str, request_ids: Iterable[str] = ()) -> "StrWithMeta":
        text = super().__new__(cls, value)
        text.request_ids = list(request_ids)
        return text


def renamed(options: dict[str, Any], aliases: Mapping[str, str], where: str) -> dict[str, Any]:
    """Move novaclient's argument names in ``options`` (a dict of keyword
    arguments, changed in place) to occli's: ``aliases`` maps a
    novaclient name to occli's. TypeError if both names are given."""
    for alias, name in aliases.items():
        if alias in options:
            if name in options:
                raise TypeError(
                    "%s() got both %r and its novaclient alias %r" % (where, name, alias)
                )
            options[name] = options.pop(alias)
    return options


class Manager:
    """Base of resource managers.

    Subclasses set ``resource_class`` and ``service_type``: requests go
    through the client's adapter of that service, configured there once
    (endpoint, retries, microversion).
    """

    resource_class = Resource
    service_type: str
    # a subclass's reads, which find(), find_all() and find_resource() use
    list: Callable[..., Any]
    get: Callable[..., Any]

    def __init__(self, client: ClientLike) -> None:
        self.client = client

    @property
    def api(self) -> "ks_adapter.Adapter":
        """The keystoneauth1 Adapter of this manager's service."""
        return self.client.adapter(self.service_type)

    @property
    def api_version(self) -> "api_versions.APIVersion | None":
        """The microversion of this manager's service (None if unversioned)."""
        return self.client.api_version(self.service_type)

    def _request(
        self,
        method: str,
        url: str,
        body: object = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> "requests.Response":
        """Send one request through the adapter; raise on an HTTP error.

        The adapter retries connection failures and 502/503/504; a request
        that is not idempotent (POST, PATCH) is sent once, since it might
        have been applied. ``microversion`` overrides the adapter's for this
        request only.
        """
        if method not in _IDEMPOTENT:
            kwargs.update(connect_retries=0, status_code_retries=0)
        microversion = kwargs.pop("microversion", None)
        if microversion is not None:
            kwargs["microversion"] = str(microversion)
        if body is not None:
            kwargs["json"] = body
        response = self.api.request(url, method, params=params, headers=headers, **kwargs)
        if response.status_code >= 400:
            raise exceptions.from_response(response, method, url)
        if response.status_code in _REDIRECTS:
            raise exceptions.RedirectRefused(
                "%s %s answered a redirect (HTTP %d) that was not followed%s."
                % (
                    method,
                    response.url,
                    response.status_code,
                    " (it names no Location)" if "Location" not in response.headers else "",
                ),
                code=response.status_code,
                request_id=_request_id(response),
            )
        return response

    def _body(self, response: "requests.Response") -> dict[str, Any]:
        """The JSON object of ``response`` (``{}`` when it has no body)."""
        if not response.content:
            return {}
        try:
            body = response.json()
        except ValueError:
            raise exceptions.ClientException(
                "The server answered with a body that is not JSON",
                code=response.status_code,
                request_id=_request_id(response),
            ) from None
        if not isinstance(body, dict):
            raise _unexpected(response, "its body is not a JSON object")
        return body

    def _member(
        self, response: "requests.Response", body: Mapping[str, Any], key: str
    ) -> dict[str, Any]:
        """``body[key]``, the object of the resource ``response`` answered:
        UnexpectedResponse when it is missing or not an object."""
        return self._value(response, body, key, dict)

    def _value(
        self,
        response: "requests.Response",
        body: Mapping[str, Any],
        key: str,
        kind: type | tuple[type, ...],
        default: Any = _REQUIRED,
    ) -> Any:
        """``body[key]``, a member ``response`` answered that must be a
        ``kind`` (dict, list, str or ``(int, float)``); ``default`` when it
        is missing or null and a default is given: UnexpectedResponse
        otherwise."""
        value = body.get(key)
        if value is None and default is not _REQUIRED:
            return default
        if not isinstance(value, kind):
            raise _unexpected(
                response, "%r is %s" % (key, "missing" if value is None else "not " + _KINDS[kind])
            )
        return value

    def _items(
        self,
        response: "requests.Response",
        body: Mapping[str, Any],
        key: str,
        item_key: str | None = None,
        kind: type = dict,
    ) -> builtins.list[Any]:
        """The entries listed as ``body[key]`` (none when it is missing or
        null), each unwrapped from ``item_key`` when given:
        UnexpectedResponse when they are not a list of ``kind`` (objects,
        or str)."""
        items = body.get(key) or []
        if not isinstance(items, list):
            raise _unexpected(response, "%r is not a list" % key)
        if item_key:
            items = [i.get(item_key) if isinstance(i, dict) else None for i in items]
        if not all(isinstance(item, kind) for item in items):
            raise _unexpected(response, "an entry of %r is not %s" % (key, _KINDS[kind]))
        return items

    def _next_page(
        self, response: "requests.Response", body: Mapping[str, Any], links_key: str
    ) -> str | None:
        """The marker of the next page ``body[links_key]`` names (None on
        the last page): UnexpectedResponse when they are not links."""
        try:
            return _next_marker(body.get(links_key))
        except (AttributeError, TypeError):
            raise _unexpected(response, "%r is not a list of links" % links_key) from None

    def _resource(
        self,
        info: Mapping[str, Any] | None,
        response: "requests.Response | None" = None,
        loaded: bool = True,
    ) -> Resource:
        """A resource of ``info``; ``loaded`` unless it is a write's answer
        (which may lack attributes: it lazy-loads them), so that what a GET
        or a list answered never sends another request."""
        return self.resource_class(self, info, _request_ids(response), loaded)

    def _result(
        self, response: "requests.Response | None", body: dict[str, Any] | None = None
    ) -> Result:
        return Result(body, _request_ids(response))

    def _list_all(
        self,
        url: str,
        response_key: str,
        params: Mapping[str, Any] | None = None,
        limit: int | None = None,
        links_key: str | None = None,
        item_key: str | None = None,
    ) -> ListWithMeta:
        """Every resource :meth:`_list` yields, read at once: a
        :class:`ListWithMeta` with the request id of each page."""
        request_ids: builtins.list[str] = []
        items = [
            item
            for page in self._pages(
                url,
                response_key,
                params=params,
                limit=limit,
                links_key=links_key,
                item_key=item_key,
                request_ids=request_ids,
            )
            for item in page
        ]
        return ListWithMeta(items, request_ids)

    def _list(
        self,
        url: str,
        response_key: str,
        params: Mapping[str, Any] | None = None,
        limit: int | None = None,
        links_key: str | None = None,
        item_key: str | None = None,
        read_ahead: bool = True,
    ) -> Iterator[Resource]:
        """Yield resources, following ``<key>_links`` rel=next pages.

        ``limit`` caps the total number of items (None or -1: all pages).
        ``links_key`` names the member with the next page (a list of links,
        or an href as Glance's ``next``); ``item_key`` unwraps items that are
        wrapped one by one (as Nova's keypairs are); ``read_ahead``: see
        :meth:`_pages`.
        """
        for page in self._pages(
            url,
            response_key,
            params=params,
            limit=limit,
            links_key=links_key,
            item_key=item_key,
            read_ahead=read_ahead,
        ):
            yield from page

    def _pages(
        self,
        url: str,
        response_key: str,
        params: Mapping[str, Any] | None = None,
        limit: int | None = None,
        links_key: str | None = None,
        item_key: str | None = None,
        request_ids: builtins.list[str] | None = None,
        read_ahead: bool = True,
    ) -> Iterator[builtins.list[Resource]]:
        """Yield the resources page by page, a list per page, as
        :meth:`_list` yields them one by one. The request id of each page
        is appended to ``request_ids`` when it is a list.

        Without a ``limit``, the next page a page's body ends by naming is
        asked for before that body is decoded (:mod:`occli.paging`), and
        is the caller's once it wants it; an error of it is raised then.
        No page is asked for that the listing would not ask for, unless a
        caller stops early or a page lists nothing while naming a next one
        (one page then comes unused): ``read_ahead=False`` for a search
        that stops once it found what it looks for.
        """
        params = {k: v for k, v in (params or {}).items() if v is not None}
        links_key = links_key or response_key + "_links"
        remaining = None if limit is None or limit < 0 else limit
        if remaining is not None:
            params.setdefault("limit", remaining)
        seen: set[str] = set()
        ahead: paging.Ahead | None = None
        while True:
            response = (
                self._request("GET", url, params=params) if ahead is None else ahead.response()
            )
            ahead = None
            if request_ids is not None:
                request_ids.extend(_request_ids(response))
            guess = None
            if read_ahead and remaining is None:
                guess = paging.next_marker_at_end(response.content, links_key, _next_marker)
                if guess is not None and guess not in seen:
                    ahead = paging.Ahead(
                        functools.partial(
                            self._request, "GET", url, params=dict(params, marker=guess)
                        ),
                        getattr(self.client, "session", None),
                    )
            body = self._body(response)
            items = self._items(response, body, response_key, item_key)
            if remaining is not None:
                items = items[:remaining]
                remaining -= len(items)
            ids = _request_ids(response)  # read once: a page's items share them
            page = [self.resource_class(self, item, ids, True) for item in items]
            next_marker = self._next_page(response, body, links_key)
            del response, body, items  # a page in memory at a time, not two
            if next_marker != guess:
                ahead = None  # a wrong guess: its answer is dropped
            if not page:
                return
            yield page
            del page  # dropped before the next page is read
            if next_marker is None or next_marker in seen:
                return
            if remaining is not None and remaining <= 0:
                return
            seen.add(next_marker)
            params = dict(params, marker=next_marker)
            if remaining is not None:
                params["limit"] = remaining

    def _get(
        self, url: str, response_key: str, params: Mapping[str, Any] | None = None
    ) -> Resource:
        response = self._request("GET", url, params=params)
        return self._resource(self._member(response, self._body(response), response_key), response)

    @overload
    def _create(
        self,
        url: str,
        body: object,
        response_key: str,
        return_raw: Literal[False] = False,
        **kwargs: Any,
    ) -> Resource: ...

    @overload
    def _create(
        self, url: str, body: object, response_key: str, return_raw: Literal[True], **kwargs: Any
    ) -> dict[str, Any]: ...

    def _create(
        self, url: str, body: object, response_key: str, return_raw: bool = False, **kwargs: Any
    ) -> Resource | dict[str, Any]:
        response = self._request("POST", url, body=body, **kwargs)
        data = self._body(response)
        if return_raw:
            return data
        return self._resource(self._member(response, data, response_key), response, loaded=False)

    @overload
    def _update(
        self, url: str, body: object, response_key: str, method: str = "PUT", **kwargs: Any
    ) -> Resource: ...

    @overload
    def _update(
        self, url: str, body: object, response_key: None = None, method: str = "PUT", **kwargs: Any
    ) -> dict[str, Any]: ...

    def _update(
        self,
        url: str,
        body: object,
        response_key: str | None = None,
        method: str = "PUT",
        **kwargs: Any,
    ) -> Resource | dict[str, Any]:
        response = self._request(method, url, body=body, **kwargs)
        data = self._body(response)
        if response_key:
            return self._resource(
                self._member(response, data, response_key), response, loaded=False
            )
        return data

    def _delete(self, url: str, **kwargs: Any) -> Result:
        """DELETE ``url``; a :class:`Result`."""
        return self._result(self._request("DELETE", url, **kwargs))

    @overload
    def _action(
        self, url: str, action: str, info: object = None, response_key: None = None, **kwargs: Any
    ) -> Result: ...

    @overload
    def _action(
        self, url: str, action: str, info: object, response_key: str, **kwargs: Any
    ) -> Resource | Result: ...

    @overload
    def _action(
        self, url: str, action: str, info: object = None, *, response_key: str, **kwargs: Any
    ) -> Resource | Result: ...

    def _action(
        self,
        url: str,
        action: str,
        info: object = None,
        response_key: str | None = None,
        **kwargs: Any,
    ) -> Resource | Result:
        """POST ``{action: info}`` to an ``…/action`` URL; the resource
        under ``response_key`` if the answer has one, else a :class:`Result`."""
        response = self._request("POST", url, body={action: info}, **kwargs)
        data = self._body(response)
        if response_key and response_key in data:
            return self._resource(
                self._member(response, data, response_key), response, loaded=False
            )
        return self._result(response, data)

    def find(self, **filters: Any) -> Resource:
        """The single resource matching all ``filters``; NotFound or NoUniqueMatch."""
        matches = self.find_all(**filters)
        if not matches:
            raise exceptions.NotFound(
                "No %s matching %s." % (self._noun(), _describe(filters)), code=404
            )
        if len(matches) > 1:
            raise self._ambiguous(_describe(filters), matches)
        return matches[0]

    def find_all(self, **filters: Any) -> builtins.list[Resource]:
        """All resources whose attributes equal ``filters`` (client-side)."""
        return [
            r for r in self.list() if all(getattr(r, k, None) == v for k, v in filters.items())
        ]

    def find_resource(self, name_or_id: Any) -> Resource:
        """Resolve a name or id: the id first, then an exact name."""
        if isinstance(name_or_id, Resource):
            return name_or_id
        name_or_id = str(name_or_id)
        try:
            return self.get(name_or_id)
        except (exceptions.NotFound, exceptions.BadRequest):
            pass
        return self._one_named(self._find_by_name(name_or_id), name_or_id)

    def _one_named(self, matches: builtins.list[Resource], name_or_id: str) -> Resource:
        """The one resource of ``matches`` (those found by the name or id
        ``name_or_id``): NotFound when there is none, NoUniqueMatch when
        there are several."""
        if not matches:
            raise exceptions.NotFound(
                "No %s with a name or ID of '%s' exists." % (self._noun(), name_or_id), code=404
            )
        if len(matches) > 1:
            raise self._ambiguous("name '%s'" % name_or_id, matches)
        return matches[0]

    def _find_by_name(self, name: str) -> builtins.list[Resource]:
        return [r for r in self.list() if getattr(r, "name", None) == name]

    def _noun(self) -> str:
        return self.resource_class.__name__.lower()

    def _ambiguous(self, what: str, matches: Iterable[Resource]) -> exceptions.NoUniqueMatch:
        ids = ", ".join(str(getattr(m, "id", "?")) for m in matches)
        return exceptions.NoUniqueMatch(
            "More than one %s matches %s (%s); use the ID." % (self._noun(), what, ids)
        )


def _unexpected(response: "requests.Response", what: str) -> exceptions.UnexpectedResponse:
    """The error of a successful answer that is not what the API documents."""
    return exceptions.UnexpectedResponse(
        "The answer from %s is not what the API documents: %s." % (response.url, what),
        code=response.status_code,
        request_id=_request_id(response),
    )


def _request_id(response: "requests.Response | None") -> str | None:
    if response is None:
        return None
    headers = response.headers
    return headers.get("x-openstack-request-id") or headers.get("x-compute-request-id")


def _request_ids(response: "requests.Response | None") -> list[str]:
    request_id = _request_id(response)
    return [request_id] if request_id else []


def _next_marker(links: str | Iterable[Mapping[str, Any]] | None) -> str | None:
    """The marker of the next page from ``*_links`` or a ``next`` href."""
    if isinstance(links, str):
        hrefs = [links]
    else:
        hrefs = [link.get("href", "") for link in links or () if link.get("rel") == "next"]
    for href in hrefs:
        markers = parse_qs(urlparse(href).query).get("marker")
        if markers:
            return markers[-1]
    return None


def _describe(filters: Mapping[str, Any]) -> str:
    return ", ".join("%s=%s" % kv for kv in sorted(filters.items()))
