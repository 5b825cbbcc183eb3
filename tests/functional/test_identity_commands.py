"""``token issue`` and ``configuration show`` against a fresh local cloud
(occli.testing's ``local_cloud``), counting requests in its access log."""

import json

import requests


def test_token_issue_gives_a_working_token_from_the_cache(local_cloud, run_occli):
    code, out, err = run_occli("token", "issue", "-f", "json")
    assert code == 0, err
    token = json.loads(out)
    check = requests.get(
        local_cloud.url + "/compute/v2.1/flavors", headers={"X-Auth-Token": token["id"]}
    )
    assert check.status_code == 200
    mark = local_cloud.mark()
    code, out, _ = run_occli("token", "issue", "-f", "json")
    assert json.loads(out)["id"] == token["id"]
    # the cached token, checked with Keystone (one HEAD), not a new one
    checks = [r.method for r in local_cloud.requests(since=mark) if r.path == "/v3/auth/tokens"]
    assert checks == ["HEAD"]


def test_configuration_show_masks_secrets_and_makes_no_request(local_cloud, run_occli):
    mark = local_cloud.mark()
    code, out, err = run_occli(
        "--os-compute-api-version", "2.56", "configuration", "show", "-f", "json"
    )
    assert code == 0, err
    shown = json.loads(out)
    assert shown["cloud"] == "local"
    assert shown["auth.username"] == "demo"
    assert shown["auth.password"] == "***"
    assert shown["compute_api_version"] == "2.56"
    assert shown["source_files"] == [local_cloud.clouds_yaml]
    assert "demo-secret" not in out
    assert local_cloud.requests(since=mark) == []
