"""Trust, credential and EC2 credential managers and commands
(requests-mock): ``client.trusts``, ``client.credentials``,
``client.ec2_credentials`` and ``trust …``/``credential …``/``ec2
credentials …`` with OSC's options, columns and refusals; a credential's
blob and an EC2 secret never reach the debug log."""

import datetime
import json

from .fakes import BASE
from .fakes import PROJECT_ID

IDENTITY = BASE + "/identity/v3"
ME = "ee4dfb6e5540447cb3741905149d9b6e"  # the token sample's user
TRUSTS = IDENTITY + "/OS-TRUST/trusts"
TRUST_ID = "1ff900a8b3f74d2a9c1d9b8e6c6f1a2b"
TRUSTEE = "f2e1d0c9b8a74e6d5c4b3a2918076f5e"
ROLE = "7cd806d5cc2e4c63a4f16637dda41be0"
CREDS = IDENTITY + "/credentials"
EC2 = IDENTITY + "/users/%s/credentials/OS-EC2" % ME
ACCESS, SECRET = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", "5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a"

TRUST = {
    "id": TRUST_ID,
    "trustor_user_id": ME,
    "trustee_user_id": TRUSTEE,
    "project_id": PROJECT_ID,
    "impersonation": True,
    "expires_at": "2030-01-02T03:04:05.000000Z",
    "remaining_uses": None,
    "redelegated_trust_id": None,
    "redelegation_count": 0,
    "roles": [{"id": ROLE, "name": "member", "domain_id": None}],
    "links": {"self": TRUSTS + "/" + TRUST_ID},
}
CRED_ID = "c0ffee00c0ffee00c0ffee00c0ffee00"
CREDENTIAL = {
    "id": CRED_ID,
    "user_id": ME,
    "project_id": None,
    "type": "totp",
    "blob": "totp-seed-value",
    "links": {"self": CREDS + "/" + CRED_ID},
}
EC2_CRED = {
    "user_id": ME,
    "tenant_id": PROJECT_ID,
    "access": ACCESS,
    "secret": SECRET,
    "trust_id": None,
    "links": {"self": EC2 + "/" + ACCESS},
}


def test_trust_manager_requests(client, mock_cloud):
    mock_cloud.mock.post(TRUSTS, status_code=201, json={"trust": TRUST})
    made = client.trusts.create(
        ME,
        TRUSTEE,
        PROJECT_ID,
        [{"id": ROLE}],
        impersonation=True,
        expires_at=datetime.datetime(2030, 1, 2, 3, 4, 5),
    )
    assert made.id == TRUST_ID
    assert mock_cloud.mock.last_request.json() == {
        "trust": {
            "trustor_user_id": ME,
            "trustee_user_id": TRUSTEE,
            "project_id": PROJECT_ID,
            "roles": [{"id": ROLE}],
            "impersonation": True,
            "expires_at": "2030-01-02T03:04:05.000000Z",
        }
    }
    mock_cloud.mock.get(TRUSTS, json={"trusts": [TRUST], "links": {"next": None}})
    assert [t.id for t in client.trusts.list(trustee=TRUSTEE)] == [TRUST_ID]
    assert mock_cloud.mock.last_request.qs == {"trustee_user_id": [TRUSTEE]}


