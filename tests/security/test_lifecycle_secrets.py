"""The rescue and changePassword secrets never reach ``--debug`` or
``--log-file`` output (as tests/security/test_client_secrets.py does for
create and rebuild): the request body's ``adminPass`` and the rescue
answer's are masked; only the command's output field shows the rescue
password."""

import json

import pytest

from tests.security.test_client_secrets import assert_hidden
from tests.security.test_client_secrets import create_server

WAIT = ("--wait", "--wait-interval", "0.05")


@pytest.fixture
def log_file(tmp_path):
    return tmp_path / "occli.log"


def test_rescue_password_given_is_masked(occli, log_file):
    server = create_server(occli)
    code, out, err = occli(
        "--debug", "--log-file", log_file, "server", "rescue", server["id"],
        "--password", "R3scuePa55", *WAIT, "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == {"adminPass": "R3scuePa55"}
    assert "REQ: curl" in err and '"adminPass": "***"' in err
    assert_hidden(["R3scuePa55"], err, log_file.read_text())


def test_rescue_password_made_up_by_the_cloud_is_masked(occli, log_file):
    server = create_server(occli)
    code, out, err = occli(
        "--debug", "--log-file", log_file, "server", "rescue", server["id"], "-f", "json"
    )
    assert code == 0, err
    generated = json.loads(out)["adminPass"]
    assert len(generated) >= 8
    assert "RESP BODY" in err
    assert_hidden([generated], err, log_file.read_text())


def test_change_password_is_masked(occli, log_file):
    server = create_server(occli)
    code, out, err = occli(
        "--debug", "--log-file", log_file, "server", "set", server["id"],
        "--password", "Chang3dPa55",
    )  # fmt: skip
    assert code == 0, err
    assert "changePassword" in err
    assert_hidden(["Chang3dPa55"], out, err, log_file.read_text())
