"""Nova's volume attachment answers recorded from a real nova 34
(``tests/fixtures/volume/realcloud/``), replayed against the local cloud:
the same status and message for the same request."""

import json
import pathlib

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")
RECORDED = json.loads(
    (
        pathlib.Path(__file__).parents[2]
        / "fixtures/volume/realcloud/nova-34-volume-attachments.json"
    ).read_text()
)
VOLUME = RECORDED["ids"]["volume"]


def _substitute(value, server):
    text = json.dumps(value).replace("SERVER", server).replace("VOLUME", VOLUME)
    return json.loads(text)


@pytest.mark.parametrize(
    "exchange",
    RECORDED["exchanges"],
    ids=["%s %s" % (e["request"]["method"], e["request"]["path"]) for e in RECORDED["exchanges"]],
)
def test_same_answer_as_nova_34(cinder, exchange):
    server = cinder.server(user="admin")
    cinder.show_server(server, user="admin")
    suspended = cinder.nova("POST", "/servers/%s/action" % server, {"suspend": None}, "admin")
    assert suspended.status == 202
    cinder.show_server(server, user="admin")
    request = _substitute(exchange["request"], server)
    result = cinder.nova(
        request["method"],
        request["path"],
        request.get("body"),
        user="admin",
        version=request["microversion"],
    )
    assert result.status == exchange["status"], result.body
    assert result.json() == _substitute(exchange["body"], server)


GATES = json.loads(
    (
        pathlib.Path(__file__).parents[2]
        / "fixtures/compute/realcloud/nova-34-attachment-gates.json"
    ).read_text()
)["exchanges"]
GATES = [e for e in GATES if "/os-volume_attachments" in e["request"]["path"]]


@pytest.mark.parametrize(
    "exchange",
    GATES,
    ids=["%s %s" % (e["request"]["method"], e["request"]["microversion"]) for e in GATES],
)
def test_microversion_gates_as_nova_34(cinder, exchange):
    """Recorded by the client work: a schema 400 below the gate, the
    made-up server's 404 at it."""
    request = exchange["request"]
    result = cinder.nova(
        request["method"],
        request["path"],
        request.get("body"),
        user="admin",
        version=request["microversion"],
    )
    assert (result.status, result.json()) == (exchange["status"], exchange["body"])