def test_trust_create_resolves_names_and_shows_osc_columns(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(IDENTITY + "/users/demo", json={"user": {"id": ME, "name": "demo"}})
    m.get(IDENTITY + "/users/alt", json={"user": {"id": TRUSTEE, "name": "alt"}})
    m.get(IDENTITY + "/projects/demo", json={"project": {"id": PROJECT_ID, "name": "demo"}})
    m.get(IDENTITY + "/roles/member", json={"role": {"id": ROLE, "name": "member"}})
    m.post(TRUSTS, status_code=201, json={"trust": TRUST})
    code, out, err = cli(
        *("trust", "create", "demo", "alt", "--project", "demo", "--role", "member"),
        *("--impersonate", "--expiration", "2030-01-02T03:04:05", "-f", "json"),
    )
    assert code == 0, err
    body = m.last_request.json()["trust"]
    assert (body["trustor_user_id"], body["trustee_user_id"]) == (ME, TRUSTEE)
    assert body["roles"] == [{"id": ROLE}] and body["impersonation"] is True
    shown = json.loads(out)
    assert list(shown) == [
        "expires_at",
        "id",
        "is_impersonation",
        "project_id",
        "redelegated_trust_id",
        "redelegation_count",
        "remaining_uses",
        "roles",
        "trustee_user_id",
        "trustor_user_id",
    ]
    assert shown["is_impersonation"] is True
    code, out, err = cli("trust", "create", "demo", "alt", "--project", "demo", "--role", "member")
    assert "| roles                | member" in out  # the names, as OSC shows them


def test_trust_refusals(cli, mock_cloud):
    code, out, err = cli(
        *("trust", "create", "demo", "alt", "--project", "p", "--role", "r"),
        *("--expiration", "tomorrow"),
    )
    assert code != 0 and "is not of the form YYYY-mm-ddTHH:MM:SS." in err
    for argv, text in (
        (
            ("--auth-user", "--trustee", "x"),
            "--authuser cannot be used with --trustee or --trustor",
        ),
        (("--trustee-domain", "d"), "Using --trustee-domain mandates the use of --trustee"),
        (("--trustor-domain", "d"), "Using --trustor-domain mandates the use of --trustor"),
    ):
        code, out, err = cli("trust", "list", *argv)
        assert code == 1 and text in err
    assert not [r for r in mock_cloud.mock.request_history if "OS-TRUST" in r.url]


def test_trust_list_auth_user_merges_trustor_and_trustee(cli, mock_cloud):
    other = dict(TRUST, id="2" * 32, trustor_user_id=TRUSTEE, trustee_user_id=ME)
    mock_cloud.mock.get(
        TRUSTS + "?trustor_user_id=" + ME, json={"trusts": [TRUST], "links": {"next": None}}
    )
    mock_cloud.mock.get(
        TRUSTS + "?trustee_user_id=" + ME,
        json={"trusts": [other, TRUST], "links": {"next": None}},
    )
    code, out, err = cli("trust", "list", "--auth-user", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["ID"] for r in rows] == [TRUST_ID, "2" * 32]
    assert list(rows[0]) == [
        "ID",
        "Expires At",
        "Impersonation",
        "Project ID",
        "Trustee User ID",
        "Trustor User ID",
    ]


def test_credential_commands_and_the_blob_never_in_the_debug_log(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(IDENTITY + "/users/demo", json={"user": {"id": ME, "name": "demo"}})
    m.post(CREDS, status_code=201, json={"credential": CREDENTIAL})
    code, out, err = cli(
        "--debug", "credential", "create", "demo", "totp-seed-value", "--type", "totp"
    )
    assert code == 0, err
    assert m.last_request.json() == {
        "credential": {"user_id": ME, "type": "totp", "blob": "totp-seed-value"}
    }
    assert "totp-seed-value" in out and "totp-seed-value" not in err
    assert '"blob": "***"' in err
    code, out, err = cli("credential", "create", "demo", "pem")
    assert m.last_request.json()["credential"]["type"] == "cert"  # OSC's default
    m.patch(CREDS + "/" + CRED_ID, json={"credential": CREDENTIAL})
    code, out, err = cli(
        *("credential", "set", CRED_ID, "--user", "demo"),
        *("--type", "cert", "--data", "new-blob"),
    )
    assert code == 0 and out == "", err
    assert m.last_request.json() == {
        "credential": {"user_id": ME, "type": "cert", "blob": "new-blob"}
    }
    m.get(CREDS, json={"credentials": [CREDENTIAL], "links": {"next": None}})
    code, out, err = cli("credential", "list", "--type", "totp", "-f", "json")
    assert code == 0, err
    assert m.last_request.qs == {"type": ["totp"]}
    assert list(json.loads(out)[0]) == ["ID", "Type", "User ID", "Data", "Project ID"]


def test_ec2_credentials_default_to_the_tokens_user_and_project(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(
        EC2,
        status_code=201,
        json={"credential": EC2_CRED},
        headers={"Content-Type": "application/json"},  # so that the answer is logged
    )
    code, out, err = cli("--debug", "ec2", "credentials", "create", "-f", "json")
    assert code == 0, err
    assert m.last_request.json() == {"tenant_id": PROJECT_ID}
    assert json.loads(out) == {
        "access": ACCESS,
        "project_id": PROJECT_ID,
        "secret": SECRET,
        "trust_id": None,
        "user_id": ME,
    }
    assert SECRET not in err and '"secret": "***"' in err
    m.get(EC2, json={"credentials": [EC2_CRED], "links": {"next": None}})
    code, out, err = cli("ec2", "credentials", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Access": ACCESS, "Secret": SECRET, "Project ID": PROJECT_ID, "User ID": ME}
    ]
    m.delete(EC2 + "/" + ACCESS, status_code=204)
    m.delete(
        EC2 + "/nosuch",
        status_code=404,
        json={"error": {"code": 404, "message": "Could not find credential: x."}},
    )
    code, out, err = cli("ec2", "credentials", "delete", ACCESS, "nosuch")
    assert code == 1
    assert "Failed to delete EC2 credentials with access key nosuch" in err
    assert ACCESS not in err
