"""The local Swift's object expiry: ``X-Delete-At``/``X-Delete-After`` as
the proxy checks them (swift/common/constraints.py check_delete_headers),
an expired object 404 at once as the object server answers, gone from
listings, counts and quotas, and swept (rows and files) in bounded
batches as swift/obj/expirer.py removes them, over real HTTP."""

import os

import pytest
import requests

from occli.localcloud import errors
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore import expiry


def _row(env, container, name):
    with env.cloud.store.read() as db:
        return db.execute(
            "SELECT * FROM swift_objects WHERE container = ? AND name = ?", (container, name)
        ).fetchone()


def _put(env, container, name, **headers):
    url = "%s/%s/%s" % (env.demo.swift, container, name)
    resp = requests.put(url, data=b"soon gone", headers={**env.demo.headers, **headers})
    assert resp.status_code == 201, resp.text
    return url


def _container(env, name):
    assert requests.put(env.demo.swift + "/" + name, headers=env.demo.headers).status_code in (
        201,
        202,
    )
    return env.demo.swift + "/" + name


def test_delete_after_sets_delete_at_and_the_object_goes_at_once(env, clock):
    demo = env.demo
    box = _container(env, "exp-after")
    url = _put(env, "exp-after", "o", **{"X-Delete-After": "60"})
    when = int(clock.now.timestamp() + 60)
    head = requests.head(url, headers=demo.headers)
    assert head.headers["X-Delete-At"] == str(when)
    assert requests.get(url, headers=demo.headers).headers["X-Delete-At"] == str(when)
    clock.advance(59)
    assert requests.get(url, headers=demo.headers).status_code == 200
    clock.advance(2)
    assert requests.get(url, headers=demo.headers).status_code == 404
    assert requests.head(url, headers=demo.headers).status_code == 404
    assert requests.post(url, headers=demo.headers).status_code == 404
    listing = requests.get(box, headers=demo.headers)
    assert listing.status_code == 204 and listing.headers["X-Container-Object-Count"] == "0"
    (entry,) = [c for c in _containers(env) if c["name"] == "exp-after"]
    assert (entry["count"], entry["bytes"]) == (0, 0)
    # the row is still there until a sweep or a DELETE
    assert _row(env, "exp-after", "o") is not None


def _containers(env):
    return requests.get(env.demo.swift + "?format=json", headers=env.demo.headers).json()


def test_deleting_an_expired_object_is_404_and_removes_it(env, clock):
    _container(env, "exp-del")
    url = _put(env, "exp-del", "o", **{"X-Delete-After": "5"})
    path = env.cloud.objectstore.files.path(_row(env, "exp-del", "o")["file"])
    assert os.path.exists(path)
    clock.advance(10)
    assert requests.delete(url, headers=env.demo.headers).status_code == 404
    assert _row(env, "exp-del", "o") is None
    assert not os.path.exists(path)
    assert requests.delete(url, headers=env.demo.headers).status_code == 404


def test_a_put_over_an_expired_object_makes_a_new_one(env, clock):
    _container(env, "exp-replace")
    url = _put(env, "exp-replace", "o", **{"X-Delete-After": "5"})
    clock.advance(10)
    _put(env, "exp-replace", "o")
    resp = requests.get(url, headers=env.demo.headers)
    assert resp.status_code == 200 and "X-Delete-At" not in resp.headers


@pytest.mark.parametrize(
    "headers, text",
    [
        ({"X-Delete-At": "soon"}, "Non-integer X-Delete-At"),
        ({"X-Delete-At": "1.5"}, "Non-integer X-Delete-At"),
        ({"X-Delete-At": "1000"}, "X-Delete-At in past"),
        ({"X-Delete-At": "-1"}, "X-Delete-At in past"),
        ({"X-Delete-After": "abc"}, "Non-integer X-Delete-After"),
        ({"X-Delete-After": "0"}, "X-Delete-After in past"),
        ({"X-Delete-After": "-5"}, "X-Delete-After in past"),
        # X-Delete-After wins over a valid X-Delete-At
        ({"X-Delete-After": "x", "X-Delete-At": "9999999999"}, "Non-integer X-Delete-After"),
    ],
)
def test_bad_expiry_headers_are_refused_with_swifts_text(env, headers, text):
    demo = env.demo
    _container(env, "exp-bad")
    url = demo.swift + "/exp-bad/o-%d" % abs(hash(str(headers)))
    resp = requests.put(url, data=b"x", headers={**demo.headers, **headers})
    assert (resp.status_code, resp.text) == (400, text)
    assert resp.headers["Content-Type"].startswith("text/plain")
    assert requests.head(url, headers=demo.headers).status_code == 404
    requests.put(url, data=b"x", headers=demo.headers)
    resp = requests.post(url, headers={**demo.headers, **headers})
    assert (resp.status_code, resp.text) == (400, text)


