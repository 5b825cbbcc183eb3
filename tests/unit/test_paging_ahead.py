"""A list asks for its next page before it decodes this one (issue 26):
the marker is read off the end of the raw body (occli.paging), the page
ahead is sent on a thread of its own while the caller decodes and uses
this page, never further; a wrong guess is dropped; its error is raised
where the caller asks for it; no page is asked for past the last; a
listing with a limit, or ``read_ahead=False``, asks page by page."""

import io
import socket
import sys
import threading
import time

import pytest
from keystoneauth1 import session

from occli import base
from occli import exceptions
from occli import paging
from occli.client import Client

from .fakes import COMPUTE
from .fakes import password_auth
from .fakes import requests_to

URL = COMPUTE + "/servers/detail"
ID = "%08d-0000-4000-8000-%012d"


def server(i):
    return {"id": "id-%d" % i, "name": "vm-%d" % i}


class Things(base.Manager):
    service_type = "compute"


def ahead_threads():
    return [t for t in threading.enumerate() if t.name == "occli-page-ahead"]


def no_thread_left(deadline=10.0):
    """True once no page-ahead thread runs (polled up to ``deadline`` s)."""
    ends = time.monotonic() + deadline
    while ahead_threads() and time.monotonic() < ends:
        time.sleep(0.01)
    return not ahead_threads()


class Pages:
    """``count`` pages of two servers on ``URL`` (``failing``: that page
    answers 500; ``nested``: the last server of each page holds a
    ``servers_links`` of its own, naming another marker), recording each
    request as it comes."""

    def __init__(self, mock, count, failing=None, nested=False):
        self.events = []
        self.count, self.failing, self.nested = count, failing, nested
        mock.get(URL, json=self.answer)

    def answer(self, request, context):
        marker = request.qs.get("marker")
        if marker and marker[0] == "id-decoy":
            self.events.append(("asked", "decoy"))
            return {"servers": [server(99)]}
        number = int(marker[0].split("-")[1]) // 2 if marker else 0
        self.events.append(("asked", number))
        context.headers["x-openstack-request-id"] = "req-%d" % number
        if number == self.failing:
            context.status_code = 500
            return {"computeFault": {"code": 500, "message": "page %d broke" % number}}
        last = server(2 * number + 2)
        if self.nested:
            decoy = [{"rel": "next", "href": URL + "?marker=id-decoy"}]
            last["metadata"] = {"servers_links": decoy}
        body = {"servers": [server(2 * number + 1), last]}
        if number < self.count - 1:
            href = URL + "?marker=id-%d" % (2 * number + 2)
            body["servers_links"] = [{"rel": "next", "href": href}]
        return body

    def asked(self):
        return [n for kind, n in self.events if kind == "asked"]


@pytest.fixture
def things(mock_cloud):
    return Things(Client(session=session.Session(auth=password_auth())))


def asked(pages, number, deadline=10.0):
    """True once page ``number`` was asked for (polled up to ``deadline`` s)."""
    ends = time.monotonic() + deadline
    while ("asked", number) not in pages.events and time.monotonic() < ends:
        time.sleep(0.01)
    return ("asked", number) in pages.events


def test_the_next_page_is_asked_for_while_a_page_is_used_never_the_one_after(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 4)
    for number, page in enumerate(things._pages("/servers/detail", "servers")):
        assert [t.id for t in page] == ["id-%d" % (2 * number + 1), "id-%d" % (2 * number + 2)]
        if number < 3:
            # page N+1 is asked for while the caller holds page N
            assert asked(pages, number + 1)
        # ... and page N+2 only once the caller is done with page N
        assert ("asked", number + 2) not in pages.events
        pages.events.append(("used", number))
    events = pages.events
    assert pages.asked() == [0, 1, 2, 3]
    for number in range(2):
        assert events.index(("asked", number + 2)) > events.index(("used", number))
    assert no_thread_left()


def test_the_page_ahead_is_asked_for_before_this_page_is_decoded(things, mock_cloud, monkeypatch):
    pages = Pages(mock_cloud.mock, 3)
    decoded = []
    body = base.Manager._body

    def decoding(self, response):
        number = len(decoded)
        if number < 2:
            assert asked(pages, number + 1)  # already on its way
        decoded.append(number)
        return body(self, response)

    monkeypatch.setattr(base.Manager, "_body", decoding)
    assert len(things._list_all("/servers/detail", "servers")) == 6
    assert decoded == [0, 1, 2]
    assert pages.asked() == [0, 1, 2]


