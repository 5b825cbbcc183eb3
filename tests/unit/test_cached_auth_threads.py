"""occli.cached_auth with two requests at once (a list reads one page
ahead while the caller sends its own): a token both find revoked is
authenticated again once, and neither request gives up."""

import threading

from keystoneauth1 import session

from occli import cached_auth

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import TOKEN
from .fakes import password_auth
from .fakes import requests_to
from .fakes import token_body
from .test_cached_auth import state

NEW_TOKEN = "gAAAAABnewtokenvalue9876543210"


def test_two_requests_refused_at_once_authenticate_again_once(mock_cloud):
    """Two threads each sent a request with the token, both answered 401:
    each goes on as keystoneauth1's ``Session.request`` does (``invalidate``,
    then the headers again to retry; session.py, "handle getting a 401").
    Both retry, with one new token."""
    m = mock_cloud.mock
    m.post(
        AUTH_URL + "/auth/tokens",
        status_code=201,
        json=token_body(),
        headers={"X-Subject-Token": NEW_TOKEN},
    )
    auth = cached_auth.CachedTokenAuth(cached_auth.from_state(state()), password_auth)
    sess = session.Session(auth=auth)
    both_refused = threading.Barrier(2, timeout=10)
    retried = {}

    def refused(name):
        sent = auth.get_headers(sess)["X-Auth-Token"]
        both_refused.wait()  # both requests carried it and were refused
        if auth.invalidate():
            retried[name] = (sent, auth.get_headers(sess)["X-Auth-Token"])

    threads = [threading.Thread(target=refused, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert retried == {"a": (TOKEN, NEW_TOKEN), "b": (TOKEN, NEW_TOKEN)}
    assert len(requests_to(m, "POST", "/auth/tokens")) == 1


def test_a_token_refused_alone_is_still_forgotten(mock_cloud):
    m = mock_cloud.mock
    m.post(
        AUTH_URL + "/auth/tokens",
        status_code=201,
        json=token_body(),
        headers={"X-Subject-Token": NEW_TOKEN},
    )
    m.get(
        COMPUTE + "/servers/a",
        [{"status_code": 401, "json": {"error": {"code": 401}}}, {"json": {"server": {}}}],
    )
    auth = cached_auth.CachedTokenAuth(cached_auth.from_state(state()), password_auth)
    sess = session.Session(auth=auth)
    assert sess.get(COMPUTE + "/servers/a").status_code == 200
    sent = requests_to(m, "GET", "/servers/a")
    assert [r.headers["X-Auth-Token"] for r in sent] == [TOKEN, NEW_TOKEN]
    assert len(requests_to(m, "POST", "/auth/tokens")) == 1
