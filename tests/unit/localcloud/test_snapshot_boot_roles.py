"""Local cloud: a server snapshot's ``boot_roles`` (issue 23).

Nova's compute manager keeps the roles of the request that built a server
in its system metadata (``_build_and_run_instance``: ``boot_roles`` =
``','.join(context.roles)``, the token's roles in its order), and a
snapshot's properties are that system metadata
(``compute.utils.initialize_instance_snapshot_metadata`` →
``utils.get_image_from_system_metadata``). The real Nova 34 gave a member's
snapshot ``"boot_roles": "member,reader"``
(tests/fixtures/compute/realcloud/nova-34-snapshots-and-boots.json,
``image_show``).
"""

import pytest

from occli.localcloud.compute import server_rows


def _image(nova, image_id, user="demo"):
    result = nova.client.get("/image/v2/images/" + image_id, token=nova.tokens[user])
    assert result.status == 200, result.body
    return result.json()


def _token_roles(nova, user):
    token = nova.tokens[user]
    shown = nova.client.request(
        "GET", "/v3/auth/tokens", token=token, headers={"X-Subject-Token": token}
    )
    assert shown.status == 200, shown.body
    return [r["name"] for r in shown.json()["token"]["roles"]]


def _snapshot(nova, server_id, user="demo", name="snap"):
    answer = nova.action(server_id, {"createImage": {"name": name}}, user=user, version="2.45")
    assert answer.status == 202, answer.body
    return _image(nova, answer.json()["image_id"], user=user)


def test_a_members_snapshot_has_the_roles_it_was_booted_with(nova):
    server_id = nova.create()
    nova.show(server_id)
    assert _snapshot(nova, server_id)["boot_roles"] == "member,reader"  # as Nova 34


def test_the_roles_are_the_booting_tokens_in_its_order(nova):
    server_id = nova.create(user="admin")
    nova.show(server_id, user="admin")
    roles = _token_roles(nova, "admin")
    assert "admin" in roles
    assert _snapshot(nova, server_id, user="admin")["boot_roles"] == ",".join(roles)


def test_the_roles_are_the_booters_not_the_snapshotters(nova):
    """An admin's snapshot of a member's server (shared with its project)
    carries the member's roles: they were kept at boot."""
    server_id = nova.create()
    nova.show(server_id)
    image = _snapshot(nova, server_id, user="admin")
    assert image["visibility"] == "shared"
    assert image["boot_roles"] == "member,reader"


def test_a_backup_has_them_too(nova):
    server_id = nova.create()
    nova.show(server_id)
    body = {"createBackup": {"name": "b", "backup_type": "daily", "rotation": 1}}
    answer = nova.action(server_id, body, version="2.45")
    assert answer.status == 202, answer.body
    assert _image(nova, answer.json()["image_id"])["boot_roles"] == "member,reader"


def test_a_server_booted_before_they_were_kept_has_none(nova):
    """A server of an older data directory (no row): no ``boot_roles``, as
    a Nova instance built before the compute manager kept them."""
    server_id = nova.create()
    nova.show(server_id)
    with nova.cloud.store.transaction() as db:
        server_rows.forget_boot_roles(db, [server_id])
    assert "boot_roles" not in _snapshot(nova, server_id)


@pytest.mark.parametrize("placed", [True, False])
def test_only_a_placed_instance_keeps_them(nova, placed):
    """Nova's scheduler failing a request (NoValidHost: every host
    disabled) means no build: no ``boot_roles`` kept for it."""
    if not placed:
        with nova.cloud.store.transaction() as db:
            db.execute("UPDATE compute_services SET disabled = 1")
    server_id = nova.create()
    assert nova.show(server_id)["status"] == ("ACTIVE" if placed else "ERROR")
    with nova.cloud.store.read() as db:
        row = db.execute(
            "SELECT roles FROM compute_boot_roles WHERE server_id = ?", (server_id,)
        ).fetchone()
    assert (row is not None) == placed


def test_a_create_that_fails_leaves_none(nova, monkeypatch):
    """When the quota recheck after the rows are in fails, what the create
    made goes (nova's _cleanup_build_artifacts): their roles too."""
    from occli.localcloud import errors
    from occli.localcloud.compute import servers

    def recheck(*args):
        raise errors.Forbidden("Quota exceeded")

    monkeypatch.setattr(servers, "_recheck", recheck)
    assert nova.create(expect=403).status == 403
    with nova.cloud.store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM servers").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM compute_boot_roles").fetchone()[0] == 0