def test_no_page_is_asked_for_past_the_last(things, mock_cloud):
    Pages(mock_cloud.mock, 3)
    assert len(things._list_all("/servers/detail", "servers")) == 6
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/detail")) == 3


def test_a_limit_reads_page_by_page_and_stops_where_it_ends(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3)
    listing = things._list("/servers/detail", "servers", limit=4)
    assert next(listing).id == "id-1"
    assert pages.asked() == [0]
    assert not ahead_threads()
    assert [t.id for t in listing] == ["id-2", "id-3", "id-4"]
    assert pages.asked() == [0, 1]


def test_request_ids_stay_in_page_order(things, mock_cloud):
    Pages(mock_cloud.mock, 5)
    listed = things._list_all("/servers/detail", "servers")
    assert listed.request_ids == ["req-%d" % n for n in range(5)]
    assert [t.id for t in listed] == ["id-%d" % n for n in range(1, 11)]
    assert [t.request_ids for t in listed][::2] == [["req-%d" % n] for n in range(5)]


def test_a_nested_key_of_the_links_name_is_a_wrong_guess_that_is_dropped(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3, nested=True)
    listed = things._list_all("/servers/detail", "servers")
    assert [t.id for t in listed] == ["id-%d" % n for n in range(1, 7)]
    assert listed.request_ids == ["req-0", "req-1", "req-2"]
    # the last page names no next one: the guess found the nested key,
    # asked for its page and dropped it
    assert asked(pages, "decoy")  # on its own thread: polled, not raced
    assert [n for n in pages.asked() if n != "decoy"] == [0, 1, 2]
    assert no_thread_left()


def test_an_error_of_the_page_ahead_is_raised_when_it_is_wanted(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3, failing=1)
    listing = things._pages("/servers/detail", "servers")
    assert [t.id for t in next(listing)] == ["id-1", "id-2"]
    assert asked(pages, 1)  # it failed, and the caller still holds page 0
    with pytest.raises(exceptions.ClientException) as raised:
        next(listing)
    assert "page 1 broke" in str(raised.value)
    assert ("asked", 2) not in pages.events
    assert no_thread_left()


def test_a_caller_that_stops_leaves_one_page_unused_and_no_thread(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3)
    for thing in things._list("/servers/detail", "servers"):
        assert thing.id == "id-1"
        break
    assert no_thread_left()
    assert pages.asked() == [0, 1]


def test_read_ahead_false_asks_for_a_page_when_it_is_wanted(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3)
    listing = things._list("/servers/detail", "servers", read_ahead=False)
    assert next(listing).id == "id-1"
    assert pages.asked() == [0]
    assert not ahead_threads()
    assert [t.id for t in listing][-1] == "id-6"
    assert pages.asked() == [0, 1, 2]


def marker(links):
    return base._next_marker(links)


@pytest.mark.parametrize(
    ("body", "key", "expected"),
    [
        (
            b'{"servers": [], "servers_links": [{"rel": "next", "href": "/s?marker=m1"}]}',
            "servers_links",
            "m1",
        ),
        (
            b'{"ports": [{"id": "p"}], "ports_links":'
            b' [{"href": "/p?marker=m2&limit=5", "rel": "next"}]}',
            "ports_links",
            "m2",
        ),
        # Glance: the next page's href, and a marker an href escapes
        (
            b'{"images": [], "first": "/v2/images", "next": "/v2/images?marker=a%20b"}',
            "next",
            "a b",
        ),
        # white space as json.dumps(indent=...) writes it
        (
            b'{\n  "servers": [],\n  "servers_links" :\n'
            b'    [{"rel": "next", "href": "/s?marker=m3"}]\n}',
            "servers_links",
            "m3",
        ),
        # the last page: no links, or links without a next one
        (b'{"servers": [{"id": "a"}]}', "servers_links", None),
        (
            b'{"servers": [], "servers_links": [{"rel": "prev", "href": "/s?marker=x"}]}',
            "servers_links",
            None,
        ),
        # what does not decode is no guess
        (
            b'{"servers": [], "servers_links": [{"rel": "next", "href": "/s?mark',
            "servers_links",
            None,
        ),
        (b'{"servers": [], "servers_links": 7}', "servers_links", None),
        (b'\xff\xfe"servers_links": []', "servers_links", None),
        (b"", "servers_links", None),
    ],
)
def test_the_marker_is_read_off_the_end_of_the_body(body, key, expected):
    assert paging.next_marker_at_end(body, key, marker) == expected


