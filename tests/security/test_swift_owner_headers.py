"""Swift's owner headers (issue 19, finding 1): a project reader got the
account's ``X-Account-Meta-Temp-Url-Key`` from GET/HEAD and signed temp URLs
that PUT or DELETE any object of the project with it. Swift's proxy shows
its ``swift_owner_headers`` (temp-URL keys, ACLs, sync keys) on account and
container answers only to the account's owner (keystoneauth's operator
roles, or the reseller admin).

Every credential kind of authz_credentials.KINDS, plus an application
credential restricted to the reader role, calls GET and HEAD on an account
and on a container whose metadata holds temp-URL keys.
"""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from tests.security import authz_credentials as creds
from tests.security.authz_credentials import KINDS

# the proxy's default swift_owner_headers (swift/proxy/server.py)
OWNER_HEADERS = {
    "x-container-read",
    "x-container-write",
    "x-container-sync-key",
    "x-container-sync-to",
    "x-account-meta-temp-url-key",
    "x-account-meta-temp-url-key-2",
    "x-container-meta-temp-url-key",
    "x-container-meta-temp-url-key-2",
    "x-account-access-control",
}
CONTAINER = "owner-headers"
OBJECT = "signal"
# the kinds whose token holds an operator role on the account they call
OWNERS = ("a_member", "ac_unrestricted", "ac_restricted", "b_own_url", "admin_own_url")
READERS = ("a_reader", "ac_reader")
ALL_KINDS = (*KINDS, "ac_reader")


def _keys(project):
    return {
        "account": "acct-key-%s" % project,
        "account2": "acct-key2-%s" % project,
        "container": "cont-key-%s" % project,
        "container2": "cont-key2-%s" % project,
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path_factory.mktemp("swift-owner"))),
        services=[IdentityService, ObjectStoreService],
    )
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    tokens = creds.make_tokens(client)
    with cloud.store.read() as db:
        projects = {
            "A": cloud.identity.project_id(db, creds.PROJECT_A),
            "B": cloud.identity.project_id(db, creds.PROJECT_B),
            "admin": cloud.identity.project_id(db, creds.PROJECT_ADMIN),
            "demo_id": cloud.identity.user_id(db, "demo"),
        }
    # an application credential of A's member restricted to the reader role
    cred = client.call(
        "POST",
        "/v3/users/%s/application_credentials" % projects["demo_id"],
        token=tokens["a_member"],
        expect=(201,),
        json_body={
            "application_credential": {"name": "swift-reader", "roles": [{"name": "reader"}]}
        },
    ).json()["application_credential"]
    assert [r["name"] for r in cred["roles"]] == ["reader"]
    tokens["ac_reader"] = client.app_cred_token(cred["id"], cred["secret"])
    # each account's owner sets two temp-URL keys and makes a container and
    # an object; this Swift has no container POST, so the container's keys
    # and ACLs are written into its metadata row
    for project, owner in (("A", "a_member"), ("B", "b_member"), ("admin", "admin")):
        account = "/object-store/v1/AUTH_" + projects[project]
        keys = _keys(project)
        client.call(
            "POST",
            account,
            token=tokens[owner],
            headers={
                "X-Account-Meta-Temp-URL-Key": keys["account"],
                "X-Account-Meta-Temp-URL-Key-2": keys["account2"],
            },
        )
        client.call("PUT", "%s/%s" % (account, CONTAINER), token=tokens[owner])
        client.call(
            "PUT", "%s/%s/%s" % (account, CONTAINER, OBJECT), token=tokens[owner], body=b"{}"
        )
        with cloud.store.transaction() as db:
            db.execute(
                "UPDATE swift_containers SET metadata = ? WHERE account = ? AND name = ?",
                (
                    '{"temp-url-key": "%s", "temp-url-key-2": "%s", "color": "blue"}'
                    % (keys["container"], keys["container2"]),
                    "AUTH_" + projects[project],
                    CONTAINER,
                ),
            )
    temp_url = creds.temp_url_query(
        _keys("A")["account"],
        "GET",
        "/v1/AUTH_%s/%s/%s" % (projects["A"], CONTAINER, OBJECT),
        creds.expires_in(3600),
    )
    yield {
        "cloud": cloud,
        "client": client,
        "tokens": tokens,
        "projects": projects,
        "temp": temp_url,
    }
    cloud.close()


