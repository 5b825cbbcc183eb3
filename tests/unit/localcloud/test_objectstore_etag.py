"""The local Swift's answer to an upload whose ``Etag`` is not its MD5:
swob's 422 page, exactly (swift/common/swob.py RESPONSE_REASONS; the
proxy's and object server's ``HTTPUnprocessableEntity(request=req)``),
and nothing stored, over real HTTP."""

import hashlib

import requests

UNPROCESSABLE = (
    "<html><h1>Unprocessable Entity</h1><p>Unable to process the contained instructions</p></html>"
)


def test_an_etag_mismatch_is_swobs_422_page_and_stores_nothing(env):
    demo = env.demo
    assert requests.put(demo.swift + "/etag-box", headers=demo.headers).status_code == 201
    url = demo.swift + "/etag-box/o"
    resp = requests.put(url, data=b"body", headers={**demo.headers, "Etag": "0" * 32})
    assert (resp.status_code, resp.text) == (422, UNPROCESSABLE)
    assert resp.headers["Content-Type"].startswith("text/html")
    assert requests.head(url, headers=demo.headers).status_code == 404
    # quoted and upper-case, the right MD5 is accepted
    good = '"%s"' % hashlib.md5(b"body").hexdigest().upper()
    resp = requests.put(url, data=b"body", headers={**demo.headers, "Etag": good})
    assert resp.status_code == 201
