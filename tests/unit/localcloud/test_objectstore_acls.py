"""The local Swift's container ACLs as keystoneauth enforces them
(swift/common/middleware/keystoneauth.py, acl.py): ``X-Container-Read``
and ``-Write`` grant other projects' users, referrers (anonymous callers
too) and named roles what Swift grants them, and nothing else of the
account, over real HTTP."""

import pytest
import requests

from occli.localcloud import errors
from occli.localcloud.identity import assignments
from occli.localcloud.identity import users
from occli.localcloud.objectstore import acls
from tests.unit.localcloud.heat_swift_harness import token

NO_HOST = "No host/domain value after referrer designation in ACL: "


def _user_id(env, tok):
    resp = requests.get(
        env.url + "/v3/auth/tokens", headers={"X-Auth-Token": tok, "X-Subject-Token": tok}
    )
    return resp.json()["token"]["user"]["id"]


def _container(env, name, **acl_headers):
    """demo's container ``name`` holding object ``o`` (b"shared"), with
    the ACL headers given."""
    demo = env.demo
    url = demo.swift + "/" + name
    resp = requests.put(url, headers={**demo.headers, **acl_headers})
    assert resp.status_code == 201, resp.text
    assert requests.put(url + "/o", data=b"shared", headers=demo.headers).status_code == 201
    return url


def _names(env, url):
    return requests.get(url, headers=env.demo.headers).text.split()


def test_another_project_gets_nothing_without_an_acl(env):
    url = _container(env, "acl-none")
    alt = env.alt.headers
    assert requests.get(url, headers=alt).status_code == 403
    assert requests.get(url + "/o", headers=alt).status_code == 403
    assert requests.put(url + "/new", data=b"x", headers=alt).status_code == 403
    assert requests.delete(url + "/o", headers=alt).status_code == 403
    assert _names(env, url) == ["o"]
    # a missing container grants nothing either: 403, not 404
    assert requests.get(env.demo.swift + "/acl-missing", headers=alt).status_code == 403
    # no token at all: 401
    assert requests.get(url + "/o").status_code == 401


def test_read_acl_for_a_project_lets_its_users_read_and_list(env):
    alt = env.alt
    url = _container(env, "acl-read", **{"X-Container-Read": "%s:*" % alt.project})
    resp = requests.get(url + "/o", headers=alt.headers)
    assert (resp.status_code, resp.content) == (200, b"shared")
    listing = requests.get(url, headers=alt.headers)
    assert (listing.status_code, listing.text) == (200, "o\n")
    # the ACLs are the owner's headers: a grantee never sees them
    assert "X-Container-Read" not in listing.headers
    assert "X-Container-Read" in requests.head(url, headers=env.demo.headers).headers


def test_read_acl_grants_no_writes_and_nothing_else_of_the_account(env):
    alt = env.alt.headers
    url = _container(env, "acl-read-only", **{"X-Container-Read": "%s:*" % env.alt.project})
    assert requests.put(url + "/new", data=b"x", headers=alt).status_code == 403
    assert requests.post(url + "/o", headers=alt).status_code == 403
    assert requests.delete(url + "/o", headers=alt).status_code == 403
    assert requests.post(url, headers={**alt, "X-Container-Read": "*:*"}).status_code == 403
    assert requests.put(url, headers=alt).status_code == 403
    assert requests.delete(url, headers=alt).status_code == 403
    assert requests.get(env.demo.swift, headers=alt).status_code == 403
    assert requests.post(env.demo.swift, headers=alt).status_code == 403
    assert _names(env, url) == ["o"]
    assert requests.head(url, headers=env.demo.headers).headers["X-Container-Read"] == (
        "%s:*" % env.alt.project
    )


