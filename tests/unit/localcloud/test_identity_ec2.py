"""Keystone's EC2 API in the local cloud: ``/v3/users/{id}/credentials/OS-EC2``
(keystone/api/users.py) and ``POST /v3/ec2tokens`` (keystone/api/ec2tokens.py),
its policies and texts; the signatures checked against AWS's own
documented examples."""

import copy
import datetime
import hashlib

import pytest

from occli.localcloud import common
from occli.localcloud.identity import assignments
from occli.localcloud.identity import ec2_signature
from occli.localcloud.identity import users
from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_app_credentials import ac_token
from tests.unit.localcloud.test_identity_app_credentials import make_cred
from tests.unit.localcloud.test_identity_app_credentials import pid
from tests.unit.localcloud.test_identity_app_credentials import uid
from tests.unit.localcloud.test_identity_trusts import make_trust
from tests.unit.localcloud.test_identity_trusts import trust_token

DENIED = "You are not authorized to perform the requested action: %s."
AUTH_REQUIRED = "The request you have made requires authentication."
OUT_OF_SCOPE = DENIED % (
    "EC2 credential project does not match the project scope of the delegated token"
)
# AWS's documented examples: Signature Version 2 (the "DescribeJobFlows"
# request) and Signature Version 4 (the "ListUsers" request of "Create a
# signature for AWS Signature Version 4")
V2_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
V2_REQUEST = {
    "params": {
        "AWSAccessKeyId": "AKIAIOSFODNN7EXAMPLE",
        "Action": "DescribeJobFlows",
        "SignatureMethod": "HmacSHA256",
        "SignatureVersion": "2",
        "Timestamp": "2011-10-03T15:19:30",
        "Version": "2009-03-31",
    },
    "verb": "GET",
    "host": "elasticmapreduce.amazonaws.com",
    "path": "/",
}
V2_SIGNATURE = "i91nKc4PWAt0JJIdXwz9HxZCJDdiy6cf/Mj6vPxyYIs="
V4_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
V4_REQUEST = {
    "params": {"Action": "ListUsers", "Version": "2010-05-08"},
    "verb": "GET",
    "host": "iam.amazonaws.com",
    "path": "/",
    "headers": {
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
        "Host": "iam.amazonaws.com",
        "X-Amz-Date": "20150830T123600Z",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/"
        "aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=x",
    },
    "body_hash": hashlib.sha256(b"").hexdigest(),
}
V4_SIGNATURE = "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"


def ec2_url(user_id, access=None):
    url = "/v3/users/%s/credentials/OS-EC2" % user_id
    return url + "/" + access if access else url


def make_ec2(client, token=None, user="demo", project="demo", expect=201):
    result = client.post(
        ec2_url(uid(client, user)),
        token=token or client.token(user),
        json={"tenant_id": pid(client, project)},
    )
    assert result.status == expect, result.body
    return result


def admin_token(client):
    return client.token("admin", scope=ADMIN_SCOPE)


def test_aws_documented_signatures():
    assert ec2_signature.generate(V2_SECRET, copy.deepcopy(V2_REQUEST)) == V2_SIGNATURE
    assert ec2_signature.generate(V4_SECRET, copy.deepcopy(V4_REQUEST)) == V4_SIGNATURE
    assert ec2_signature.matches(
        V4_SECRET, dict(copy.deepcopy(V4_REQUEST), signature=V4_SIGNATURE)
    )
    assert not ec2_signature.matches(V4_SECRET, dict(copy.deepcopy(V4_REQUEST), signature="0"))
    with pytest.raises(ec2_signature.SignatureError, match="Unknown signature version: 9"):
        ec2_signature.generate(V2_SECRET, {"params": {"SignatureVersion": "9"}})
    with pytest.raises(ec2_signature.SignatureError):
        ec2_signature.generate(V2_SECRET, {"params": {"SignatureVersion": "2"}})


