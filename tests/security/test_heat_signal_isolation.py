"""Issue 9: a deployment's TEMP_URL_SIGNAL polling must not read another
project's Swift objects.

The attacker is a member of project ``alt``; the victim is project
``demo``. Heat reads a signal object with the caller's own Swift
credentials; the local cloud reads one only if the deployment's project
owns it, or if its URL is a valid temp URL for it.
"""

import hashlib
import json
import time

import pytest
import requests

from occli.localcloud.objectstore.tempurl import temp_url_signature
from tests.unit.localcloud.heat_swift_harness import make_temp_url
from tests.unit.localcloud.heat_swift_harness import start_env

SECRET = "s3cr3t-of-demo"
VICTIM_SIGNAL = {
    "deploy_stdout": SECRET,
    "deploy_stderr": SECRET,
    "deploy_status_code": 7,
    "result": SECRET,
    "leak": SECRET,
}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env, stop = start_env(tmp_path_factory.mktemp("cloud"))
    yield env
    stop()


def heat(user, method, path, **kwargs):
    return requests.request(method, user.heat + path, headers=user.headers, **kwargs)


def deploy(user, signal_url, server_id="srv"):
    """A derived config polling ``signal_url`` + its IN_PROGRESS deployment;
    returns the deployment's path."""
    config = heat(
        user,
        "POST",
        "/software_configs",
        json={
            "name": "derived",
            "group": "script",
            "inputs": [
                {"name": "deploy_signal_transport", "value": "TEMP_URL_SIGNAL"},
                {"name": "deploy_signal_id", "value": signal_url},
                {"name": "deploy_signal_verb", "value": "PUT"},
            ],
            "outputs": [{"name": "result"}, {"name": "leak", "error_output": True}],
        },
    )
    assert config.status_code == 200, config.text
    resp = heat(
        user,
        "POST",
        "/software_deployments",
        json={
            "config_id": config.json()["software_config"]["id"],
            "server_id": server_id,
            "action": "CREATE",
            "status": "IN_PROGRESS",
            "status_reason": "Deploy data available",
        },
    )
    assert resp.status_code == 200, resp.text
    return "/software_deployments/" + resp.json()["software_deployment"]["id"]


def put_object(user, container, name, body):
    requests.put(user.swift + "/" + container, headers=user.headers)
    resp = requests.put(
        "%s/%s/%s" % (user.swift, container, name), data=body, headers=user.headers
    )
    assert resp.status_code == 201, resp.text


def signed(
    env, owner, container, name, expires=None, key="victim-key", mounted=False, signer=None
):
    """A PUT temp URL of ``owner``'s object, signed with ``key`` set as
    the temp-URL key of ``signer``'s account (default: the owner's)."""
    signer = signer or owner
    requests.post(signer.swift, headers={**signer.headers, "X-Account-Meta-Temp-URL-Key": key})
    expires = int(time.time()) + 3600 if expires is None else expires
    path = "/v1/AUTH_%s/%s/%s" % (owner.project, container, name)
    if mounted:
        path = "/object-store" + path
    sig = temp_url_signature(key, "PUT", expires, path)
    return "%s%s?temp_url_sig=%s&temp_url_expires=%d" % (env.url, path, sig, expires)


def everything_alt_sees(env, path):
    """Every answer the attacker can get about the deployment."""
    alt = env.alt
    return [
        heat(alt, "GET", path),
        heat(alt, "GET", path),
        heat(alt, "GET", "/software_deployments"),
        heat(alt, "GET", "/software_deployments", params={"server_id": "srv"}),
        heat(alt, "GET", "/software_deployments/metadata/srv"),
        heat(alt, "GET", "/software_configs"),
    ]


def unsigned_url(env, project, container, name):
    return "%s/v1/AUTH_%s/%s/%s" % (env.url, project, container, name)


URL_KINDS = [
    "root",
    "mounted",
    "forged_sig",
    "expired_sig",
    "attacker_key",
    "sig_for_other_object",
]


def victim_url(env, kind, container):
    """A URL naming the victim's object ``container/signal``, as the
    attacker can build it (no valid signature)."""
    demo = env.demo
    if kind == "root":
        return unsigned_url(env, demo.project, container, "signal")
    if kind == "mounted":
        return "%s/object-store/v1/AUTH_%s/%s/signal" % (env.url, demo.project, container)
    if kind == "forged_sig":
        return unsigned_url(env, demo.project, container, "signal") + (
            "?temp_url_sig=%s&temp_url_expires=%d" % ("0" * 64, time.time() + 3600)
        )
    if kind == "expired_sig":
        return signed(env, demo, container, "signal", expires=int(time.time()) - 1)
    if kind == "attacker_key":
        # signed with a key the attacker set on its own account
        return signed(env, demo, container, "signal", key="alt-key", signer=env.alt)
    # a valid signature, but for another object of the victim
    return signed(env, demo, container, "other").replace("/other?", "/signal?")


