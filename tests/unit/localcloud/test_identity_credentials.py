"""Keystone credentials in the local cloud (``/v3/credentials``): ec2
(its id the sha256 of the access key) and opaque types, the owner's or an
admin's, keystone's texts; delegated tokens reach only their project's;
the blob never reaches the client's debug log."""

import hashlib
import json

import pytest

from occli.redaction import redact
from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_app_credentials import ac_token
from tests.unit.localcloud.test_identity_app_credentials import create as create_cred
from tests.unit.localcloud.test_identity_app_credentials import pid
from tests.unit.localcloud.test_identity_app_credentials import uid

PATH = "/v3/credentials"
DENIED = "You are not authorized to perform the requested action: %s."
BLOB = json.dumps({"access": "ak-1", "secret": "sk-1"})


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def ec2(client, **fields):
    body = {"type": "ec2", "user_id": uid(client, "demo"), "project_id": pid(client, "demo")}
    body["blob"] = BLOB
    body.update(fields)
    return {"credential": body}


def post(client, token, body, expect=201):
    result = client.post(PATH, token=token, json=body)
    assert result.status == expect, result.body
    return result


def test_ec2_create_show_list_update_delete(client):
    demo = client.token("demo")
    cred = post(client, demo, ec2(client)).json()["credential"]
    assert cred["id"] == hashlib.sha256(b"ak-1").hexdigest()
    assert set(cred) == {"id", "user_id", "project_id", "type", "blob", "links"}
    assert json.loads(cred["blob"]) == {"access": "ak-1", "secret": "sk-1"}
    shown = client.get(PATH + "/" + cred["id"], token=demo).json()["credential"]
    assert shown == cred
    generic = {"type": "cert", "user_id": uid(client, "demo"), "blob": "a certificate"}
    cert = post(client, demo, {"credential": generic}).json()["credential"]
    assert cert["project_id"] is None and len(cert["id"]) == 32
    listed = client.get(PATH, token=demo).json()["credentials"]
    assert [c["id"] for c in listed] == [cred["id"], cert["id"]]
    typed = client.get(PATH + "?type=ec2", token=demo).json()["credentials"]
    assert [c["id"] for c in typed] == [cred["id"]]
    patched = client.request(
        "PATCH", PATH + "/" + cert["id"], token=demo, json={"credential": {"blob": "another"}}
    )
    assert patched.status == 200 and patched.json()["credential"]["blob"] == "another"
    assert client.delete(PATH + "/" + cert["id"], token=demo).status == 204
    gone = client.get(PATH + "/" + cert["id"], token=demo)
    assert gone.status == 403 and error(gone) == DENIED % "identity:get_credential"


def test_refusals_with_keystones_texts(client, admin):
    demo = client.token("demo")
    post(client, demo, ec2(client))
    dup = post(client, demo, ec2(client), 409)
    assert error(dup) == (
        "Conflict occurred attempting to store credential - Duplicate entry found with ID %s."
        % hashlib.sha256(b"ak-1").hexdigest()
    )
    body = ec2(client)
    del body["credential"]["project_id"]
    missing = post(client, demo, body, 400)
    assert error(missing) == (
        "Invalid input for field/attribute credential. Value: %r. 'project_id' is a required"
        " property" % body["credential"]
    )
    assert error(post(client, demo, ec2(client, blob="nope"), 400)) == "Invalid blob in credential"
    no_access = post(client, demo, ec2(client, blob=json.dumps({"secret": "x"})), 400)
    assert error(no_access).startswith("Expecting to find access in credential.")
    other = {"type": "cert", "user_id": uid(client, "admin"), "blob": "x"}
    denied = post(client, demo, {"credential": other}, 403)
    assert error(denied) == DENIED % "identity:create_credential"
    unknown = client.get(PATH + "/" + "0" * 32, token=demo)
    assert unknown.status == 403
    assert admin("GET", PATH + "/" + "0" * 32).status == 404
    cred_id = hashlib.sha256(b"ak-1").hexdigest()
    retyped = client.request(
        "PATCH", PATH + "/" + cred_id, token=demo, json={"credential": {"type": "ec2"}}
    )
    assert retyped.status == 400
    assert error(retyped).endswith("Additional properties are not allowed ('type' was unexpected)")
    alt = client.token("alt")
    assert client.get(PATH, token=alt).json()["credentials"] == []
    assert client.delete(PATH + "/" + cred_id, token=alt).status == 403
    assert [c["id"] for c in admin("GET", PATH).json()["credentials"]] == [cred_id]


def test_a_restricted_application_credential_cannot_make_an_ec2_one(client):
    demo = client.token("demo")
    cred = create_cred(client, demo, uid(client, "demo")).json()["application_credential"]
    raw = ac_token(client, cred)
    refused = post(client, raw, ec2(client), 403)
    assert error(refused) == DENIED % (
        "Using method 'application_credential' is not allowed for managing additional credentials."
    )
    # an opaque one it may make, of its own project only
    post(
        client, raw, {"credential": {"type": "cert", "user_id": cred["user_id"], "blob": "c"}}, 403
    )
    mine = {
        "type": "cert",
        "user_id": cred["user_id"],
        "blob": "c",
        "project_id": cred["project_id"],
    }
    assert post(client, raw, {"credential": mine}).status == 201


def test_an_ec2_credential_made_with_a_delegated_token_keeps_its_scope(client):
    demo = client.token("demo")
    cred = create_cred(client, demo, uid(client, "demo"), unrestricted=True).json()
    raw = ac_token(client, cred["application_credential"])
    made = post(client, raw, ec2(client)).json()["credential"]
    assert json.loads(made["blob"])["app_cred_id"] == cred["application_credential"]["id"]
    changed = client.request(
        "PATCH", PATH + "/" + made["id"], token=demo, json={"credential": {"blob": BLOB}}
    )
    assert changed.status == 400
    assert error(changed) == "app_cred_id can not be updated for credential"


def test_the_blob_is_masked_in_debug_output():
    blob = json.dumps({"access": "a", "secret": "s3"})
    line = json.dumps({"credential": {"type": "ec2", "blob": blob}})
    masked = redact(line)
    assert "s3" not in masked and '"blob": "***"' in masked
