"""The Content-Type of the local Cinder's answers without a body, as
Cinder 29's (tests/fidelity/test_live_cinder.py ran them against both):
webob labels the ``webob.Response`` a controller builds itself
``text/html; charset=UTF-8`` (an empty 202 or 200, the 3.15 metadata with
its ETag), Cinder's wsgi an answer it serializes ``application/json`` (an
empty 204 of ``@wsgi.response`` too)."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")
HTML = "text/html; charset=UTF-8"
JSON = "application/json"


def _type(result):
    return (result.status, result.header("Content-Type"))


def test_a_controllers_own_response_is_text_html(cinder):
    volume = cinder.create(metadata={"k": "v"})["id"]
    shown = cinder.get("/volumes/%s/metadata" % volume)
    assert _type(shown) == (200, HTML)
    assert shown.json() == {"metadata": {"k": "v"}} and shown.header("Etag")
    assert _type(cinder.get("/volumes/%s/metadata" % volume, version="3.14")) == (200, JSON)
    assert _type(cinder.delete("/volumes/%s/metadata/k" % volume)) == (200, HTML)
    private = cinder.post(
        "/types",
        {"volume_type": {"name": "p", "os-volume-type-access:is_public": False}},
        user="admin",
    ).json()["volume_type"]
    access = {"addProjectAccess": {"project": cinder.projects["demo"]}}
    added = cinder.post("/types/%s/action" % private["id"], access, user="admin")
    assert _type(added) == (202, HTML)
    assert _type(cinder.delete("/types/" + private["id"], user="admin")) == (202, HTML)
    assert _type(cinder.delete("/volumes/" + volume)) == (202, HTML)


def test_a_serialized_empty_answer_is_json(cinder):
    volume = cinder.create()["id"]
    # volume_actions' @wsgi.response(202) returns None
    reserved = cinder.post("/volumes/%s/action" % volume, {"os-reserve": None})
    assert _type(reserved) == (202, JSON)
    project = cinder.projects["demo"]
    cinder.put(
        "/default-types/" + project,
        {"default_type": {"volume_type": "__DEFAULT__"}},
        user="admin",
    )
    unset = cinder.delete("/default-types/" + project, user="admin")
    assert _type(unset) == (204, JSON) and unset.body == b""
