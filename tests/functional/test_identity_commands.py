"""``token issue`` and ``configuration show`` against the local cloud."""

import json

import requests


def test_token_issue_gives_a_working_token_from_the_cache(occli_env,
                                                          run_occli):
    code, out, err = run_occli("token", "issue", "-f", "json")
    assert code == 0, err
    token = json.loads(out)
    check = requests.get(occli_env.url + "/compute/v2.1/flavors",
                         headers={"X-Auth-Token": token["id"]})
    assert check.status_code == 200
    with open(occli_env.cloud.access_log_path) as f:
        mark = len(f.readlines())
    code, out, _ = run_occli("token", "issue", "-f", "json")
    assert json.loads(out)["id"] == token["id"]
    with open(occli_env.cloud.access_log_path) as f:
        assert not [line for line in f.readlines()[mark:]
                    if "/v3/auth/tokens" in line]


def test_configuration_show_masks_secrets_and_makes_no_request(occli_env,
                                                               run_occli):
    with open(occli_env.cloud.access_log_path) as f:
        mark = len(f.readlines())
    code, out, err = run_occli("--os-compute-api-version", "2.56",
                               "configuration", "show", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["cloud"] == "local"
    assert shown["auth.username"] == "demo"
    assert shown["auth.password"] == "***"
    assert shown["compute_api_version"] == "2.56"
    assert shown["source_files"] == [occli_env.clouds_yaml]
    assert "demo-secret" not in out
    with open(occli_env.cloud.access_log_path) as f:
        assert f.readlines()[mark:] == []
