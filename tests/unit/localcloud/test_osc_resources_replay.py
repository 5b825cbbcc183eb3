"""python-openstackclient against the local cloud's Glance, Neutron and
Swift, replayed in-process: the requests the real ``openstack`` CLI sent
for ``image create --file``, ``image show``, ``image save``, ``network``
and ``subnet create``, ``router create``, ``router add subnet``, ``router
set --external-gateway``, ``router show``, ``container create``, ``object
create``, ``object show``, ``object save``, ``container list``,
``container show``, ``object list`` and their deletes
(tests/fixtures/osc/resources-tour.json, made by record_resources.py
beside it), sent in order to a fresh local cloud with the same bytes.
Each answer must have the status OSC got, its Location, every key OSC
got in it and its resources, the same bytes for a download and the
headers OSC's object commands show, so OSC users keep working without
the suite needing OSC."""

import base64
import hashlib
import io
import json
import pathlib
import re

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.wsgi_client import BASE
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import call

RECORDED = json.loads(
    (pathlib.Path(__file__).parents[2] / "fixtures/osc/resources-tour.json").read_text()
)
#: the files OSC uploaded, by name
FILES = {name: base64.b64decode(data) for name, data in RECORDED["files"].items()}

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture
def cloud(tmp_path):
    running = LocalCloud(Config(data_dir=str(tmp_path / "data"), build_time=0))
    yield running
    running.close()


def _fill(value, ids):
    def one(match):
        assert match.group(1) in ids, match.group(0)
        return ids[match.group(1)]

    return json.loads(_PLACEHOLDER.sub(one, json.dumps(value)))


def _learn(exchange, answer):
    """The ids the answer made, by the placeholders the recording names."""
    learned = {}
    for name in exchange["learns"]:
        if name == "port_id":
            learned[name] = answer["port_id"]
        elif name == "image_id":
            learned[name] = answer["id"]
        else:
            learned[name] = answer[name[: -len("_id")]]["id"]
    return learned


def _check(exchange, result, ids):
    where = "%s (%s %s)" % (exchange["command"], exchange["method"], exchange["path"])
    assert result.status == exchange["status"], (where, result.body)
    if exchange["location"] is not None:
        assert result.header("Location") == _fill(exchange["location"], ids), where
    reads = exchange["reads"]
    for name, value in reads["headers"].items():
        assert result.header(name) == value, (where, name)
    for name in reads["present"]:
        assert result.header(name), (where, name)
    if "keys" in reads:
        # every key OSC got is there (a field the local cloud learns later,
        # which OSC shows too, breaks no replay)
        answer = result.json()
        assert set(reads["keys"]) <= set(answer), where
        for member, keys in reads["resources"].items():
            value = answer[member]
            first = value if isinstance(value, dict) else value[0]
            assert set(keys) <= set(first), (where, member)
    if "names" in reads:
        assert [item["name"] for item in result.json()] == reads["names"], where
    if "md5" in reads:
        assert hashlib.md5(result.body).hexdigest() == reads["md5"], where
    if "text" in reads:
        assert result.body.decode() == reads["text"], where


def test_openstackclient_resources_tour_replays(cloud):
    assert [c["command"] for c in RECORDED["commands"] if c["exit"]] == []
    client = Client(cloud)
    token = client.token("demo")
    with cloud.store.read() as db:
        ids = {"project_id": cloud.identity.project_id(db, "demo"), "url": BASE}
    for exchange in RECORDED["exchanges"]:
        path = _fill(exchange["path"], ids)
        query = _fill(exchange["query"], ids)
        body = exchange["body"]
        if body is None:
            data = None
        elif "file" in body:
            data = FILES[body["file"]]
        else:
            data = json.dumps(_fill(body["json"], ids)).encode()
        # as OSC sent it: no Content-Type where it sent none (Swift guesses one)
        result = call(
            cloud,
            exchange["method"],
            path,
            query,
            headers=_fill(exchange["headers"], ids),
            token=token,
            wsgi_input=io.BytesIO(data or b""),
            length=len(data) if data else None,
        )
        if exchange["learns"]:
            assert result.status == exchange["status"], (exchange["command"], result.body)
            ids.update(_learn(exchange, result.json()))
        _check(exchange, result, ids)
    # what the tour left: the image, the router and the objects all gone
    for path in (
        "/image/v2/images/%s" % ids["image_id"],
        "/network/v2.0/routers/%s" % ids["router_id"],
        "/object-store/v1/AUTH_%s/osc-container" % ids["project_id"],
    ):
        assert client.get(path, token=token).status == 404, path
