"""Local cloud: remote consoles (2.6+, mks 2.8+), the legacy console
actions (2.1-2.5, 404 after) and the console log's ``length``, with the
texts nova 34 answers (tests/fixtures/compute/realcloud/
nova-34-server-extras.json)."""

import json
from pathlib import Path

import pytest

from tests.unit.localcloud.compute_harness import fault

REAL = json.loads(
    (
        Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-server-extras.json"
    ).read_text()
)["exchanges"]


def _console(nova, server_id, protocol, console_type, version="2.6", user="demo"):
    body = {"remote_console": {"protocol": protocol, "type": console_type}}
    return nova.post("/servers/%s/remote-consoles" % server_id, body, version=version, user=user)


@pytest.mark.parametrize(
    "protocol, console_type, version",
    [
        ("vnc", "novnc", "2.6"),
        ("vnc", "xvpvnc", "2.6"),
        ("spice", "spice-html5", "2.6"),
        ("serial", "serial", "2.6"),
        ("mks", "webmks", "2.8"),
    ],
)
def test_remote_consoles_are_unavailable_as_nova_without_proxies(
    shared_nova, protocol, console_type, version
):
    # nova 34 with [vnc]/[spice]/[serial_console] enabled = false
    server_id = shared_nova.create()
    answer = _console(shared_nova, server_id, protocol, console_type, version)
    real = REAL["remote_console_%s_%s_%s" % (protocol, console_type, version)]
    assert (answer.status, answer.json()) == (real["status"], real["body"])


def test_remote_console_refusals_match_nova(shared_nova):
    server_id = shared_nova.create()
    for name, protocol, console_type, version in (
        ("remote_console_bad_protocol", "foo", "novnc", "2.6"),
        ("remote_console_mks_webmks_2.6", "mks", "webmks", "2.6"),
        ("remote_console_rdp_rdp-html5_2.6", "rdp", "rdp-html5", "2.6"),
        ("remote_console_v25", "vnc", "novnc", "2.5"),
    ):
        answer = _console(shared_nova, server_id, protocol, console_type, version)
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])
    # no proxy enabled: the type is unavailable before nova compares it
    # with the protocol
    for name, protocol, console_type, version in (
        ("remote_console_vnc_spice-html5_2.6", "vnc", "spice-html5", "2.6"),
        ("remote_console_mks_novnc_2.8", "mks", "novnc", "2.8"),
        ("remote_console_serial_novnc_2.6", "serial", "novnc", "2.6"),
    ):
        answer = _console(shared_nova, server_id, protocol, console_type, version)
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])


def test_console_needs_a_host(shared_nova):
    server_id = shared_nova.create()
    with shared_nova.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET host = NULL WHERE id = ?", (server_id,))
    assert fault(_console(shared_nova, server_id, "vnc", "novnc")) == (
        "conflictingRequest",
        409,
        "Instance %s is not ready" % server_id,
    )


def test_console_of_another_project_is_not_found(shared_nova):
    server_id = shared_nova.create(user="admin")
    assert _console(shared_nova, server_id, "vnc", "novnc").status == 404


@pytest.mark.parametrize(
    "action, console_type",
    [
        ("os-getVNCConsole", "novnc"),
        ("os-getVNCConsole", "xvpvnc"),
        ("os-getSPICEConsole", "spice-html5"),
        ("os-getSerialConsole", "serial"),
    ],
)
def test_legacy_console_actions(shared_nova, action, console_type):
    server_id = shared_nova.create()
    for version in ("2.1", "2.5"):
        answer = shared_nova.action(server_id, {action: {"type": console_type}}, version=version)
        real = REAL["legacy_%s_%s_v21" % (action, console_type)]
        assert (answer.status, answer.json()) == (real["status"], real["body"])
    gone = shared_nova.action(server_id, {action: {"type": console_type}}, version="2.6")
    real = REAL["legacy_%s_%s_v26" % (action, console_type)]
    assert (gone.status, gone.json()) == (real["status"], real["body"])


def test_legacy_console_bad_type_and_rdp(shared_nova):
    server_id = shared_nova.create()
    bad = shared_nova.action(server_id, {"os-getVNCConsole": {"type": "spice-html5"}})
    assert (bad.status, bad.json()) == (
        REAL["legacy_vnc_bad_type"]["status"],
        REAL["legacy_vnc_bad_type"]["body"],
    )
    rdp = shared_nova.action(server_id, {"os-getRDPConsole": {"type": "rdp-html5"}})
    real = REAL["legacy_os-getRDPConsole_rdp-html5_v21"]
    assert (rdp.status, rdp.json()) == (real["status"], real["body"])


def test_console_output_length_is_nova_tail(shared_nova):
    server_id = shared_nova.create()
    full = shared_nova.action(server_id, {"os-getConsoleOutput": {}}).json()["output"]
    lines = full.split("\n")
    assert not full.endswith("\n") and len(lines) > 3

    def tail(length):
        body = {"os-getConsoleOutput": {"length": length}}
        return shared_nova.action(server_id, body).json()["output"]

    assert tail(2).split("\n") == lines[-2:]
    assert tail("3").split("\n") == lines[-3:]
    assert tail(0) == ""
    # nova 34 (fake driver): -1 is accepted and drops the first line
    assert tail(-1).split("\n") == lines[1:]
    negative = shared_nova.action(server_id, {"os-getConsoleOutput": {"length": -2}})
    real = REAL["console_output_negative"]
    assert (negative.status, negative.json()) == (real["status"], real["body"])
    bad = shared_nova.action(server_id, {"os-getConsoleOutput": {"length": "x"}})
    real = REAL["console_output_len_bad"]
    assert (bad.status, bad.json()) == (real["status"], real["body"])
