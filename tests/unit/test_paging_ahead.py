"""A list reads one page ahead (issue 26): the next page is asked for
while the caller uses this one, never further; its error is raised where
the caller asks for it; a caller that stops leaves no thread behind; no
page is asked for past the last."""

import io
import sys
import threading
import time

import pytest
from keystoneauth1 import session

from occli import base
from occli import exceptions
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
    answers 500), recording each request as it comes."""

    def __init__(self, mock, count, failing=None):
        self.events = []
        self.count, self.failing = count, failing
        mock.get(URL, json=self.answer)

    def answer(self, request, context):
        marker = request.qs.get("marker")
        number = int(marker[0].split("-")[1]) // 2 if marker else 0
        self.events.append(("asked", number))
        context.headers["x-openstack-request-id"] = "req-%d" % number
        if number == self.failing:
            context.status_code = 500
            return {"computeFault": {"code": 500, "message": "page %d broke" % number}}
        body = {"servers": [server(2 * number + 1), server(2 * number + 2)]}
        if number < self.count - 1:
            href = URL + "?marker=id-%d" % (2 * number + 2)
            body["servers_links"] = [{"rel": "next", "href": href}]
        return body


@pytest.fixture
def things(mock_cloud):
    return Things(Client(session=session.Session(auth=password_auth())))


@pytest.fixture
def timed_things(mock_cloud):
    """A manager whose session has a timeout: a caller that stops waits
    for the page ahead at most that long."""
    return Things(Client(session=session.Session(auth=password_auth(), timeout=30)))


def asked(pages, number, deadline=10.0):
    """True once page ``number`` was asked for (polled up to ``deadline`` s)."""
    ends = time.monotonic() + deadline
    while ("asked", number) not in pages.events and time.monotonic() < ends:
        time.sleep(0.01)
    return ("asked", number) in pages.events


def test_the_next_page_comes_while_a_page_is_used_never_the_one_after(things, mock_cloud):
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
    assert [n for kind, n in events if kind == "asked"] == [0, 1, 2, 3]
    for number in range(2):
        assert events.index(("asked", number + 2)) > events.index(("used", number))
    assert no_thread_left()


def test_no_page_is_asked_for_past_the_last(things, mock_cloud):
    Pages(mock_cloud.mock, 3)
    assert len(things._list_all("/servers/detail", "servers")) == 6
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/detail")) == 3
    # a limit ending on a page: the page after it is not asked for
    assert len(list(things._list("/servers/detail", "servers", limit=4))) == 4
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/detail")) == 3 + 2


def test_request_ids_stay_in_page_order(things, mock_cloud):
    Pages(mock_cloud.mock, 5)
    listed = things._list_all("/servers/detail", "servers")
    assert listed.request_ids == ["req-%d" % n for n in range(5)]
    assert [t.id for t in listed] == ["id-%d" % n for n in range(1, 11)]


def test_an_error_of_the_page_ahead_is_raised_when_it_is_wanted(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3, failing=1)
    listing = things._pages("/servers/detail", "servers")
    assert [t.id for t in next(listing)] == ["id-1", "id-2"]
    assert asked(pages, 1)  # it failed, and the caller still holds page 0
    with pytest.raises(exceptions.ClientException) as raised:
        next(listing)
    assert raised.value.http_status == 500 or getattr(raised.value, "code", None) == 500
    assert "page 1 broke" in str(raised.value)
    assert ("asked", 2) not in pages.events
    assert no_thread_left()


@pytest.mark.parametrize("fixture", ["things", "timed_things"])
def test_a_caller_that_stops_leaves_no_thread_and_no_request_behind(request, mock_cloud, fixture):
    manager = request.getfixturevalue(fixture)
    pages = Pages(mock_cloud.mock, 3)
    for thing in manager._list("/servers/detail", "servers"):
        assert thing.id == "id-1"
        break
    if fixture == "timed_things":
        # the page ahead was waited for (the session's timeout bounds it)
        assert not ahead_threads()
    assert no_thread_left()
    assert [n for kind, n in pages.events if kind == "asked"] == [0, 1]


def test_read_ahead_false_asks_for_a_page_when_it_is_wanted(things, mock_cloud):
    pages = Pages(mock_cloud.mock, 3)
    listing = things._list("/servers/detail", "servers", read_ahead=False)
    assert next(listing).id == "id-1"
    assert [n for kind, n in pages.events if kind == "asked"] == [0]
    assert not ahead_threads()
    assert [t.id for t in listing][-1] == "id-6"


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