@pytest.mark.parametrize("kind", URL_KINDS)
def test_other_projects_object_is_never_applied(env, kind):
    container = "victim-" + kind.replace("_", "-")
    url = victim_url(env, kind, container)
    path = deploy(env.alt, url)
    before = heat(env.alt, "GET", path).json()
    put_object(env.demo, container, "signal", json.dumps(VICTIM_SIGNAL))

    for resp in everything_alt_sees(env, path):
        assert resp.status_code == 200, resp.text
        assert SECRET not in resp.text
    after = heat(env.alt, "GET", path).json()
    assert after == before
    assert after["software_deployment"]["status"] == "IN_PROGRESS"
    assert after["software_deployment"]["output_values"] is None


def comparable(resp):
    """Status and body of a deployment answer, ids and times dropped."""
    body = resp.json()
    deployment = body.get("software_deployment")
    if deployment:
        deployment = {
            k: v for k, v in deployment.items() if k not in ("id", "config_id", "creation_time")
        }
        body = {"software_deployment": deployment}
    return resp.status_code, body


@pytest.mark.parametrize(
    "body",
    [
        json.dumps(VICTIM_SIGNAL),
        "not json " + SECRET,
        "[1, 2]",
        json.dumps({"deploy_status_code": 1, "result": "x" * 100}),
    ],
)
def test_an_existing_object_answers_like_a_missing_one(env, body):
    """Not even an error tells the attacker the object exists."""
    container = "probe-" + hashlib.md5(body.encode()).hexdigest()[:8]
    present = deploy(env.alt, unsigned_url(env, env.demo.project, container, "exists"))
    missing = deploy(env.alt, unsigned_url(env, env.demo.project, container, "absent"))
    nowhere = deploy(env.alt, unsigned_url(env, "no-such-project", container, "absent"))
    put_object(env.demo, container, "exists", body)

    answers = [comparable(heat(env.alt, "GET", p)) for p in (present, missing, nowhere)]
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0] == 200
    assert SECRET not in json.dumps(answers)


def test_a_valid_temp_url_of_the_own_project_is_applied(env):
    """The real agent path: heatclient's PUT temp URL in the user's own
    account, which the agent writes and the deployment polls."""
    url = make_temp_url(env, env.alt, "own-agent", "signal")
    path = deploy(env.alt, url)
    assert (
        requests.put(url, data=json.dumps({"deploy_stdout": "ok", "result": "done"})).status_code
        == 201
    )
    deployment = heat(env.alt, "GET", path).json()["software_deployment"]
    assert deployment["status"] == "COMPLETE"
    assert deployment["output_values"]["result"] == "done"
    assert deployment["output_values"]["deploy_stdout"] == "ok"


@pytest.mark.parametrize("path_form", ["root", "mounted"])
def test_a_valid_temp_url_grants_another_projects_object(env, path_form):
    """A temp URL its owner signed is the owner's consent: it is applied
    (a PUT URL grants the HEAD heat starts with, as in Swift)."""
    container = "shared-" + path_form
    url = signed(env, env.demo, container, "signal", mounted=path_form == "mounted")
    path = deploy(env.alt, url)
    put_object(env.demo, container, "signal", json.dumps({"result": "shared"}))
    deployment = heat(env.alt, "GET", path).json()["software_deployment"]
    assert deployment["status"] == "COMPLETE"
    assert deployment["output_values"]["result"] == "shared"


def test_a_temp_url_stops_granting_once_it_expires(env, monkeypatch):
    from occli.localcloud.objectstore import tempurl

    url = signed(env, env.demo, "expiring", "signal", expires=int(time.time()) + 60)
    path = deploy(env.alt, url)
    put_object(env.demo, "expiring", "signal", json.dumps({"result": "late"}))
    monkeypatch.setattr(tempurl, "_now", lambda: time.time() + 120)
    deployment = heat(env.alt, "GET", path).json()["software_deployment"]
    assert deployment["status"] == "IN_PROGRESS"
    assert deployment["output_values"] is None
