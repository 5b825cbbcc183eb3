"""Swift's ``/info`` lists exactly what the local Swift serves (issue 23):
each capability it lists (each section of the document) is exercised as
its middleware's clients use it, and a section with no check here fails,
so a new capability cannot be listed without being shown to work."""

import hashlib
import json
import time

import pytest
import requests

from occli.localcloud.objectstore.tempurl import temp_url_signature

TIMEOUT = 10


def _info(env):
    answer = requests.get(env.url + "/object-store/info", timeout=TIMEOUT)
    assert answer.status_code == 200
    return answer.json()


def _swift(env, section, user):
    """Core Swift: every listed API version answers the account."""
    for version in section["valid_api_versions"]:
        url = "%s/object-store/%s/AUTH_%s" % (env.url, version, user.project)
        answer = requests.get(url, headers=user.headers, timeout=TIMEOUT)
        assert answer.status_code in (200, 204), (version, answer.status_code)
    (default,) = [p for p in section["policies"] if p.get("default")]
    requests.put(user.swift + "/disc-policy", headers=user.headers, timeout=TIMEOUT)
    head = requests.head(user.swift + "/disc-policy", headers=user.headers, timeout=TIMEOUT)
    assert head.headers["X-Storage-Policy"] == default["name"]


def _tempurl(env, section, user):
    """Each listed method and digest signs a temp URL that works alone."""
    key = "disc-key"
    requests.post(
        user.swift, headers={**user.headers, "X-Account-Meta-Temp-URL-Key": key}, timeout=TIMEOUT
    )
    requests.put(user.swift + "/disc-temp", headers=user.headers, timeout=TIMEOUT)
    requests.put(user.swift + "/disc-temp/obj", headers=user.headers, data=b"x", timeout=TIMEOUT)
    path = "/v1/AUTH_%s/disc-temp/obj" % user.project
    expires = int(time.time()) + 600
    expected = {"PUT": 201, "GET": 200, "HEAD": 200, "POST": 202, "DELETE": 204}
    for method in section["methods"]:
        sig = temp_url_signature(key, method, expires, path, "sha256")
        url = "%s/object-store%s?temp_url_sig=%s&temp_url_expires=%d" % (
            env.url,
            path,
            sig,
            expires,
        )
        answer = requests.request(
            method, url, data=b"x" if method == "PUT" else None, timeout=TIMEOUT
        )
        assert answer.status_code == expected[method], (method, answer.status_code)
        if method == "DELETE":
            requests.put(
                user.swift + "/disc-temp/obj", headers=user.headers, data=b"x", timeout=TIMEOUT
            )
    for digest in section["allowed_digests"]:
        sig = temp_url_signature(key, "GET", expires, path, digest)
        url = "%s/object-store%s?temp_url_sig=%s&temp_url_expires=%d" % (
            env.url,
            path,
            sig,
            expires,
        )
        assert requests.get(url, timeout=TIMEOUT).status_code == 200, digest


def _slo(env, section, user):
    """A static large object of two segments reads as their concatenation."""
    base = user.swift + "/disc-slo"
    requests.put(base, headers=user.headers, timeout=TIMEOUT)
    manifest = []
    for name, data in (("seg1", b"hello "), ("seg2", b"world")):
        requests.put(base + "/" + name, headers=user.headers, data=data, timeout=TIMEOUT)
        manifest.append(
            {
                "path": "/disc-slo/" + name,
                "etag": hashlib.md5(data).hexdigest(),
                "size_bytes": len(data),
            }
        )
    assert len(manifest) <= section["max_manifest_segments"]
    answer = requests.put(
        base + "/big?multipart-manifest=put",
        headers=user.headers,
        data=json.dumps(manifest),
        timeout=TIMEOUT,
    )
    assert answer.status_code == 201, answer.text
    assert (
        requests.get(base + "/big", headers=user.headers, timeout=TIMEOUT).content
        == b"hello world"
    )


def _account_quotas(env, section, user):
    """The reseller admin's quota on its account (the admin role on it:
    itself bound by none) refuses a larger upload of another project's
    user its container's write ACL lets in."""
    assert section == {}
    admin = env.admin
    answer = requests.post(
        admin.swift, headers={**admin.headers, "X-Account-Meta-Quota-Bytes": "4"}, timeout=TIMEOUT
    )
    assert answer.status_code == 204, answer.text
    try:
        acl = {"X-Container-Write": "%s:*" % user.project}
        requests.put(
            admin.swift + "/disc-quota", headers={**admin.headers, **acl}, timeout=TIMEOUT
        )
        answer = requests.put(
            admin.swift + "/disc-quota/o", headers=user.headers, data=b"12345", timeout=TIMEOUT
        )
        assert answer.status_code == 413, answer.status_code
        assert answer.text == "Upload exceeds quota."
        answer = requests.put(
            admin.swift + "/disc-quota/o", headers=user.headers, data=b"1234", timeout=TIMEOUT
        )
        assert answer.status_code == 201, answer.status_code
    finally:
        requests.post(
            admin.swift,
            headers={**admin.headers, "X-Remove-Account-Meta-Quota-Bytes": "x"},
            timeout=TIMEOUT,
        )


CHECKS = {
    "swift": _swift,
    "tempurl": _tempurl,
    "slo": _slo,
    "account_quotas": _account_quotas,
}


def test_every_listed_capability_is_checked(env):
    assert set(_info(env)) <= set(CHECKS), "listed but not checked: %s" % (
        set(_info(env)) - set(CHECKS)
    )


@pytest.mark.parametrize("capability", sorted(CHECKS))
def test_each_listed_capability_works(env, capability):
    info = _info(env)
    if capability not in info:
        pytest.skip("%s is not listed" % capability)
    CHECKS[capability](env, info[capability], env.alt)


def test_unlisted_bulk_delete_deletes_nothing(env):
    """``bulk_delete`` is not listed: a bulk-delete request does not delete."""
    assert "bulk_delete" not in _info(env)
    user = env.demo
    requests.put(user.swift + "/disc-bulk", headers=user.headers, timeout=TIMEOUT)
    requests.put(user.swift + "/disc-bulk/o", headers=user.headers, data=b"x", timeout=TIMEOUT)
    requests.post(
        user.swift + "?bulk-delete",
        headers={**user.headers, "Content-Type": "text/plain"},
        data="/disc-bulk/o\n",
        timeout=TIMEOUT,
    )
    assert (
        requests.head(
            user.swift + "/disc-bulk/o", headers=user.headers, timeout=TIMEOUT
        ).status_code
        == 200
    )