@pytest.mark.parametrize(
    "grant, allowed",
    [
        ("{project}:{user}", True),
        ("*:{user}", True),
        ("alt:alt", True),  # names, both in the default domain
        ("*:*", True),
        ("{project}:someone-else", False),
        ("other-project:*", False),
        ("{project}", False),  # a bare item names a role of demo's project
    ],
)
def test_read_acl_items_match_as_keystoneauth(env, grant, allowed):
    alt = env.alt
    acl = grant.format(project=alt.project, user=_user_id(env, alt.token))
    name = "acl-item-%d" % abs(hash(grant))
    url = _container(env, name, **{"X-Container-Read": acl})
    assert requests.get(url + "/o", headers=alt.headers).status_code == (200 if allowed else 403)


def test_write_acl_lets_another_project_put_post_copy_and_delete_objects(env):
    alt = env.alt
    url = _container(env, "acl-write", **{"X-Container-Write": "%s:*" % alt.project})
    resp = requests.put(url + "/by-alt", data=b"from alt", headers=alt.headers)
    assert resp.status_code == 201
    resp = requests.post(url + "/by-alt", headers={**alt.headers, "X-Object-Meta-Who": "alt"})
    assert resp.status_code == 202
    head = requests.head(url + "/by-alt", headers=env.demo.headers).headers
    assert head["X-Object-Meta-Who"] == "alt"
    # no read ACL: alt writes but cannot read
    assert requests.get(url + "/by-alt", headers=alt.headers).status_code == 403
    assert requests.get(url, headers=alt.headers).status_code == 403
    # the container's metadata stays the owner's
    resp = requests.post(url, headers={**alt.headers, "X-Container-Meta-X": "1"})
    assert resp.status_code == 403
    assert requests.delete(url + "/by-alt", headers=alt.headers).status_code == 204
    assert _names(env, url) == ["o"]


def test_a_copy_needs_read_on_the_source_and_write_on_the_target(env):
    alt = env.alt
    grant = "%s:*" % alt.project
    source = _container(env, "acl-copy-src", **{"X-Container-Read": grant})
    target = _container(env, "acl-copy-dst", **{"X-Container-Write": grant})
    closed = _container(env, "acl-copy-closed")
    copy = {**alt.headers, "Destination": "acl-copy-dst/copied"}
    assert requests.request("COPY", source + "/o", headers=copy).status_code == 201
    assert _names(env, target) == ["copied", "o"]
    resp = requests.put(
        target + "/pulled", headers={**alt.headers, "X-Copy-From": "acl-copy-closed/o"}
    )
    assert resp.status_code == 403  # no read ACL on the source
    copy = {**alt.headers, "Destination": "acl-copy-closed/copied"}
    assert requests.request("COPY", source + "/o", headers=copy).status_code == 403
    assert _names(env, closed) == ["o"]


def test_referrer_acls_grant_objects_and_listings_only_with_rlistings(env):
    alt = env.alt
    url = _container(env, "acl-public", **{"X-Container-Read": ".r:*"})
    resp = requests.get(url + "/o")
    assert (resp.status_code, resp.content) == (200, b"shared")
    assert requests.get(url + "/o", headers=alt.headers).status_code == 200
    assert requests.get(url).status_code == 401
    assert requests.get(url, headers=alt.headers).status_code == 403
    assert requests.put(url + "/anon", data=b"x").status_code == 401
    assert requests.delete(url + "/o").status_code == 401

    listed = _container(env, "acl-listed", **{"X-Container-Read": ".r:*,.rlistings"})
    resp = requests.get(listed)
    assert (resp.status_code, resp.text) == (200, "o\n")
    assert "X-Container-Read" not in resp.headers
    # keystoneauth grants a listing by referrer before it looks for an
    # operator role, so even the owner's listing is not swift_owner's
    resp = requests.head(listed, headers=env.demo.headers)
    assert resp.status_code == 204 and "X-Container-Read" not in resp.headers