def test_create_list_show_delete_with_keystones_fields(client):
    demo = client.token("demo")
    user_id = uid(client, "demo")
    cred = make_ec2(client, demo).json()["credential"]
    assert set(cred) == {"user_id", "tenant_id", "access", "secret", "trust_id", "links"}
    assert cred["user_id"] == user_id and cred["tenant_id"] == pid(client, "demo")
    assert len(cred["access"]) == 32 and len(cred["secret"]) == 32 and cred["trust_id"] is None
    assert cred["links"]["self"].endswith(ec2_url(user_id, cred["access"]))
    # the same row as a generic credential, its id the access key's sha256
    generic = client.get(
        "/v3/credentials/" + hashlib.sha256(cred["access"].encode()).hexdigest(), token=demo
    )
    assert generic.status == 200 and generic.json()["credential"]["type"] == "ec2"
    listed = client.get(ec2_url(user_id), token=demo).json()
    assert listed["credentials"] == [cred] and "links" in listed
    shown = client.get(ec2_url(user_id, cred["access"]), token=demo)
    assert shown.status == 200 and shown.json()["credential"] == cred
    assert client.delete(ec2_url(user_id, cred["access"]), token=demo).status == 204
    gone = client.get(ec2_url(user_id, cred["access"]), token=demo)
    assert gone.status == 404
    assert error(gone) == "Could not find credential: %s." % (
        hashlib.sha256(cred["access"].encode()).hexdigest()
    )
    assert client.get(ec2_url(user_id), token=demo).json()["credentials"] == []


def test_policy_refusals(client):
    demo, alt = client.token("demo"), client.token("alt")
    cred = make_ec2(client, demo).json()["credential"]
    demo_id = uid(client, "demo")
    other = client.post(ec2_url(uid(client, "alt")), token=demo, json={"tenant_id": "x"})
    assert other.status == 403 and error(other) == DENIED % "identity:ec2_create_credential"
    listing = client.get(ec2_url(uid(client, "alt")), token=demo)
    assert listing.status == 403 and error(listing) == DENIED % "identity:ec2_list_credentials"
    shown = client.get(ec2_url(demo_id, cred["access"]), token=alt)
    assert shown.status == 403 and error(shown) == DENIED % "identity:ec2_get_credential"
    deleted = client.delete(ec2_url(demo_id, cred["access"]), token=alt)
    assert deleted.status == 403 and error(deleted) == DENIED % "identity:ec2_delete_credential"
    # an admin reaches anyone's, and creates for anyone on any project
    admin = admin_token(client)
    assert client.get(ec2_url(demo_id, cred["access"]), token=admin).status == 200
    made = make_ec2(client, admin, project="alt").json()["credential"]
    assert made["user_id"] == demo_id and made["tenant_id"] == pid(client, "alt")


def test_not_found_and_bad_bodies(client):
    demo, admin = client.token("demo"), admin_token(client)
    demo_id = uid(client, "demo")
    for body in ({}, {"tenant_id": None}, None):
        result = client.post(ec2_url(demo_id), token=demo, json=body)
        assert result.status == 404 and error(result) == "Could not find project: None."
    unknown = client.post(ec2_url(demo_id), token=demo, json={"tenant_id": "nope"})
    assert unknown.status == 404 and error(unknown) == "Could not find project: nope."
    nobody = client.get(ec2_url("nobody"), token=admin)
    assert nobody.status == 404 and error(nobody) == "Could not find user: nobody."
    made = client.post(ec2_url("nobody"), token=admin, json={"tenant_id": pid(client, "demo")})
    assert made.status == 404 and error(made) == "Could not find user: nobody."
    cred = make_ec2(client, demo).json()["credential"]
    wrong_user = client.get(ec2_url("nobody", cred["access"]), token=demo)
    assert wrong_user.status == 404 and error(wrong_user) == "Could not find user: nobody."


