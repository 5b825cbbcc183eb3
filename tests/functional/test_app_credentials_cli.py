"""An application credential's life with the real CLI against a local
Keystone and Glance of their own (issue 21): ``application credential
create`` with access rules (the secret shown once), a login with it as
OSC's ``v3applicationcredential`` auth that may do what its rules allow
and nothing else, ``access rule list``, then ``application credential
delete``: the login fails after."""

import io
import json
import os

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud

SECRET = "cli-app-cred-secret-42"
RULES = [{"service": "image", "method": "GET", "path": "/v2/images"}]


@pytest.fixture(scope="module")
def cloud():
    from occli.localcloud.identity.api.service import IdentityService
    from occli.localcloud.image.api.service import ImageService

    running = start_localcloud(services=[IdentityService, ImageService])
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, monkeypatch, tmp_path):
    """``occli(*argv, cloud="local", env=None)`` → (exit code, stdout,
    stderr); ``cloud=None`` uses only the ``OS_*`` of ``env``."""
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local", env=None):
        with monkeypatch.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            if cloud:
                argv = ("--os-cloud", cloud) + argv
            app = shell.OcCLI()
            app.stdout, app.stderr = io.StringIO(), io.StringIO()
            code = app.run([str(a) for a in argv])
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def cred_env(cloud, cred_id):
    return {
        "OS_AUTH_TYPE": "v3applicationcredential",
        "OS_AUTH_URL": cloud.auth_url,
        "OS_APPLICATION_CREDENTIAL_ID": cred_id,
        "OS_APPLICATION_CREDENTIAL_SECRET": SECRET,
    }


def test_create_log_in_within_the_rules_then_delete(cloud, occli, tmp_path):
    created = as_json(
        occli(
            *("application", "credential", "create", "--secret", SECRET, "--role", "member"),
            *("--access-rules", json.dumps(RULES), "-f", "json", "ci-images"),
        )
    )
    assert created["Secret"] == SECRET and created["Unrestricted"] is False
    assert [{k: r[k] for k in ("service", "method", "path")} for r in created["Access Rules"]] == (
        RULES
    )
    shown = as_json(occli("application", "credential", "show", "-f", "json", "ci-images"))
    assert shown["ID"] == created["ID"] and "Secret" not in shown
    rules = as_json(occli("access", "rule", "list", "-f", "json"))
    assert [r["ID"] for r in rules] == [created["Access Rules"][0]["id"]]

    env = cred_env(cloud, created["ID"])
    images = as_json(occli("image", "list", "-f", "json", cloud=None, env=env))
    assert isinstance(images, list)
    # outside its rules (Keystone's own API here) the token is refused
    code, out, err = occli("application", "credential", "list", cloud=None, env=env)
    assert code == 1, out
    # the rule is in use: not deletable yet
    code, out, err = occli("access", "rule", "delete", rules[0]["ID"])
    assert code == 1 and "May not delete access rule in use" in err
    # the secret was shown, never cached
    for root, _dirs, files in os.walk(tmp_path / "cache"):
        for name in files:
            with open(os.path.join(root, name), errors="replace") as f:
                assert SECRET not in f.read()

    ok(occli("application", "credential", "delete", "ci-images"))
    code, out, err = occli("image", "list", cloud=None, env=env)
    assert code == 1
    code, out, err = occli("application", "credential", "show", "ci-images")
    assert code == 1 and "ci-images" in err
    ok(occli("access", "rule", "delete", rules[0]["ID"]))
    assert as_json(occli("access", "rule", "list", "-f", "json")) == []


def test_a_restricted_credential_cannot_make_another(cloud, occli):
    created = as_json(
        occli("application", "credential", "create", "--secret", SECRET, "-f", "json", "plain")
    )
    env = cred_env(cloud, created["ID"])
    code, out, err = occli("application", "credential", "create", "other", cloud=None, env=env)
    assert code == 1
    assert (
        "Using method 'application_credential' is not allowed for managing additional"
        " application credentials." in err
    )
    ok(occli("application", "credential", "delete", created["ID"]))