def test_only_the_end_of_the_body_is_searched():
    links = b'"servers_links": [{"rel": "next", "href": "/s?marker=early"}]'
    body = b'{"servers": [{"metadata": {' + links + b'}}, "' + b"x" * paging.TAIL + b'"]}'
    assert paging.next_marker_at_end(body, "servers_links", marker) is None


def server_pages(mock, template, count):
    """``count`` pages of two full servers for ``server list``."""
    names = []
    for number in range(count):
        servers = [
            dict(template, id=ID % (number, i), name="vm-%d-%d" % (number, i)) for i in range(2)
        ]
        names += [s["name"] for s in servers]
        body = {"servers": servers}
        if number < count - 1:
            href = URL + "?marker=" + servers[-1]["id"]
            body["servers_links"] = [{"rel": "next", "href": href}]
        marker = "" if number == 0 else "?marker=" + ID % (number - 1, 1)
        mock.get(URL + marker, json=body, complete_qs=bool(marker))
    return names


TEMPLATE = {"status": "ACTIVE", "image": "", "flavor": {"original_name": "m1.tiny"}}


class Interrupting(io.StringIO):
    """A terminal whose user presses Ctrl-C once ``after`` was written."""

    def __init__(self, after):
        super().__init__()
        self.after = after

    def write(self, text):
        written = super().write(text)
        if self.after in self.getvalue():
            raise KeyboardInterrupt
        return written


def test_server_list_reads_ahead_and_writes_every_page_in_order(cli, mock_cloud):
    names = server_pages(mock_cloud.mock, TEMPLATE, 5)
    code, out, err = cli("server", "list", "-f", "value", "-c", "Name")
    assert (code, err) == (0, "")
    assert out.splitlines() == names
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/detail")) == 5
    assert no_thread_left()


def test_ctrl_c_while_a_page_is_written_exits_130_leaving_nothing(cli, mock_cloud, monkeypatch):
    from occli import shell

    names = server_pages(mock_cloud.mock, TEMPLATE, 4)
    monkeypatch.setattr(sys, "stdout", Interrupting(names[1]))
    code = shell.main(["server", "list", "-f", "value", "-c", "Name"])
    assert code == 130
    assert no_thread_left()
    # page 0 was written, page 1 was on its way; page 2 was never asked for
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/detail")) <= 2


def test_an_error_of_the_page_ahead_comes_after_the_rows_before_it(cli, mock_cloud):
    names = server_pages(mock_cloud.mock, TEMPLATE, 2)
    mock_cloud.mock.get(
        URL + "?marker=" + ID % (0, 1),
        status_code=500,
        json={"computeFault": {"code": 500, "message": "the page broke"}},
        complete_qs=True,
    )
    code, out, err = cli("server", "list", "-f", "value", "-c", "Name")
    assert code == 1
    assert out.splitlines() == names[:2]
    assert "the page broke" in err
    assert no_thread_left()


def test_through_occlis_transport_the_caller_goes_on_once_the_page_is_sent():
    """Ahead returns once the request reached the server (here after a
    slow start), while its answer is still to come; the answer is then
    the caller's."""
    from occli import transport

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    received, answer = threading.Event(), threading.Event()

    def serve():
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            received.set()
            answer.wait(10)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    sess = session.Session(session=transport.BoundedTransport(1 << 20))

    def send():
        time.sleep(0.2)  # the thread is slow to get the request out
        return sess.request("http://127.0.0.1:%d/page" % port, "GET", timeout=10)

    try:
        began = time.monotonic()
        ahead = paging.Ahead(send, sess)
        # it waited out the thread's slow start: the request went out first
        assert time.monotonic() - began >= 0.2
        assert received.wait(10)
        assert ahead_threads()  # the answer is still to come
        answer.set()
        assert ahead.response().json() == {}
    finally:
        answer.set()
        server.join(10)
        listener.close()
    assert no_thread_left()


def test_through_another_transport_the_caller_does_not_wait(monkeypatch):
    """A session of requests' own connections tells nothing of sending:
    the caller does not wait for it (here it would wait 60 s)."""
    monkeypatch.setattr(paging, "SENT_WAIT", 60.0)
    started = threading.Event()
    release = threading.Event()

    def send():
        started.set()
        release.wait(60)
        raise exceptions.ClientException("never answered")

    began = time.monotonic()
    ahead = paging.Ahead(send, session.Session())
    assert time.monotonic() - began < 30
    assert started.wait(10)
    release.set()
    with pytest.raises(exceptions.ClientException, match="never answered"):
        ahead.response()
