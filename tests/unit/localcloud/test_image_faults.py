"""The local Glance's error pages and empty answers as Glance 33's
(webob's): asked for by ``Accept`` (tests/fidelity/test_live_glance.py,
and Glance 33 asked with each header below), an error is webob's JSON
document, its HTML page or its plain text; an answer without a body is
labelled ``text/html; charset=UTF-8``, a 204 too."""

import pytest

from occli.localcloud.image.api.service import _offered
from tests.unit.fakes import load_fixture

MISSING = "/image/v2/images/00000000-0000-4000-8000-000000000000"
TEXT = "No image found with ID 00000000-0000-4000-8000-000000000000"


def _error(client, accept):
    headers = {"Accept": accept} if accept is not None else {}
    return client.request("GET", MISSING, headers=headers, token=client.token())


def test_an_error_asked_for_as_json(client):
    result = _error(client, "application/json")
    assert (result.status, result.header("Content-Type")) == (404, "application/json")
    assert result.json() == {
        "message": TEXT + "<br /><br />\n\n\n",
        "code": "404 Not Found",
        "title": "Not Found",
    }


def test_an_error_as_html_or_plain_text(client):
    page = _error(client, "*/*")
    assert page.header("Content-Type") == "text/html; charset=UTF-8"
    assert page.body.decode() == (
        "<html>\n <head>\n  <title>404 Not Found</title>\n </head>\n <body>\n"
        "  <h1>404 Not Found</h1>\n  %s<br /><br />\n\n\n\n </body>\n</html>" % TEXT
    )
    for accept in (None, "text/plain"):
        plain = _error(client, accept)
        assert plain.header("Content-Type") == "text/plain; charset=UTF-8"
        assert plain.body.decode() == "404 Not Found\n\n%s\n\n   " % TEXT


@pytest.mark.parametrize(
    ("accept", "offered"),
    [
        (None, None),
        ("", None),
        ("text/plain", None),
        ("*/*", "text/html"),
        ("application/json, text/plain", "application/json"),
        ("application/json;q=0.5, text/html", "text/html"),
        ("text/html;q=0.1, application/json", "application/json"),
        ("application/*", "application/json"),
        ("application/json;q=0", None),
    ],
)
def test_the_page_accept_asks_for(accept, offered):
    """As Glance 33 chose for each header (webob 1.8's offers)."""
    assert _offered(accept) == offered


def test_an_empty_answer_is_text_html(client):
    token = client.token("admin")
    created = client.request(
        "POST", "/image/v2/images", json={"name": "e", "disk_format": "raw",
        "container_format": "bare"}, token=token,
    )  # fmt: skip
    image = created.json()["id"]
    deleted = client.request("DELETE", "/image/v2/images/" + image, token=token)
    assert (deleted.status, deleted.header("Content-Type")) == (204, "text/html; charset=UTF-8")
    assert deleted.body == b""


def test_glances_own_204s_are_unlabelled(client):
    """A member's removal (glance's webob.Response(status=204)) and a
    queued image's data (webob's HTTPNoContent) carry no Content-Type, as
    Glance 33's (test_live_glance's members:remove, data:download_queued)."""
    token = client.token("admin")
    image = client.request(
        "POST", "/image/v2/images", json={"name": "q", "visibility": "shared"}, token=token
    ).json()["id"]
    queued = client.request("GET", "/image/v2/images/%s/file" % image, token=token)
    assert (queued.status, queued.header("Content-Type")) == (204, None)
    with client.cloud.store.read() as db:
        demo = client.cloud.identity.project_id(db, "demo")
    members = "/image/v2/images/%s/members" % image
    added = client.request("POST", members, json={"member": demo}, token=token)
    assert added.status == 200
    removed = client.request("DELETE", "%s/%s" % (members, demo), token=token)
    assert (removed.status, removed.header("Content-Type")) == (204, None)


def test_the_recorded_error_pages(client):
    """Each page Glance 33 sent for an Accept header
    (tests/fixtures/image/realcloud/glance-33-error-formats.json), byte
    for byte."""
    recorded = load_fixture("image/realcloud/glance-33-error-formats.json")["exchanges"]
    for exchange in recorded:
        result = _error(client, exchange["request"]["accept"])
        assert result.status == exchange["status"]
        assert result.header("Content-Type") == exchange["content-type"]
        assert result.body.decode() == exchange["text"], exchange["request"]
