"""Issue 9: bad input to the local Heat and Swift gets the 4xx the real
service gives, changes nothing, and is never a 500 — except the 500s heat
itself gives, listed in ``orchestration.HEAT_PARITY_500S``."""

import io
import json

import pytest
import requests

from occli.localcloud.orchestration.api.service import HEAT_PARITY_500S
from occli.localcloud.orchestration.fields import MAX_NESTING
from tests.unit.localcloud import wsgi_client
from tests.unit.localcloud.heat_swift_harness import make_temp_url
from tests.unit.localcloud.heat_swift_harness import start_env
from tests.unit.localcloud.heat_swift_harness import token


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env, stop = start_env(tmp_path_factory.mktemp("cloud"))
    yield env
    stop()


def heat(user, method, path, body=None, **kwargs):
    """A Heat call; ``body`` is sent as JSON text (``json.dumps`` escapes
    a lone surrogate as ``\\udc80``, which decodes back to one)."""
    headers = {**user.headers, "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body)
    return requests.request(method, user.heat + path, headers=headers, data=data, **kwargs)


def ok(resp):
    assert resp.status_code == 200, resp.text
    return resp.json()


def deep(levels):
    value = "bottom"
    for _ in range(levels):
        value = [value]
    return value


BAD = {
    "object": {"a": 1},
    "list": ["a"],
    "lone_surrogate": "x\udc80",
    "too_deep": deep(MAX_NESTING + 5),
}


def assert_heat_4xx(resp, status=400):
    assert resp.status_code == status, resp.text[:300]
    body = resp.json()
    assert set(body) == {"code", "title", "explanation", "error"}
    assert body["code"] == status


def configs(user):
    return ok(heat(user, "GET", "/software_configs"))["software_configs"]


def deployments(user):
    return ok(heat(user, "GET", "/software_deployments"))["software_deployments"]


@pytest.fixture(scope="module")
def config_id(env):
    return ok(heat(env.alt, "POST", "/software_configs", {"name": "base"}))["software_config"][
        "id"
    ]


# -- software configs ---------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("field", ["name", "group"])
def test_config_string_fields(env, field, kind):
    before = configs(env.alt)
    resp = heat(env.alt, "POST", "/software_configs", {"name": "n", field: BAD[kind]})
    assert_heat_4xx(resp)
    assert configs(env.alt) == before


@pytest.mark.parametrize("field", ["name", "group"])
def test_config_numbers_become_text_like_oslo_string_fields(env, field):
    config = ok(heat(env.alt, "POST", "/software_configs", {field: 10**30}))["software_config"]
    assert config[field] == str(10**30)


@pytest.mark.parametrize(
    "inputs, status",
    [
        ([{"name": "j", "type": "Json", "default": "[" * 5000}], 400),
        ([{"name": "j", "type": "Json", "default": "[" * 500 + "]" * 500}], 400),
        ([{"name": 10**30, "type": "Number", "default": 10**30}], 200),
    ],
    ids=["json-default-deeper-than-python", "json-default-deep", "huge-numbers"],
)
def test_config_io_oddities_are_not_500s(env, inputs, status):
    resp = heat(env.alt, "POST", "/software_configs", {"name": "io", "inputs": inputs})
    assert resp.status_code == status, resp.text[:300]


def test_config_list_limit_beyond_sqlite_integers(env):
    assert ok(heat(env.alt, "GET", "/software_configs", params={"limit": str(10**30)}))[
        "software_configs"
    ]


# -- software deployments ----------------------------------------------------

CREATE_FIELDS = ["config_id", "server_id", "action", "status", "stack_user_project_id"]


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("field", CREATE_FIELDS)
def test_deployment_create_string_fields(env, config_id, field, kind):
    before = deployments(env.alt)
    body = {"config_id": config_id, "server_id": "s", field: BAD[kind]}
    assert_heat_4xx(heat(env.alt, "POST", "/software_deployments", body))
    assert deployments(env.alt) == before


@pytest.mark.parametrize(
    "field, status",
    [
        ("server_id", 200),
        ("action", 200),
        ("status", 200),
        ("config_id", 400),
        ("stack_user_project_id", 403),
    ],
)
def test_deployment_numbers_become_text(env, config_id, field, status):
    body = {"config_id": config_id, "server_id": "s", field: 10**30}
    resp = heat(env.alt, "POST", "/software_deployments", body)
    if status != 200:
        assert_heat_4xx(resp, status)
        return
    assert ok(resp)["software_deployment"][field] == str(10**30)


@pytest.fixture
def deployment(env, config_id):
    """A COMPLETE deployment (a GET of it changes nothing) and its path."""
    created = ok(
        heat(
            env.alt,
            "POST",
            "/software_deployments",
            {"config_id": config_id, "server_id": "s", "action": "CREATE", "status": "COMPLETE"},
        )
    )["software_deployment"]
    return "/software_deployments/" + created["id"]


# heat stores str(status_reason) of an object or list: see the next test
UPDATE_CASES = [
    (field, kind) for field in ("config_id", "action", "status") for kind in sorted(BAD)
] + [("status_reason", "lone_surrogate"), ("status_reason", "too_deep")]


@pytest.mark.parametrize("field, kind", UPDATE_CASES)
def test_deployment_update_fields(env, deployment, field, kind):
    before = ok(heat(env.alt, "GET", deployment))
    assert_heat_4xx(heat(env.alt, "PUT", deployment, {field: BAD[kind]}))
    assert ok(heat(env.alt, "GET", deployment)) == before


def test_status_reason_is_stored_as_heat_does_with_str(env, config_id, deployment):
    created = ok(
        heat(
            env.alt,
            "POST",
            "/software_deployments",
            {"config_id": config_id, "server_id": "s", "status_reason": {"a": [1]}},
        )
    )["software_deployment"]
    assert created["status_reason"] == "{'a': [1]}"
    updated = ok(heat(env.alt, "PUT", deployment, {"status_reason": [2]}))
    assert updated["software_deployment"]["status_reason"] == "[2]"


# -- signals -----------------------------------------------------------------


def polled_deployment(env, signal_url, **deployment):
    config = ok(
        heat(
            env.alt,
            "POST",
            "/software_configs",
            {
                "name": "derived",
                "inputs": [
                    {"name": "deploy_signal_transport", "value": "TEMP_URL_SIGNAL"},
                    {"name": "deploy_signal_id", "value": signal_url},
                ],
                "outputs": [{"name": "result", "error_output": True}],
            },
        )
    )
    created = ok(
        heat(
            env.alt,
            "POST",
            "/software_deployments",
            {
                "config_id": config["software_config"]["id"],
                "server_id": "s",
                "status": "IN_PROGRESS",
                **deployment,
            },
        )
    )
    return "/software_deployments/" + created["software_deployment"]["id"]


@pytest.mark.parametrize(
    "signal",
    [
        "[" * 5000 + "]" * 5000,
        json.dumps({"result": deep(MAX_NESTING + 5)}),
        json.dumps({"deploy_status_code": deep(MAX_NESTING + 5)}),
    ],
    ids=["deeper-than-python", "deep-output", "deep-status-code"],
)
def test_a_deep_signal_is_invalid_signal_data(env, signal):
    url = make_temp_url(env, env.alt, "deep-signal", "o")
    path = polled_deployment(env, url)
    assert requests.put(url, data=signal).status_code == 201
    resp = heat(env.alt, "GET", path)
    assert_heat_4xx(resp)
    assert resp.json()["error"]["message"].startswith("Invalid signal data")
    heat(env.alt, "PUT", path, {"status": "COMPLETE"})


def test_an_unparsable_signal_url_is_no_signal(env):
    path = polled_deployment(env, "http://[::1/v1/AUTH_x/c/o")
    assert ok(heat(env.alt, "GET", path))["software_deployment"]["status"] == "IN_PROGRESS"


def test_a_signal_onto_non_object_output_values(env):
    """Heat stores any JSON as output_values; a later signal starts from an
    empty map instead of failing on a list."""
    url = make_temp_url(env, env.alt, "list-outputs", "o")
    path = polled_deployment(env, url)
    ok(heat(env.alt, "PUT", path, {"output_values": [1, 2]}))
    requests.put(url, data=json.dumps({"deploy_stdout": "x"}))
    deployment = ok(heat(env.alt, "GET", path))["software_deployment"]
    assert deployment["status"] == "COMPLETE"
    assert deployment["output_values"]["deploy_stdout"] == "x"


# -- the documented heat-parity 500s -----------------------------------------


def test_heat_parity_500s_are_exactly_the_documented_ones(env, config_id):
    """Each listed 500 is reproduced, with its ``error.type``."""
    used = ok(heat(env.alt, "POST", "/software_configs", {"name": "used"}))
    used_id = used["software_config"]["id"]
    ok(heat(env.alt, "POST", "/software_deployments", {"config_id": used_id, "server_id": "s"}))
    calls = {
        "TypeError": ("POST", "/software_configs", {"inputs": {"a": 1}}),
        "InvalidRestrictedAction": ("DELETE", "/software_configs/" + used_id, None),
        "DBError": ("POST", "/software_deployments", {"config_id": config_id}),
    }
    assert sorted(calls) == sorted(e["type"] for e in HEAT_PARITY_500S)
    for entry in HEAT_PARITY_500S:
        method, path, body = calls[entry["type"]]
        assert method == entry["method"]
        resp = heat(env.alt, method, path, body)
        assert resp.status_code == 500
        assert resp.json()["error"]["type"] == entry["type"]


# -- Swift -------------------------------------------------------------------


@pytest.fixture(scope="module")
def odd_tokens(env):
    return {
        "unscoped": token(env.url, "alt", "alt-secret", "unscoped"),
        "domain": token(env.url, "admin", "admin-secret", {"domain": {"id": "default"}}),
    }


SWIFT_CALLS = [
    ("GET", ""),
    ("HEAD", ""),
    ("POST", ""),
    ("PUT", "/c"),
    ("GET", "/c"),
    ("DELETE", "/c"),
    ("PUT", "/c/o"),
    ("GET", "/c/o"),
    ("HEAD", "/c/o"),
    ("DELETE", "/c/o"),
]


@pytest.mark.parametrize("method, path", SWIFT_CALLS)
@pytest.mark.parametrize("kind", ["unscoped", "domain"])
def test_swift_needs_a_project_scoped_token(env, odd_tokens, kind, method, path):
    """keystoneauth: a token without the account's project is a tenant
    mismatch, 403, whatever the account."""
    alt = env.alt
    requests.put(alt.swift + "/c", headers=alt.headers)
    requests.put(alt.swift + "/c/o", data=b"kept", headers=alt.headers)
    for account in (alt.swift, env.admin.swift):
        resp = requests.request(
            method,
            account + path,
            data=b"new",
            headers={"X-Auth-Token": odd_tokens[kind], "X-Account-Meta-Temp-URL-Key": "stolen"},
        )
        assert resp.status_code == 403, resp.text
    assert requests.get(alt.swift + "/c/o", headers=alt.headers).content == b"kept"
    assert (
        requests.head(alt.swift, headers=alt.headers).headers.get("X-Account-Meta-Temp-URL-Key")
        != "stolen"
    )


@pytest.mark.parametrize(
    "path",
    ["/bad%FFbox", "/box%00", "/utf8/name%FF", "/utf8/na%00me", "/utf8/x%ED%B2%80"],
    ids=["container-latin1", "container-nul", "object-latin1", "object-nul", "object-surrogate"],
)
def test_swift_names_must_be_utf8_without_nul(env, path):
    alt = env.alt
    requests.put(alt.swift + "/utf8", headers=alt.headers)
    for method in ("PUT", "GET"):
        resp = requests.request(method, alt.swift + path, data=b"x", headers=alt.headers)
        assert resp.status_code == 412, resp.text
        assert resp.text == "Invalid UTF8 or contains NULL"
    names = requests.get(alt.swift + "/utf8", headers=alt.headers).text
    assert names == ""


@pytest.mark.parametrize("sig", ["é" * 40, "é" * 64, "sha1:é", "z" * 40])
def test_swift_odd_temp_url_signatures_are_invalid(env, sig):
    url = make_temp_url(env, env.alt, "sigs", "o")
    base, _, query = url.partition("?")
    query = query.replace(query.split("&")[0], "temp_url_sig=" + sig)
    resp = requests.put(base + "?" + query, data=b"x")
    assert resp.status_code == 401
    assert resp.text == "401 Unauthorized: Temp URL invalid\n"


def test_swift_negative_content_length(env):
    """Swift answers 400; the WSGI server here would pass it on."""
    alt = env.alt
    requests.put(alt.swift + "/neg", headers=alt.headers)
    answer = wsgi_client.call(
        env.cloud,
        "PUT",
        "/object-store/v1/AUTH_%s/neg/o" % alt.project,
        token=alt.token,
        wsgi_input=io.BytesIO(b"x" * 10),
        length=-1,
    )
    assert answer.status == 400, answer.body
    assert requests.get(alt.swift + "/neg/o", headers=alt.headers).status_code == 404