def test_a_credential_no_longer_ec2_is_keystones_401(client):
    demo = client.token("demo")
    cred = make_ec2(client, demo).json()["credential"]
    cred_id = hashlib.sha256(cred["access"].encode()).hexdigest()
    patched = client.request(
        "PATCH", "/v3/credentials/" + cred_id, token=demo, json={"credential": {"type": "cert"}}
    )
    assert patched.status == 200, patched.body
    shown = client.get(ec2_url(uid(client, "demo"), cred["access"]), token=demo)
    assert shown.status == 401 and error(shown) == AUTH_REQUIRED
    assert client.get(ec2_url(uid(client, "demo")), token=demo).json()["credentials"] == []


def test_restricted_application_credential_makes_none(client):
    _token, user_id, cred = make_cred(client, name="ec2-restricted")
    result = client.post(
        ec2_url(user_id), token=ac_token(client, cred), json={"tenant_id": pid(client, "demo")}
    )
    assert result.status == 403
    # keystone's action text ends with its own full stop: two in a row
    assert error(result) == DENIED % (
        "Using method 'application_credential' is not allowed for managing additional"
        " application credentials."
    )


def test_delegated_tokens_reach_only_their_project(client):
    demo_id = uid(client, "demo")
    own = make_ec2(client).json()["credential"]
    elsewhere = make_ec2(client, admin_token(client), project="alt").json()["credential"]
    _token, _user, cred = make_cred(client, name="ec2-free", unrestricted=True)
    delegated = ac_token(client, cred)
    listed = client.get(ec2_url(demo_id), token=delegated).json()["credentials"]
    assert [c["access"] for c in listed] == [own["access"]]
    shown = client.get(ec2_url(demo_id, elsewhere["access"]), token=delegated)
    assert shown.status == 403 and error(shown) == OUT_OF_SCOPE
    gone = client.delete(ec2_url(demo_id, elsewhere["access"]), token=delegated)
    assert gone.status == 403 and error(gone) == OUT_OF_SCOPE
    made = client.post(ec2_url(demo_id), token=delegated, json={"tenant_id": pid(client, "alt")})
    assert made.status == 403 and error(made) == OUT_OF_SCOPE
    assert make_ec2(client, delegated).json()["credential"]["tenant_id"] == pid(client, "demo")


# -- /v3/ec2tokens ----------------------------------------------------------------


def signed(cred, host="localhost:8773", timestamp=None, **fields):
    """An ec2tokens body for a signature v2 request of ``cred``."""
    stamp = timestamp or common.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
    request = {
        "access": cred["access"],
        "host": host,
        "verb": "GET",
        "path": "/",
        "params": {
            "AWSAccessKeyId": cred["access"],
            "Action": "DescribeInstances",
            "SignatureMethod": "HmacSHA256",
            "SignatureVersion": "2",
            "Timestamp": stamp,
        },
    }
    request["signature"] = ec2_signature.generate(cred["secret"], copy.deepcopy(request))
    request.update(fields)
    return {"credentials": request}


def service_token(client):
    """A token of a user with only the ``service`` role (on project admin)."""
    with client.cloud.store.transaction() as db:
        project = client.cloud.identity.project_id(db, "admin")
        user = users.ensure_user(db, "ec2-service", "service-pass", project)
        assignments.assign(db, user, "project", project, assignments.ensure_role(db, "service"))
    return client.token("ec2-service", password="service-pass", scope=ADMIN_SCOPE)


