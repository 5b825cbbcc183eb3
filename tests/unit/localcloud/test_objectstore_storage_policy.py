"""A container's storage policy, as Swift's proxy names it: the one
policy /info lists, in X-Storage-Policy of every container HEAD and GET
(``swift/proxy/controllers/container.py`` convert_policy), which OSC's
``container show`` shows."""

import requests


def test_containers_name_their_policy(env):
    demo = env.demo
    url = demo.swift + "/policy-shown"
    assert requests.put(url, headers=demo.headers).status_code == 201
    (policy,) = requests.get(env.url + "/info").json()["swift"]["policies"]
    for method in (requests.head, requests.get):
        resp = method(url, headers=demo.headers)
        assert resp.headers["X-Storage-Policy"] == policy["name"] == "Policy-0"
    requests.delete(url, headers=demo.headers)
