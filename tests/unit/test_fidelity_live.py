"""The live differential machinery of ``tests/fidelity`` (``live.py``,
``differential.py``, the conftest's skip), without any real service."""

import json
import socket
import types

from tests.fidelity import conftest as fidelity
from tests.fidelity import live
from tests.fidelity.clouds import Answer
from tests.fidelity.differential import Pair


class Recording:
    """A stand-in for the WSGI client: keeps what it is asked."""

    def __init__(self):
        self.sent = []

    def request(self, method, path, json=None, body=None, headers=None, token=None):
        self.sent.append((method, path, json, body, token))
        return types.SimpleNamespace(status=204, headers={"x-a": "b"}, body=b"")


def _pair():
    real = types.SimpleNamespace(name="real", ids={"net": "11111111-1111-4111-8111-111111111111"})
    local = types.SimpleNamespace(
        name="local", ids={"net": "22222222-2222-4222-8222-222222222222"}
    )
    return Pair(real, local)


def _error(kind, message, status=409):
    body = {"NeutronError": {"type": kind, "message": message, "detail": ""}}
    return Answer(status, {}, json.dumps(body))


def test_a_real_url_goes_to_the_local_mount_of_its_service():
    client = Recording()
    session = live.LocalSession.__new__(live.LocalSession)
    session.client, session.caller, session.token = client, "member", "tok"
    session.project_id, session.adapt = "p", None
    for url, path in (
        ("http://127.0.0.1:9696/v2.0/networks?name=x", "/network/v2.0/networks?name=x"),
        ("http://127.0.0.1:8776/v3/p/volumes", "/volume/v3/p/volumes"),
        ("http://127.0.0.1:9292/v2/images", "/image/v2/images"),
    ):
        resp = session.request(url, "GET", raise_exc=False, timeout=30)
        assert client.sent[-1][:2] == ("GET", path)
        assert (resp.status_code, resp.headers, resp.text) == (204, {"x-a": "b"}, "")
    session.request("http://127.0.0.1:9292/", "GET", authenticated=False)
    assert client.sent[-1][4] is None


def test_an_adaptation_rewrites_the_local_body_only_by_its_rule():
    client = Recording()
    session = live.LocalSession.__new__(live.LocalSession)
    session.client, session.caller, session.token, session.project_id = client, "admin", "t", "p"
    session.adapt = lambda caller, method, path, body: {"seen": [caller, method, path]}
    session.request("http://127.0.0.1:9696/v2.0/networks", "POST", json={"network": {}})
    assert client.sent[-1][2] == {"seen": ["admin", "POST", "/v2.0/networks"]}


def test_neutron_errors_compare_type_and_text_with_ids_as_placeholders():
    pair = _pair()
    same = pair.differences(
        _error("NetworkInUse", "Network %s in use" % pair.real.ids["net"]),
        _error("NetworkInUse", "Network %s in use" % pair.local.ids["net"]),
        headers=(),
        present=(),
    )
    assert same == []
    other = pair.differences(
        _error("NetworkInUse", "x"), _error("PortInUse", "x"), headers=(), present=()
    )
    assert other and "PortInUse" in other[0]


def test_unnamed_port_ids_are_compared_sorted_and_counted():
    pair = _pair()
    ports = ["aaaaaaaa-0000-4000-8000-00000000000%d" % i for i in range(3)]
    real = _error("RouterInUse", "Router r has ports still attached: %s, %s" % tuple(ports[:2]))
    local = _error("RouterInUse", "Router r has ports still attached: %s, %s" % tuple(ports[1:]))
    assert pair.differences(real, local, headers=(), present=()) == []
    one = _error("RouterInUse", "Router r has ports still attached: %s" % ports[0])
    assert pair.differences(real, one, headers=(), present=())


def test_text_bodies_are_compared_only_when_asked():
    pair = _pair()
    real, local = Answer(404, {}, "Image not found"), Answer(404, {}, "No image")
    assert pair.differences(real, local, headers=(), present=()) == []
    assert pair.differences(real, local, headers=(), present=(), text=True)


def test_a_closed_port_skips_its_module_with_a_reason():
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    reason = fidelity.service_reason("Nothing", "http://127.0.0.1:%d/" % port)
    assert reason is not None and "does not answer" in reason