def test_a_signed_request_gets_a_token_for_the_credentials_project(client):
    cred = make_ec2(client).json()["credential"]
    result = client.post("/v3/ec2tokens", token=service_token(client), json=signed(cred))
    assert result.status == 200, result.body
    token = result.json()["token"]
    assert token["methods"] == ["ec2credential"]
    assert token["user"]["id"] == uid(client, "demo")
    assert token["project"]["id"] == pid(client, "demo")
    assert [r["name"] for r in token["roles"]] == ["member", "reader"]
    issued = result.header("X-Subject-Token")
    valid = client.get("/v3/auth/tokens", token=issued, headers={"X-Subject-Token": issued})
    assert valid.status == 200
    # signed without the port, as some clients sign; the other body keys
    unported = signed(cred, host="localhost")["credentials"]
    unported["host"] = "localhost:8773"
    for key in ("credential", "ec2Credentials"):
        again = client.post("/v3/ec2tokens", token=admin_token(client), json={key: unported})
        assert again.status == 200, again.body


def test_ec2tokens_refusals(client):
    cred = make_ec2(client).json()["credential"]
    admin = admin_token(client)

    def post(body, token=admin):
        return client.post("/v3/ec2tokens", token=token, json=body)

    denied = post(signed(cred), client.token("demo"))
    assert denied.status == 403 and error(denied) == DENIED % "identity:ec2tokens_validate"
    bodies: tuple = ({}, None, [1])
    for body in bodies:
        empty = post(body)
        assert empty.status == 400 and error(empty) == "request must include a request body"
    unknown = post(signed(dict(cred, access="nope")))
    assert unknown.status == 404 and error(unknown) == "EC2 access key not found."
    refused = [
        {"credentials": {"host": "h"}},  # EC2 Signature not supplied
        signed(cred, signature=None),  # EC2 signature not supplied.
        signed(cred, signature="bad"),  # Invalid EC2 signature.
        signed(dict(cred, secret="other")),  # Invalid EC2 signature.
        signed(cred, params={"SignatureVersion": "2"}),  # the signer fails (keystone: 500)
        signed(cred, timestamp="yesterday"),  # Credential timestamp is invalid
    ]
    old = (common.utcnow() - datetime.timedelta(minutes=16)).strftime("%Y-%m-%dT%H:%M:%SZ")
    refused.append(signed(cred, timestamp=old))  # Credential is expired
    for body in refused:
        result = post(body)
        assert result.status == 401, (body, result.body)
        assert error(result) == AUTH_REQUIRED
        assert result.header("WWW-Authenticate").startswith("Keystone uri=")
    # the credential's user no longer on its project: not valid for it
    admin_call = client.request(
        "DELETE",
        "/v3/projects/%s/users/%s/roles/%s"
        % (pid(client, "demo"), uid(client, "demo"), role_id(client, "member")),
        token=admin,
    )
    assert admin_call.status == 204, admin_call.body
    gone = post(signed(cred))
    assert gone.status == 401 and error(gone) == AUTH_REQUIRED


def role_id(client, name):
    with client.cloud.store.transaction() as db:
        return assignments.ensure_role(db, name)


def test_a_disabled_user_gets_no_token(client):
    cred = make_ec2(client).json()["credential"]
    admin = admin_token(client)
    off = client.request(
        "PATCH",
        "/v3/users/" + uid(client, "demo"),
        token=admin,
        json={"user": {"enabled": False}},
    )
    assert off.status == 200, off.body
    result = client.post("/v3/ec2tokens", token=admin, json=signed(cred))
    assert result.status == 401 and error(result) == AUTH_REQUIRED


def test_a_trusts_credential_gets_a_trust_scoped_token(client):
    trust = make_trust(client)
    trustee, _body = trust_token(client, trust["id"])
    made = client.post(
        ec2_url(uid(client, "alt")), token=trustee, json={"tenant_id": pid(client, "demo")}
    )
    assert made.status == 201, made.body
    cred = made.json()["credential"]
    assert cred["trust_id"] == trust["id"]
    result = client.post("/v3/ec2tokens", token=admin_token(client), json=signed(cred))
    assert result.status == 200, result.body
    token = result.json()["token"]
    assert token["OS-TRUST:trust"]["id"] == trust["id"]
    assert token["user"]["id"] == uid(client, "alt")
    assert token["project"]["id"] == pid(client, "demo")
