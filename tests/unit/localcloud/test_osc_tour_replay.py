"""python-openstackclient against the local cloud: the requests the real
``openstack`` CLI made for ``network list``, ``volume create``, ``server
create --network private --wait``, ``volume show``, ``server add volume``,
``floating ip create public`` and ``server add floating ip``
(``tests/fixtures/osc/local-tour.json``, recorded with its --debug),
replayed in order in-process: each gets the status OSC got and an answer
with every member OSC got, so the tour keeps working for OSC users without
the suite needing OSC."""

import json
import pathlib
import re

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.wsgi_client import Client

RECORDED = json.loads(
    (pathlib.Path(__file__).parents[2] / "fixtures/osc/local-tour.json").read_text()
)


@pytest.fixture
def cloud(tmp_path):
    running = LocalCloud(Config(data_dir=str(tmp_path / "data"), build_time=0))
    yield running
    running.close()


def _fill(value, ids):
    text = json.dumps(value)
    for name, found in ids.items():
        text = text.replace("{%s}" % name, found)
    return json.loads(text)


def _learn(exchange, body, ids):
    """The ids later requests name, from the answers that made them."""
    path, method = exchange["path"], exchange["method"]
    if method == "POST" and path.endswith("/servers"):
        ids["server_id"] = body["server"]["id"]
    elif method == "POST" and path.endswith("/volumes"):
        ids["volume_id"] = body["volume"]["id"]
    elif method == "POST" and path.endswith("/floatingips"):
        ids["fip_id"] = body["floatingip"]["id"]
        ids["fip_address"] = body["floatingip"]["floating_ip_address"]
    elif method == "GET" and "/ports?device_id=" in path:
        ids["port_id"] = body["ports"][0]["id"]


def test_openstackclient_tour_replays(cloud):
    client = Client(cloud)
    token = client.token("demo")
    with cloud.store.read() as db:
        ids = {"project_id": cloud.identity.project_id(db, "demo")}
    for exchange in RECORDED["exchanges"]:
        path = _fill(exchange["path"], ids)
        assert not re.search(r"\{\w+\}", path), path
        result = client.request(
            exchange["method"],
            path,
            json=_fill(exchange["body"], ids) if exchange["body"] is not None else None,
            headers=dict(exchange["headers"]),
            token=token,
        )
        where = "%s (%s %s)" % (exchange["command"], exchange["method"], path)
        assert result.status == exchange["status"], (where, result.body)
        if exchange["response_keys"] is not None:
            body = result.json()
            # every member OSC read is still there (new ones, such as the
            # store an image's data is in since Glance's stores landed,
            # are nothing OSC depends on)
            assert set(exchange["response_keys"]) <= set(body), where
            _learn(exchange, body, ids)
    server = client.get(
        "/compute/v2.1/servers/" + ids["server_id"],
        headers={"OpenStack-API-Version": "compute 2.96"},
        token=token,
    ).json()["server"]
    assert [a["addr"] for a in server["addresses"]["private"]][1:] == [ids["fip_address"]]
    assert server["os-extended-volumes:volumes_attached"][0]["id"] == ids["volume_id"]
