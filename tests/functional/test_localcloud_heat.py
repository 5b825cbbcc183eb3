"""Heat software deployments signalled through Swift temp URLs, end to end,
on the full local cloud and with endpoints taken from the token's catalog."""

import hashlib
import hmac
import json
import time
from urllib.parse import urlparse

import requests


def login(localcloud, name="demo", password="demo-secret"):
    resp = requests.post(
        localcloud.auth_url + "/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": name, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": {"project": {"name": name, "domain": {"id": "default"}}},
            }
        },
    )
    assert resp.status_code == 201, resp.text
    catalog = {
        s["type"]: next(e["url"] for e in s["endpoints"] if e["interface"] == "public")
        for s in resp.json()["token"]["catalog"]
    }
    return {"X-Auth-Token": resp.headers["X-Subject-Token"]}, catalog


def test_deployment_signalled_through_temp_url(localcloud):
    headers, catalog = login(localcloud)
    heat, swift = catalog["orchestration"], catalog["object-store"]

    key = "k-" + hashlib.sha1(str(time.time()).encode()).hexdigest()[:16]
    assert (
        requests.post(swift, headers={**headers, "X-Account-Meta-Temp-URL-Key": key}).status_code
        == 204
    )
    assert requests.head(swift, headers=headers).headers["X-Account-Meta-Temp-URL-Key"] == key
    assert requests.put(swift + "/deploy-signals", headers=headers).status_code in (201, 202)
    object_url = swift + "/deploy-signals/sig-1"
    assert requests.put(object_url, data=b"", headers=headers).status_code == 201

    expires = int(time.time()) + 3600
    path = urlparse(object_url).path  # signed as seen in the endpoint URL
    sig = hmac.new(
        key.encode(), ("PUT\n%d\n%s" % (expires, path)).encode(), hashlib.sha256
    ).hexdigest()
    put_url = "%s?temp_url_sig=%s&temp_url_expires=%d" % (object_url, sig, expires)

    resp = requests.post(
        heat + "/software_configs",
        headers=headers,
        json={
            "name": "derived",
            "group": "script",
            "config": "#!/bin/sh",
            "inputs": [
                {"name": "deploy_signal_transport", "value": "TEMP_URL_SIGNAL"},
                {"name": "deploy_signal_id", "value": put_url},
                {"name": "deploy_signal_verb", "value": "PUT"},
            ],
            "outputs": [{"name": "result"}, {"name": "failed_msg", "error_output": True}],
        },
    )
    assert resp.status_code == 200, resp.text
    config = resp.json()["software_config"]
    resp = requests.post(
        heat + "/software_deployments",
        headers=headers,
        json={
            "config_id": config["id"],
            "server_id": "functional-server",
            "action": "CREATE",
            "status": "IN_PROGRESS",
            "status_reason": "Deploy data available",
        },
    )
    assert resp.status_code == 200, resp.text
    deployment_url = heat + "/software_deployments/" + resp.json()["software_deployment"]["id"]

    assert (
        requests.put(
            put_url, data=json.dumps({"result": "ok", "deploy_status_code": 0})
        ).status_code
        == 201
    )
    deployment = requests.get(deployment_url, headers=headers).json()["software_deployment"]
    assert deployment["status"] == "COMPLETE"
    assert deployment["output_values"]["result"] == "ok"

    # A wrong signature is refused without touching the object.
    bad = put_url.replace("temp_url_sig=" + sig, "temp_url_sig=" + "0" * 64)
    resp = requests.put(bad, data=b"{}")
    assert resp.status_code == 401
    assert resp.text == "401 Unauthorized: Temp URL invalid\n"

    metadata = requests.get(
        heat + "/software_deployments/metadata/functional-server", headers=headers
    ).json()["metadata"]
    assert [m["id"] for m in metadata] == [config["id"]]