def _call(world, kind, method, path_tail):
    """``method`` on A's account (or the caller's own for the *_own_url
    kinds) followed by ``path_tail``, as ``kind``."""
    k = KINDS.get(kind)
    project = world["projects"][k.url_project if k else "A"]
    path = "/object-store/v1/AUTH_%s%s" % (project, path_tail)
    if k is not None and k.temp_url:
        return world["client"].request(method, path, query=world["temp"])
    token = world["tokens"][kind] if (k is None or k.sends_token) else None
    return world["client"].request(method, path, token=token)


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("where", ["account", "container"])
@pytest.mark.parametrize("kind", ALL_KINDS)
def test_owner_headers_only_for_the_accounts_owner(world, kind, where, method):
    result = _call(world, kind, method, "" if where == "account" else "/" + CONTAINER)
    shown = OWNER_HEADERS & set(result.headers)
    k = KINDS.get(kind)
    project = k.url_project if k else "A"
    keys = _keys(project).values()
    if kind in OWNERS:
        assert result.status in (200, 204), result.body
        expected = (
            {"x-account-meta-temp-url-key", "x-account-meta-temp-url-key-2"}
            if where == "account"
            else {"x-container-meta-temp-url-key", "x-container-meta-temp-url-key-2"}
        )
        assert shown == expected
        if where == "container":
            assert result.header("X-Container-Meta-Color") == "blue"
        return
    assert shown == set(), (kind, result.headers)
    assert not any(key in result.text() for key in keys), result.text()
    if kind in READERS:
        # a reader still reads the account or container, and its metadata
        assert result.status in (200, 204), result.body
        if where == "container":
            assert result.header("X-Container-Meta-Color") == "blue"
    else:
        assert result.status in (401, 403), (kind, result.status)


@pytest.mark.parametrize("kind", READERS)
def test_a_reader_cannot_set_owner_headers(world, kind):
    result = world["client"].request(
        "POST",
        "/object-store/v1/AUTH_" + world["projects"]["A"],
        token=world["tokens"][kind],
        headers={"X-Account-Meta-Temp-URL-Key": "reader-chosen", "X-Container-Read": ".r:*"},
    )
    assert result.status == 403
    owner = _call(world, "a_member", "HEAD", "")
    assert owner.header("X-Account-Meta-Temp-Url-Key") == _keys("A")["account"]


@pytest.mark.parametrize("kind", READERS)
@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_a_reader_cannot_write_an_object_with_or_without_a_temp_url(world, kind, method):
    """Its token is refused, and a temp URL signed with any key it could
    have seen (none: the answers above carry no key) is invalid."""
    project = world["projects"]["A"]
    path = "/object-store/v1/AUTH_%s/%s/%s" % (project, CONTAINER, OBJECT)
    client, token = world["client"], world["tokens"][kind]
    assert client.request(method, path, token=token, body=b"{}").status == 403
    seen = set()
    for tail in ("", "/" + CONTAINER):
        for read in ("GET", "HEAD"):
            headers = _call(world, kind, read, tail).headers
            seen.update(v for h, v in headers.items() if "temp-url-key" in h)
    assert seen == set()
    for guess in ("", "secret", project):
        query = creds.temp_url_query(
            guess, method, "/v1/AUTH_%s/%s/%s" % (project, CONTAINER, OBJECT), creds.expires_in(60)
        )
        assert client.request(method, path, body=b"forged", query=query).status == 401
    with world["cloud"].store.read() as db:
        obj = world["cloud"].objectstore.read_object(db, "AUTH_" + project, CONTAINER, OBJECT)
    assert obj is not None and bytes(obj["body"]) == b"{}"
