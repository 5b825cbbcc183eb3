"""Trusts, credentials and EC2 credentials with the real CLI against a
local Keystone of its own (issue 21): a trust made by demo lets alt act in
demo's project; a credential's data and an EC2 secret are shown but never
in the debug log; an EC2 credential signs a request that ``/v3/ec2tokens``
turns into a token; OSC's refusals."""

import io
import json

import pytest
import requests

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="module")
def cloud():
    from occli.localcloud.identity.api.service import IdentityService

    running = start_localcloud(services=[IdentityService])
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, monkeypatch, tmp_path):
    """``occli(*argv, cloud="local-admin")`` → (exit code, stdout, stderr)."""
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local-admin"):
        app = shell.OcCLI()
        app.stdout, app.stderr = io.StringIO(), io.StringIO()
        code = app.run(["--os-cloud", cloud] + [str(a) for a in argv])
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def ok(result):
    code, out, err = result
    assert code == 0, err
    return out


def as_json(result):
    return json.loads(ok(result))


def ids(occli, kind, *names):
    """Ids looked up as the admin (a user may not look others up: OSC then
    sends the name as it is, as occli does)."""
    return [ok(occli(kind, "show", n, "-f", "value", "-c", "id")).strip() for n in names]


def test_a_trust_lets_the_trustee_act_in_the_trustors_project(cloud, occli):
    demo, alt = ids(occli, "user", "demo", "alt")
    (member,) = ids(occli, "role", "member")
    (project,) = ids(occli, "project", "demo")
    trust = as_json(
        occli(
            *("trust", "create", demo, alt, "--project", project, "--role", member),
            *("--expiration", "2099-01-02T03:04:05", "-f", "json"),
            cloud="local",
        )
    )
    assert list(trust) == [
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
    assert trust["is_impersonation"] is False
    assert [r["name"] for r in trust["roles"]] == ["member"]
    assert trust["expires_at"].startswith("2099-01-02T03:04:05")
    shown = as_json(occli("trust", "show", trust["id"], "-f", "json", cloud="local-alt"))
    assert shown["id"] == trust["id"] and shown["project_id"] == trust["project_id"]
    mine = as_json(occli("trust", "list", "--auth-user", "-f", "json", cloud="local-alt"))
    assert [t["ID"] for t in mine] == [trust["id"]]
    assert list(mine[0]) == [
        "ID",
        "Expires At",
        "Impersonation",
        "Project ID",
        "Trustee User ID",
        "Trustor User ID",
    ]
    by_trustor = as_json(occli("trust", "list", "--trustor", "demo", "-f", "json"))
    assert [t["ID"] for t in by_trustor] == [trust["id"]]
    # the trustee's token for the trust is scoped to demo's project
    auth: dict = {
        "identity": {
            "methods": ["password"],
            "password": {
                "user": {
                    "name": "alt",
                    "domain": {"id": "default"},
                    "password": cloud.config.alt_password,
                }
            },
        },
        "scope": {"OS-TRUST:trust": {"id": trust["id"]}},
    }
    issued = requests.post(cloud.auth_url + "/auth/tokens", json={"auth": auth})
    assert issued.status_code == 201, issued.text
    assert issued.json()["token"]["project"]["id"] == trust["project_id"]
    # alt may not delete demo's trust; demo may
    code, _, err = occli("trust", "delete", trust["id"], cloud="local-alt")
    assert code == 1 and "(HTTP 403)" in err
    ok(occli("trust", "delete", trust["id"], cloud="local"))
    code, _, err = occli("trust", "show", trust["id"], cloud="local")
    assert code == 1 and "No trust with a name or ID of '%s' exists." % trust["id"] in err


def test_trust_list_refusals(occli):
    for argv, text in (
        (
            ("--auth-user", "--trustor", "demo"),
            "--authuser cannot be used with --trustee or --trustor",
        ),
        (
            (
                "--trustee-domain",
                "Default",
            ),
            "Using --trustee-domain mandates the use of --trustee",
        ),
        (
            (
                "--trustor-domain",
                "Default",
            ),
            "Using --trustor-domain mandates the use of --trustor",
        ),
    ):
        code, _, err = occli("trust", "list", *argv)
        assert code == 1 and text in err
    with pytest.raises(SystemExit) as exited:  # argparse: --project is required
        occli("trust", "create", "demo", "alt", "--role", "member")
    assert exited.value.code == 2
    code, _, err = occli("trust", "list", "-f", "json", cloud="local")
    assert code == 1 and "(HTTP 403)" in err


def test_credentials_shown_but_not_in_the_debug_log(occli):
    made = as_json(
        occli("credential", "create", "demo", "totp-seed-123", "--type", "totp", "-f", "json")
    )
    assert list(made) == ["blob", "id", "project_id", "type", "user_id"]
    assert (made["blob"], made["type"], made["project_id"]) == ("totp-seed-123", "totp", None)
    code, out, err = occli("--debug", "credential", "show", made["id"], "-f", "json")
    assert code == 0 and json.loads(out)["blob"] == "totp-seed-123"
    assert "totp-seed-123" not in err and '"blob"' in err
    listed = as_json(occli("credential", "list", "--user", "demo", "--type", "totp", "-f", "json"))
    assert [(c["ID"], c["Data"]) for c in listed] == [(made["id"], "totp-seed-123")]
    assert list(listed[0]) == ["ID", "Type", "User ID", "Data", "Project ID"]
    ok(
        occli(
            *("credential", "set", made["id"], "--user", "demo", "--type", "cert"),
            *("--data", "a-certificate", "--project", "demo"),
        )
    )
    changed = as_json(occli("credential", "show", made["id"], "-f", "json"))
    assert (changed["type"], changed["blob"]) == ("cert", "a-certificate")
    code, _, err = occli("credential", "show", made["id"], cloud="local-alt")
    assert code == 1 and "(HTTP 403)" in err
    with pytest.raises(SystemExit) as exited:  # argparse: --user is required
        occli("credential", "set", made["id"], "--type", "cert", "--data", "x")
    assert exited.value.code == 2
    code, _, err = occli("credential", "create", "demo", "{}", "--type", "ec2")
    assert code == 1 and "'project_id' is a required property" in err
    ok(occli("credential", "delete", made["id"]))
    code, _, err = occli("credential", "delete", made["id"], "nosuch")
    assert code == 1 and err.count("Failed to delete credential") == 2


def test_ec2_credentials_sign_a_request_keystone_accepts(cloud, occli):
    from occli.localcloud.identity import ec2_signature

    made = as_json(occli("ec2", "credentials", "create", "-f", "json", cloud="local"))
    assert list(made) == ["access", "project_id", "secret", "trust_id", "user_id"]
    code, out, err = occli("--debug", "ec2", "credentials", "show", made["access"], cloud="local")
    assert code == 0 and made["secret"] in out and made["secret"] not in err
    assert '"secret"' in err  # logged, masked
    listed = as_json(occli("ec2", "credentials", "list", "-f", "json", cloud="local"))
    assert listed == [
        {
            "Access": made["access"],
            "Secret": made["secret"],
            "Project ID": made["project_id"],
            "User ID": made["user_id"],
        }
    ]
    theirs = as_json(occli("ec2", "credentials", "list", "--user", "demo", "-f", "json"))
    assert [c["Access"] for c in theirs] == [made["access"]]
    code, _, err = occli("ec2", "credentials", "list", "--user", "demo", cloud="local-alt")
    assert code == 1 and "(HTTP 403)" in err
    request: dict = {
        "access": made["access"],
        "host": "ec2.example:8773",
        "verb": "GET",
        "path": "/",
        "params": {"Action": "DescribeRegions", "SignatureVersion": "2"},
    }
    request["signature"] = ec2_signature.generate(made["secret"], dict(request))
    admin_auth: dict = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": "admin",
                        "domain": {"id": "default"},
                        "password": cloud.config.admin_password,
                    }
                },
            },
            "scope": {"project": {"name": "admin", "domain": {"id": "default"}}},
        }
    }
    issued_admin = requests.post(cloud.auth_url + "/auth/tokens", json=admin_auth)
    admin = issued_admin.headers["X-Subject-Token"]
    tokens = cloud.auth_url + "/ec2tokens"
    issued = requests.post(tokens, json={"credentials": request}, headers={"X-Auth-Token": admin})
    assert issued.status_code == 200, issued.text
    assert issued.json()["token"]["user"]["id"] == made["user_id"]
    forged = dict(request, signature="forged")
    refused = requests.post(tokens, json={"credentials": forged}, headers={"X-Auth-Token": admin})
    assert refused.status_code == 401
    ok(occli("ec2", "credentials", "delete", made["access"], cloud="local"))
    gone = requests.post(tokens, json={"credentials": request}, headers={"X-Auth-Token": admin})
    assert gone.status_code == 404 and "EC2 access key not found." in gone.text
    code, _, err = occli("ec2", "credentials", "show", made["access"], cloud="local")
    assert code == 1 and "Could not find credential" in err


