"""A cached token of a user deleted and recreated under the same name (a new
user id): ``token issue`` and the commands whose URLs name the token's user
must not answer for the deleted user (requests-mock)."""

import copy

import pytest

from tests.unit import fakes

TOKENS = fakes.AUTH_URL + "/auth/tokens"
OLD_USER = fakes.token_body()["token"]["user"]["id"]
NEW_USER = "0c5a1f0e9d4b4b0c8f1e2d3c4b5a6978"
NEW_TOKEN = "gAAAAABnewtokenvalue9876543210"


def recreated(mock):
    """Keystone after the user was recreated: new tokens name NEW_USER, the
    cached TOKEN (of the deleted user) is refused with 401 (404 as subject)."""
    body = copy.deepcopy(fakes.token_body())
    body["token"]["user"]["id"] = NEW_USER
    mock.post(TOKENS, status_code=201, json=body, headers={"X-Subject-Token": NEW_TOKEN})

    def validate(request, context):
        if request.headers.get("X-Auth-Token") != NEW_TOKEN:
            context.status_code = 401
            return {
                "error": {
                    "code": 401,
                    "message": "The request you have made requires authentication.",
                    "title": "Unauthorized",
                }
            }
        if request.headers.get("X-Subject-Token") != NEW_TOKEN:
            context.status_code = 404
            return {
                "error": {"code": 404, "message": "Could not find token.", "title": "Not Found"}
            }
        context.headers["X-Subject-Token"] = NEW_TOKEN
        return body

    mock.get(TOKENS, json=validate)
    mock.head(TOKENS, json=validate)


@pytest.fixture
def warm(cli, mock_cloud):
    """The cache holds TOKEN of OLD_USER; then the user is recreated."""
    code, out, err = cli("token", "issue", "-f", "value", "-c", "user_id")
    assert (code, out.strip()) == (0, OLD_USER), err
    recreated(mock_cloud.mock)
    return mock_cloud.mock


def test_token_issue_does_not_hand_out_the_deleted_users_token(cli, warm):
    code, out, err = cli("token", "issue", "-f", "json")
    assert code == 0, err
    assert '"user_id": "%s"' % NEW_USER in out
    assert NEW_TOKEN in out and fakes.TOKEN not in out
    # the new token is cached: the next one is checked once, not re-issued
    warm.reset_mock()
    code, out, err = cli("token", "issue", "-f", "value", "-c", "user_id")
    assert (code, out.strip()) == (0, NEW_USER), err
    assert [r.method for r in warm.request_history if "/auth/tokens" in r.url] == ["HEAD"]


def test_a_valid_cached_token_is_still_handed_out(cli, mock_cloud):
    code, _, err = cli("token", "issue")
    assert code == 0, err
    mock_cloud.mock.head(TOKENS, status_code=200, headers={"X-Subject-Token": fakes.TOKEN})
    mock_cloud.mock.reset_mock()
    code, out, err = cli("token", "issue", "-f", "value", "-c", "id")
    assert (code, out.strip()) == (0, fakes.TOKEN), err
    assert [r.method for r in mock_cloud.mock.request_history] == ["HEAD"]
    checked = mock_cloud.mock.request_history[0]
    assert checked.headers["X-Subject-Token"] == fakes.TOKEN


def test_application_credential_list_names_the_new_user(cli, warm):
    new_url = fakes.AUTH_URL + "/users/%s/application_credentials" % NEW_USER
    old_url = fakes.AUTH_URL + "/users/%s/application_credentials" % OLD_USER

    def only_own(request, context):
        if request.headers.get("X-Auth-Token") != NEW_TOKEN:
            context.status_code = 401
            return {
                "error": {
                    "code": 401,
                    "message": "The request you have made requires authentication.",
                    "title": "Unauthorized",
                }
            }
        return {"application_credentials": [], "links": {"next": None}}

    def forbidden(request, context):
        context.status_code = 401 if request.headers.get("X-Auth-Token") != NEW_TOKEN else 403
        return {
            "error": {
                "code": context.status_code,
                "message": "You are not authorized to perform the requested action:"
                " identity:list_application_credentials.",
                "title": "Forbidden",
            }
        }

    warm.get(new_url, json=only_own)
    warm.get(old_url, json=forbidden)
    code, out, err = cli("application", "credential", "list", "-f", "value")
    assert code == 0, err
    assert not [r for r in warm.request_history if r.url.startswith(old_url)]
    assert [r for r in warm.request_history if r.url.startswith(new_url)]