def test_delete_at_is_kept_exact_and_capped(env, clock):
    _container(env, "exp-at")
    at = str(int(clock.now.timestamp()) + 3600)
    url = _put(env, "exp-at", "exact", **{"X-Delete-At": at})
    assert requests.head(url, headers=env.demo.headers).headers["X-Delete-At"] == at
    url = _put(env, "exp-at", "far", **{"X-Delete-At": "99999999999999"})
    assert requests.head(url, headers=env.demo.headers).headers["X-Delete-At"] == "9999999999"


def test_post_sets_changes_and_removes_delete_at(env, clock):
    demo = env.demo
    _container(env, "exp-post")
    url = _put(env, "exp-post", "o")
    assert "X-Delete-At" not in requests.head(url, headers=demo.headers).headers
    resp = requests.post(url, headers={**demo.headers, "X-Delete-After": "30"})
    assert resp.status_code == 202
    head = requests.head(url, headers=demo.headers).headers
    assert head["X-Delete-At"] == str(int(clock.now.timestamp() + 30))
    # the object server's POST replaces it: none sent, none kept
    assert requests.post(url, headers=demo.headers).status_code == 202
    assert "X-Delete-At" not in requests.head(url, headers=demo.headers).headers
    clock.advance(60)
    assert requests.get(url, headers=demo.headers).status_code == 200


def test_a_copy_keeps_the_sources_delete_at_unless_told(env, clock):
    demo = env.demo
    _container(env, "exp-copy")
    at = str(int(clock.now.timestamp()) + 600)
    src = _put(env, "exp-copy", "src", **{"X-Delete-At": at})
    for dest, extra, expected in (
        ("kept", {}, at),
        ("fresh", {"X-Fresh-Metadata": "true"}, None),
        ("own", {"X-Delete-After": "100"}, str(int(clock.now.timestamp() + 100))),
    ):
        headers = {**demo.headers, "Destination": "exp-copy/" + dest, **extra}
        assert requests.request("COPY", src, headers=headers).status_code == 201
        head = requests.head(env.demo.swift + "/exp-copy/" + dest, headers=demo.headers)
        assert head.headers.get("X-Delete-At") == expected
    clock.advance(700)
    headers = {**demo.headers, "Destination": "exp-copy/late"}
    assert requests.request("COPY", src, headers=headers).status_code == 404


def test_a_container_of_expired_objects_only_can_be_deleted(env, clock):
    demo = env.demo
    box = _container(env, "exp-box")
    for i in range(3):
        _put(env, "exp-box", "o%d" % i, **{"X-Delete-After": "5"})
    store = env.cloud.objectstore.files
    files = [store.path(_row(env, "exp-box", "o%d" % i)["file"]) for i in range(3)]
    assert requests.delete(box, headers=demo.headers).status_code == 409
    clock.advance(10)
    assert requests.delete(box, headers=demo.headers).status_code == 204
    assert requests.head(box, headers=demo.headers).status_code == 404
    assert not any(os.path.exists(f) for f in files)
    assert _row(env, "exp-box", "o0") is None


def test_expired_objects_count_towards_no_quota(env, clock):
    _container(env, "exp-quota")
    for i in range(2):
        _put(env, "exp-quota", "o%d" % i, **{"X-Delete-After": "5"})
    clock.advance(10)
    live = sum(c["count"] for c in _containers(env))
    account = "AUTH_" + env.demo.project
    with env.cloud.store.read() as db:
        accounts.check_quota(db, account, 0, -1, live + 1)  # room for one more
        with pytest.raises(errors.TooLarge):
            accounts.check_quota(db, account, 0, -1, live)


def test_a_write_sweeps_a_bounded_batch_of_expired_objects(env, clock):
    demo = env.demo
    _container(env, "exp-sweep")
    _put(env, "exp-sweep", "a", **{"X-Delete-After": "5"})
    _put(env, "exp-sweep", "b", **{"X-Delete-After": "6"})
    clock.advance(10)
    assert _row(env, "exp-sweep", "a") is not None
    _put(env, "exp-sweep", "trigger")
    assert _row(env, "exp-sweep", "a") is None and _row(env, "exp-sweep", "b") is None
    assert requests.get(demo.swift + "/exp-sweep", headers=demo.headers).text == "trigger\n"


def test_sweep_takes_at_most_its_limit_soonest_first(env, clock):
    _container(env, "exp-batch")
    for i, after in enumerate((30, 10, 20)):
        _put(env, "exp-batch", "o%d" % i, **{"X-Delete-After": str(after)})
    clock.advance(40)
    account = "AUTH_" + env.demo.project
    with env.cloud.store.transaction() as db:
        swept = expiry.sweep(db, expiry.now(), account, "exp-batch", limit=2)
    assert len(swept) == 2
    assert [_row(env, "exp-batch", "o%d" % i) is None for i in range(3)] == [False, True, True]


def test_delete_at_rules_without_http():
    assert expiry.delete_at(None, None, 100.0) is None
    assert expiry.delete_at("101", None, 100.0) == 101
    assert expiry.delete_at("100", "1", 100.5) == 101
    with pytest.raises(errors.BadRequest):
        expiry.delete_at("100", None, 100.0)