def names(result):
    return sorted(p["Name"] for p in as_json(result))


def test_project_tags_set_and_filter(occli):
    ok(occli("project", "create", "tagged-1", "--tag", "red", "--tag", "blue"))
    ok(occli("project", "create", "tagged-2", "--tag", "blue"))
    ok(occli("project", "set", "tagged-2", "--tag", "green", "--tag", "blue"))
    shown = as_json(occli("project", "show", "tagged-2", "-f", "json"))
    assert shown["tags"] == ["blue", "green"]
    ok(occli("project", "set", "tagged-1", "--remove-tag", "red", "--remove-tag", "none"))
    assert as_json(occli("project", "show", "tagged-1", "-f", "json"))["tags"] == ["blue"]
    ok(occli("project", "set", "tagged-1", "--tag", "red"))
    listing = ("project", "list", "-f", "json")
    assert names(occli(*listing, "--tags", "blue,green")) == ["tagged-2"]
    assert names(occli(*listing, "--tags-any", "red,green")) == ["tagged-1", "tagged-2"]
    assert "tagged-1" not in names(occli(*listing, "--not-tags", "blue,red"))
    assert "tagged-2" in names(occli(*listing, "--not-tags", "blue,red"))
    remaining = names(occli(*listing, "--not-tags-any", "red,green"))
    assert "tagged-1" not in remaining and "tagged-2" not in remaining and "demo" in remaining
    # --clear-tags with --tag overwrites them
    ok(occli("project", "set", "tagged-2", "--clear-tags", "--tag", "new"))
    assert as_json(occli("project", "show", "tagged-2", "-f", "json"))["tags"] == ["new"]
    ok(occli("project", "set", "tagged-2", "--clear-tags"))
    assert as_json(occli("project", "show", "tagged-2", "-f", "json"))["tags"] == []
    code, _, err = occli("project", "set", "tagged-2", "--tag", "x", cloud="local")
    assert code == 1 and "(HTTP 403)" in err