def test_referrer_hosts_are_allowed_and_denied_in_order(env):
    acl = ".r:.example.com,.r:-bad.example.com"
    url = _container(env, "acl-referer", **{"X-Container-Read": acl}) + "/o"
    for referer, status in (
        ("http://www.example.com/page", 200),
        ("http://bad.example.com/", 401),
        ("http://example.org/", 401),
    ):
        assert requests.get(url, headers={"Referer": referer}).status_code == status
    assert requests.get(url).status_code == 401


def test_a_role_named_in_the_acl_lets_that_role_of_the_project_write(env):
    cloud, demo = env.cloud, env.demo
    with cloud.store.transaction() as db:
        user = users.ensure_user(db, "acl-reader", "acl-reader-secret", demo.project)
        role = assignments.ensure_role(db, "reader")
        assignments.assign(db, user, "project", demo.project, role)
    tok = token(env.url, "acl-reader", "acl-reader-secret", {"project": {"id": demo.project}})
    reader = {"X-Auth-Token": tok}
    closed = _container(env, "acl-role-closed")
    assert requests.put(closed + "/r", data=b"x", headers=reader).status_code == 403
    url = _container(env, "acl-role", **{"X-Container-Write": "reader"})
    assert requests.put(url + "/r", data=b"x", headers=reader).status_code == 201
    # a role names no other project's users
    assert requests.put(url + "/a", data=b"x", headers=env.alt.headers).status_code == 403
    assert _names(env, url) == ["o", "r"]


@pytest.mark.parametrize(
    "header, value, text",
    [
        ("X-Container-Write", ".r:*", "Referrers not allowed in write ACL: '.r:*'"),
        ("X-Container-Read", ".r:", NO_HOST + "'.r:'"),
        ("X-Container-Read", ".r:-", NO_HOST + "'.r:-'"),
        ("X-Container-Read", ".x:y", "Unknown designator '.x' in ACL: '.x:y'"),
    ],
)
def test_a_malformed_acl_is_refused_with_swifts_text(env, header, value, text):
    demo = env.demo
    url = demo.swift + "/acl-bad-%d" % abs(hash(value + header))
    resp = requests.put(url, headers={**demo.headers, header: value})
    assert (resp.status_code, resp.text) == (400, text)
    assert requests.head(url, headers=demo.headers).status_code == 404
    requests.put(url, headers=demo.headers)
    resp = requests.post(url, headers={**demo.headers, header: value})
    assert (resp.status_code, resp.text) == (400, text)
    assert header not in requests.head(url, headers=demo.headers).headers


def test_an_acl_is_stored_cleaned(env):
    demo = env.demo
    url = demo.swift + "/acl-messy"
    messy = ".referrer : *, , .ref:*.example.com , %s:*,,member" % env.alt.project
    resp = requests.put(url, headers={**demo.headers, "X-Container-Read": messy})
    assert resp.status_code == 201
    stored = requests.head(url, headers=demo.headers).headers["X-Container-Read"]
    assert stored == ".r:*,.r:.example.com,%s:*,member" % env.alt.project


def test_acl_rules_without_http():
    assert acls.clean("read", "bob, sue,,") == "bob,sue"
    with pytest.raises(errors.BadRequest):
        acls.clean("write", ".referer:example.com")
    assert acls.parse(".r:*,.rlistings,p:u") == (["*"], [".rlistings", "p:u"])
    assert acls.referrer_allowed(None, ["*"]) is True
    assert acls.referrer_allowed("http://a.b/", ["*", "-a.b"]) is False
    assert acls.referrer_allowed("http://a.b/", []) is False
    assert acls.by_referrer(".r:*", None, on_object=False) is False
    assert acls.by_referrer("p:u", None, on_object=True) is None
    assert acls.cross_project("p:u", ("p", "P"), ("u", "U"), names=False) is True
    assert acls.cross_project("P:U", ("p", "P"), ("u", "U"), names=False) is False
    assert acls.cross_project("P:U", ("p", "P"), ("u", "U"), names=True) is True
    assert acls.by_role("Member", ["member"]) is True
