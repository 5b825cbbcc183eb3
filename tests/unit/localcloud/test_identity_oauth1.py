"""OAuth1 consumers in the local Keystone (``/v3/OS-OAUTH1/consumers``):
CRUD for admins, the secret shown once, keystone's texts."""

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error

PATH = "/v3/OS-OAUTH1/consumers"
DENIED = "You are not authorized to perform the requested action: identity:%s."


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def test_create_show_list_update_delete(admin):
    created = admin("POST", PATH, {"consumer": {"description": "ci", "secret": "mine"}})
    assert created.status == 201, created.body
    consumer = created.json()["consumer"]
    assert set(consumer) == {"id", "description", "secret", "links"}
    assert consumer["secret"] != "mine" and len(consumer["secret"]) == 32
    path = PATH + "/" + consumer["id"]
    shown = admin("GET", path).json()["consumer"]
    assert shown == {k: v for k, v in consumer.items() if k != "secret"}
    assert [c["id"] for c in admin("GET", PATH).json()["consumers"]] == [consumer["id"]]
    updated = admin("PATCH", path, {"consumer": {"description": "d"}})
    assert updated.status == 200 and updated.json()["consumer"]["description"] == "d"
    assert "secret" not in updated.json()["consumer"]
    assert admin("DELETE", path).status == 204
    gone = admin("GET", path)
    assert gone.status == 404 and error(gone) == "Consumer not found"


def test_refusals(client, admin):
    demo = client.token("demo")
    for method, path, action in (
        ("POST", PATH, "create_consumer"),
        ("GET", PATH, "list_consumers"),
        ("GET", PATH + "/x", "get_consumer"),
        ("PATCH", PATH + "/x", "update_consumer"),
        ("DELETE", PATH + "/x", "delete_consumer"),
    ):
        result = client.request(method, path, token=demo, json={"consumer": {"description": "d"}})
        assert result.status == 403 and error(result) == DENIED % action
    consumer = admin("POST", PATH, {"consumer": {}}).json()["consumer"]
    secret = admin("PATCH", PATH + "/" + consumer["id"], {"consumer": {"secret": "x"}})
    assert secret.status == 400
    assert error(secret).startswith(
        "{'secret': 'x'} should not be valid under {'required': ['secret']}"
    )
    empty = admin("PATCH", PATH + "/" + consumer["id"], {"consumer": {}})
    assert empty.status == 400
    assert admin("PATCH", PATH + "/nosuch", {"consumer": {"description": "d"}}).status == 404
