"""The page ahead of a listing: asked for while this page is decoded.

A list's next page is named by a link at the end of its body (Nova's
``servers_links``, Neutron's ``ports_links``, Glance's ``next``), so
:func:`next_marker_at_end` reads that link off the last bytes of the raw
body, before the body is decoded, and :class:`Ahead` asks for that page on
a thread of its own. The local cloud, or a real service, then builds page
N+1 while occli decodes page N and writes its rows: on a 10,000-server
listing each page's decoding and writing overlaps the next page's server
time instead of adding to it. The guess is checked against the decoded
body's own link; a wrong guess (a nested key of the same name) costs one
unused GET, never a wrong listing.
"""

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    import requests
    from keystoneauth1 import session as ks_session

#: how much of a body's end holds its next link (the link is an href with
#: the list's filters: a few hundred bytes)
TAIL = 8192

#: the longest the caller waits for the page ahead to be sent (a new
#: connection's set-up included; an adapter that is not occli's sends
#: no word of it, and the caller waits for the answer) before it goes on
SENT_WAIT = 1.0

_DECODER = json.JSONDecoder()


def next_marker_at_end(
    content: bytes, links_key: str, marker_of: Callable[[Any], str | None]
) -> str | None:
    """The marker of the next page that ``content``'s last member
    ``links_key`` names (``marker_of`` reads it from the links), or None:
    no such member in the last :data:`TAIL` bytes, or one that does not
    decode. A member of that name nested in the last item may be found
    instead: the caller checks the guess against the decoded body."""
    key = b'"%s"' % links_key.encode()
    at = content.rfind(key, max(0, len(content) - TAIL))
    if at < 0:
        return None
    try:
        text = content[at + len(key) :].decode()
        colon = text.index(":")
        start = len(text) - len(text[colon + 1 :].lstrip())
        links, _ = _DECODER.raw_decode(text, start)
        return marker_of(links)
    except (ValueError, AttributeError, TypeError):
        return None


class Ahead:
    """One GET sent on a thread of its own: the page after the one the
    caller is given. Its answer, or its error, is the caller's when it
    asks for it (:meth:`response`). One the caller leaves unused is
    dropped when it comes (the thread is a daemon: a command that ends
    does not wait for it).

    Through occli's transport (``session``'s connections are
    :class:`occli.transport.BoundedTransport`'s), the caller goes on only
    once the request is on its way (:func:`occli.transport.when_sent`) or
    done, at most :data:`SENT_WAIT` seconds: decoding a page holds the
    interpreter for the whole page, and a request whose sending waited
    for that would reach the service no sooner than without a thread.
    """

    def __init__(
        self, send: Callable[[], "requests.Response"], session: "ks_session.Session | None"
    ) -> None:
        from occli import transport

        self._send = send
        self._answer: requests.Response | None = None
        self._error: BaseException | None = None
        self._sent = threading.Event()
        self._watched = isinstance(getattr(session, "session", None), transport.BoundedTransport)
        self._thread = threading.Thread(target=self._run, name="occli-page-ahead", daemon=True)
        self._thread.start()
        if self._watched:
            self._sent.wait(SENT_WAIT)

    def _run(self) -> None:
        from occli import transport

        try:
            with transport.when_sent(self._sent.set):
                self._answer = self._send()
        except BaseException as error:  # noqa: BLE001 - raised in the caller's thread
            self._error = error
        finally:
            self._sent.set()

    def response(self) -> "requests.Response":
        """The answer once it came; the request's error if it failed."""
        self._thread.join()
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        answer, self._answer = self._answer, None
        assert answer is not None
        return answer
