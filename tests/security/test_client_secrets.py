"""Secrets never reach ``--debug``, ``--log-file`` or ``--timing`` output
(issue 9): the real CLI against a local cloud, grepping all of stderr and
the whole log file for each secret."""

import base64
import json
import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

IMAGE = "cirros-0.6.2-x86_64-disk"
USER_DATA = b"#cloud-config\nchpasswd:\n  list: root:Cl0udInitPa55\n"


@pytest.fixture
def log_file(tmp_path):
    return tmp_path / "occli.log"


def assert_hidden(secrets, *texts):
    for secret in secrets:
        assert secret
        for text in texts:
            assert secret not in text


def create_server(occli, *extra):
    name = "sec-" + uuid.uuid4().hex[:8]
    return as_json(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--nic",
            "none",
            "--wait",
            "--wait-interval",
            "0.05",
            "-f",
            "json",
            *extra,
        )
    )


def test_user_data_and_admin_pass_are_masked_on_create(occli, log_file, tmp_path):
    user_data = tmp_path / "cloud-init.yaml"
    user_data.write_bytes(USER_DATA)
    code, out, err = occli(
        "--debug",
        "--log-file",
        log_file,
        "server",
        "create",
        "ud-vm",
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--user-data",
        user_data,
        "--wait",
        "--wait-interval",
        "0.05",
        "-f",
        "json",
    )
    assert code == 0, err
    created = json.loads(out)
    log = log_file.read_text()
    assert "REQ: curl" in err and "REQ: curl" in log
    assert '"user_data": "***"' in err and '"adminPass": "***"' in err
    assert_hidden(
        [base64.b64encode(USER_DATA).decode(), "Cl0udInitPa55", created["adminPass"]], err, log
    )


def test_admin_view_of_user_data_is_masked(occli, cloud, monkeypatch, log_file, tmp_path):
    user_data = tmp_path / "cloud-init.yaml"
    user_data.write_bytes(USER_DATA)
    server = create_server(occli, "--user-data", user_data)
    monkeypatch.setenv("OS_CLOUD", "local-admin")
    code, out, err = occli(
        "--debug", "--log-file", log_file, "server", "show", server["id"], "-f", "json"
    )
    assert code == 0, err
    assert json.loads(out)["OS-EXT-SRV-ATTR:user_data"]  # shown on request
    assert '"OS-EXT-SRV-ATTR:user_data": "***"' in err
    assert_hidden([base64.b64encode(USER_DATA).decode()], err, log_file.read_text())


def test_rebuild_admin_pass_is_masked(occli, log_file):
    server = create_server(occli)
    code, out, err = occli(
        "--debug",
        "--log-file",
        log_file,
        "server",
        "rebuild",
        server["id"],
        "--image",
        IMAGE,
        "--admin-pass",
        "R3buildPa55",
        "--wait",
        "--wait-interval",
        "0.05",
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out)["adminPass"] == "R3buildPa55"
    assert "REQ: curl" in err
    assert_hidden(["R3buildPa55"], err, log_file.read_text())


def test_password_and_token_are_masked(occli, cloud, log_file):
    code, out, err = occli(
        "--no-cache", "--debug", "--log-file", log_file, "token", "issue", "-f", "json"
    )
    assert code == 0, err
    token = json.loads(out)["id"]
    assert "Making authentication request" in err
    log = log_file.read_text()
    code, out, err2 = occli("--debug", "--log-file", log_file, "server", "list")
    assert code == 0, err2
    assert "X-Auth-Token" in err2
    assert_hidden([token, cloud.cloud.config.demo_password], err, err2, log, log_file.read_text())


def test_signal_temp_url_signature_is_masked_in_timing_and_debug(occli, log_file, tmp_path):
    server = create_server(occli)
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    config = as_json(
        occli(
            "software",
            "config",
            "create",
            "cfg-" + uuid.uuid4().hex[:8],
            "--config-file",
            script,
            "--group",
            "script",
            "-f",
            "json",
        )
    )
    code, out, err_create = occli(
        "--timing",
        "--debug",
        "--log-file",
        log_file,
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        config["id"],
        "--server",
        server["id"],
        "-f",
        "json",
    )
    assert code == 0, err_create
    deployment = json.loads(out)
    [derived] = json.loads(ok(occli("software", "deployment", "metadata", "show", server["id"])))
    url = {i["name"]: i.get("value") for i in derived["inputs"]}["deploy_signal_id"]
    signature = url.split("temp_url_sig=")[1].split("&")[0]

    code, out, err_signal = occli(
        "--timing",
        "--debug",
        "--log-file",
        log_file,
        "software",
        "deployment",
        "signal",
        deployment["id"],
        "-f",
        "json",
    )
    assert code == 0, err_signal
    assert json.loads(out)["status"] == "COMPLETE"
    timing = err_signal[err_signal.index("Timing:") :]
    assert "PUT" in timing and "temp_url_sig=***" in timing
    assert_hidden([signature], err_create, err_signal, log_file.read_text())
