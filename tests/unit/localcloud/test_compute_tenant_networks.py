"""Local cloud: ``/os-tenant-networks`` answers as nova 34 over Neutron
(tests/fixtures/compute/realcloud/nova-34-proxies.json): the caller's
networks as ``{id, cidr, label}`` up to 2.35, 404 after, 410 for create
and delete at every microversion."""

import json
import uuid
from pathlib import Path

RECORDED = json.loads(
    (Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-proxies.json").read_text()
)
REAL = RECORDED["exchanges"]
PATH = "/os-tenant-networks"


def _network(nova, name, user="demo"):
    answer = nova.client.request(
        "POST",
        "/network/v2.0/networks",
        json={"network": {"name": name}},
        token=nova.tokens[user],
    )
    assert answer.status == 201, answer.body
    return answer.json()["network"]["id"]


def test_list_and_show_are_novas_view(shared_nova):
    mine = _network(shared_nova, "tn-mine")
    theirs = _network(shared_nova, "tn-theirs", user="admin")
    listed = shared_nova.get(PATH, version="2.35")
    assert listed.status == 200
    views = {n["id"]: n for n in listed.json()["networks"]}
    assert views[mine] == {"id": mine, "cidr": "None", "label": "tn-mine"}
    assert theirs not in views
    real = REAL["tenant_networks_list"]["body"]["networks"][0]
    assert set(views[mine]) == set(real) and real["cidr"] == "None"
    shown = shared_nova.get(PATH + "/" + mine, version="2.35")
    assert shown.json() == {"network": views[mine]}
    # another project's network is not found, as an unknown one
    for network_id in (theirs, str(uuid.uuid4())):
        missing = shared_nova.get(PATH + "/" + network_id, version="2.35")
        real = REAL["tenant_networks_show_unknown"]
        assert (missing.status, missing.json()) == (real["status"], real["body"])


def test_gone_from_2_36_and_writes_gone_always(shared_nova):
    mine = _network(shared_nova, "tn-gone")
    for name, method, path, version in (
        ("tenant_networks_list_2.36", "GET", PATH, "2.36"),
        ("tenant_networks_create", "POST", PATH, "2.35"),
        ("tenant_networks_create_2.36", "POST", PATH, "2.36"),
        ("tenant_networks_delete", "DELETE", PATH + "/" + mine, "2.35"),
        ("tenant_networks_delete_2.36", "DELETE", PATH + "/" + mine, "2.96"),
    ):
        body = REAL[name]["request"]["body"]
        answer = shared_nova.call(method, path, json=body, version=version)
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])
    assert shared_nova.get(PATH + "/" + mine, version="2.35").status == 200
