"""The admin's volume migration in the local Cinder (cinder/api/contrib/
admin_actions.py ``_migrate_volume`` and ``_migrate_volume_completion``,
cinder/volume/api.py ``migrate_volume``, the scheduler's and the LVM
manager's): ``migration_status`` starting → migrating → success or
error on the one volume backend ``localcloud@lvm``, ``name_id`` in the
admin's view, and each of Cinder's refusals.

A migration's time is its plan's: the tests move ``task_started_at``
back instead of waiting."""

import pytest

from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import Cinder
from tests.unit.localcloud.volume_harness import make_cloud
from tests.unit.localcloud.volume_harness import message

BACKEND = "localcloud@lvm"
POOL = "localcloud@lvm#lvm"
SERVER = "11111111-2222-4333-8444-555555555555"
REFUSED = (
    "Invalid volume: Volume %s status must be available or in-use, must not be migrating,"
    " have snapshots, be replicated, be part of a group and destination host/cluster must"
    " be different than the current one"
)


@pytest.fixture(name="cinder")
def cinder_fixture(tmp_path):
    cloud = make_cloud(tmp_path / "data", build_time=100)
    yield Cinder(cloud)
    cloud.close()


def act(cinder, volume_id, name, value, user="admin", expect=202, version="3.70"):
    result = cinder.post(
        "/volumes/%s/action" % volume_id, {name: value}, user=user, version=version
    )
    assert result.status == expect, result.body
    return result


def migrate(cinder, volume_id, host=BACKEND, expect=202, **params):
    return act(cinder, volume_id, "os-migrate_volume", dict(params, host=host), expect=expect)


def elapse(cinder, volume_id, seconds):
    """Move the volume's pending plan ``seconds`` into the past."""
    with cinder.cloud.store.transaction() as db:
        db.execute(
            "UPDATE volumes SET task_started_at = task_started_at - ? WHERE id = ?",
            (seconds, volume_id),
        )


def state(cinder, volume_id):
    shown = cinder.show(volume_id, user="admin")
    assert shown["migration_status"] == shown["os-vol-mig-status-attr:migstat"]
    return shown["status"], shown["migration_status"]


def attached(cinder):
    volume = cinder.create()["id"]
    act(cinder, volume, "os-reserve", None, user="demo")
    act(cinder, volume, "os-attach", {"instance_uuid": SERVER, "mountpoint": "/dev/vdc"})
    return volume


def test_a_host_copy_migrates_then_succeeds(cinder):
    volume = cinder.create()["id"]
    assert state(cinder, volume) == ("available", None)
    migrate(cinder, volume, force_host_copy=True)
    assert state(cinder, volume) == ("available", "starting")
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "migrating")
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "success")
    shown = cinder.show(volume, user="admin")
    # LVM renames the copy back: no name id for an available volume
    assert shown["os-vol-mig-status-attr:name_id"] is None
    assert shown["os-vol-host-attr:host"] == POOL
    # a finished migration lets another start
    migrate(cinder, volume, force_host_copy="true")
    assert state(cinder, volume) == ("available", "starting")


def test_a_locked_volume_is_in_maintenance_meanwhile(cinder):
    volume = cinder.create()["id"]
    migrate(cinder, volume, lock_volume=True)
    assert state(cinder, volume) == ("maintenance", "starting")
    refused = act(cinder, volume, "os-set_bootable", {"bootable": True}, expect=400)
    assert message(refused) == "Invalid volume: The volume cannot be updated during maintenance."
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("maintenance", "migrating")
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "success")


def test_the_driver_refuses_its_own_volume_group(cinder):
    volume = cinder.create()["id"]
    migrate(cinder, volume)
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "migrating")
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "error")
    # an error lets the admin try again
    migrate(cinder, volume, force_host_copy=True)


def test_an_attached_volume_keeps_the_copy_as_its_name_id(cinder):
    volume = attached(cinder)
    migrate(cinder, volume, lock_volume=True)
    # lock_volume locks only an available volume
    assert state(cinder, volume) == ("in-use", "starting")
    elapse(cinder, volume, 200)
    assert state(cinder, volume) == ("in-use", "success")
    shown = cinder.show(volume, user="admin")
    name_id = shown["os-vol-mig-status-attr:name_id"]
    assert name_id and name_id != volume
    assert [a["server_id"] for a in shown["attachments"]] == [SERVER]
    # a user sees none of it
    as_demo = cinder.show(volume)
    assert "migration_status" not in as_demo
    assert "os-vol-mig-status-attr:name_id" not in as_demo


def test_begin_detaching_leaves_a_migrating_volume_alone(cinder):
    volume = attached(cinder)
    migrate(cinder, volume)
    act(cinder, volume, "os-begin_detaching", None, user="demo")
    assert state(cinder, volume) == ("in-use", "starting")
    elapse(cinder, volume, 200)
    act(cinder, volume, "os-begin_detaching", None, user="demo")
    assert state(cinder, volume) == ("detaching", "success")


def test_a_pool_the_backend_has_not_fails_in_the_scheduler(cinder):
    volume = cinder.create()["id"]
    migrate(cinder, volume, host=BACKEND + "#other", lock_volume=True)
    assert state(cinder, volume) == ("maintenance", "starting")
    elapse(cinder, volume, 200)
    assert state(cinder, volume) == ("available", "error")


def test_a_type_of_another_backend_fails_in_the_scheduler(cinder):
    specs = {"volume_backend_name": "ceph"}
    made = cinder.post("/types", {"volume_type": {"name": "ceph", "extra_specs": specs}},
                       user="admin")  # fmt: skip
    assert made.status == 200, made.body
    volume = cinder.create(volume_type="ceph")["id"]
    migrate(cinder, volume, force_host_copy=True)
    elapse(cinder, volume, 60)
    # never migrating: the scheduler found no backend
    assert state(cinder, volume) == ("available", "starting")
    elapse(cinder, volume, 60)
    assert state(cinder, volume) == ("available", "error")


@pytest.mark.parametrize("host", ["other@lvm", "localcloud", "localcloud@ceph#ceph"])
def test_no_such_host(cinder, host):
    volume = cinder.create()["id"]
    refused = migrate(cinder, volume, host=host, expect=400)
    assert message(refused) == "Invalid host: No available service named '%s'" % host
    assert state(cinder, volume) == ("available", None)


def test_a_disabled_backend_is_no_host(cinder):
    volume = cinder.create()["id"]
    body = {"host": BACKEND, "binary": "cinder-volume"}
    assert cinder.put("/os-services/disable", body, user="admin").status == 200
    refused = migrate(cinder, volume, expect=400)
    assert message(refused) == "Invalid host: No available service named '%s'" % BACKEND


def test_cinders_refusals(cinder):
    volume = cinder.create()["id"]
    # its own host
    assert message(migrate(cinder, volume, host=POOL, expect=400)) == REFUSED % volume
    # a migration under way
    migrate(cinder, volume, force_host_copy=True)
    assert message(migrate(cinder, volume, expect=400)) == REFUSED % volume
    elapse(cinder, volume, 60)
    assert message(migrate(cinder, volume, expect=400)) == REFUSED % volume
    # snapshots
    snapped = cinder.create()["id"]
    cinder.snapshot(snapped)
    assert message(migrate(cinder, snapped, expect=400)) == REFUSED % snapped
    # a status other than available or in-use
    broken = cinder.create()["id"]
    act(cinder, broken, "os-reset_status", {"status": "error"})
    assert message(migrate(cinder, broken, expect=400)) == REFUSED % broken


def test_host_and_cluster_parameters(cinder):
    volume = cinder.create()["id"]
    before = act(cinder, volume, "os-migrate_volume", {"host": ""}, expect=400, version="3.15")
    assert message(before) == "Invalid input received: Host field is missing."
    unknown = act(cinder, volume, "os-migrate_volume", {}, expect=400, version="3.15")
    assert "'host' is a required property" in message(unknown)
    with_cluster = {"host": BACKEND, "cluster": "c"}
    cluster = act(cinder, volume, "os-migrate_volume", with_cluster, expect=400, version="3.15")
    assert "Additional properties are not allowed" in message(cluster)
    both = {"host": BACKEND, "cluster": "c"}
    for body in (both, {}):
        refused = act(cinder, volume, "os-migrate_volume", body, expect=400, version="3.16")
        assert message(refused) == (
            "Invalid input received: One and only one of cluster and host must be set."
        )
    # the local backend is in no cluster
    refused = act(cinder, volume, "os-migrate_volume", {"cluster": "c"}, expect=400)
    assert message(refused) == "Invalid host: No available service named 'c'"
    bad = migrate(cinder, volume, force_host_copy="maybe", expect=400)
    assert "force_host_copy" in message(bad)


def test_only_an_admin_migrates(cinder):
    volume = cinder.create()["id"]
    refused = migrate_as(cinder, volume, "demo", 403)
    assert message(refused) == (
        "Policy doesn't allow volume_extension:volume_admin_actions:migrate_volume to be"
        " performed."
    )
    assert message(migrate_as(cinder, MISSING, "admin", 404)) == (
        "Volume %s could not be found." % MISSING
    )
    # another project's volume is not found before the policy
    assert migrate_as(cinder, cinder.create(user="alt")["id"], "demo", 404)


def migrate_as(cinder, volume_id, user, expect):
    body = {"os-migrate_volume": {"host": BACKEND}}
    result = cinder.post("/volumes/%s/action" % volume_id, body, user=user)
    assert result.status == expect, result.body
    return result


# -- os-migrate_volume_completion ------------------------------------------------------


def complete(cinder, volume_id, new_volume, user="admin", expect=200, **params):
    body = {"os-migrate_volume_completion": dict(params, new_volume=new_volume)}
    result = cinder.post("/volumes/%s/action" % volume_id, body, user=user)
    assert result.status == expect, result.body
    return result


def test_completion_without_a_migration_moves_the_attachments(cinder):
    volume = attached(cinder)
    new = cinder.create()["id"]
    done = complete(cinder, volume, new)
    assert done.json() == {"save_volume_id": new}
    assert [a["server_id"] for a in cinder.show(new)["attachments"]] == [SERVER]
    shown = cinder.show(volume)
    assert (shown["status"], shown["attachments"]) == ("available", [])
    # with an error nothing moves
    other = cinder.create()["id"]
    assert complete(cinder, new, other, error=True).json() == {"save_volume_id": other}
    assert cinder.show(new)["status"] == "in-use"


def test_completion_refusals(cinder):
    volume = cinder.create()["id"]
    new = cinder.create()["id"]
    migrate(cinder, volume, force_host_copy=True)
    refused = complete(cinder, volume, new, expect=400)
    assert message(refused) == "Invalid volume: Destination volume not mid-migration."
    refused = complete(cinder, new, volume, expect=400)
    assert message(refused) == "Invalid volume: Source volume not mid-migration."
    migrate(cinder, new, force_host_copy=True)
    refused = complete(cinder, volume, new, expect=400)
    assert message(refused) == (
        "Invalid volume: Destination has migration_status starting, expected target:%s." % volume
    )
    missing = complete(cinder, volume, MISSING, expect=404)
    assert message(missing) == "Volume %s could not be found." % MISSING
    denied = complete(cinder, volume, new, user="demo", expect=403)
    assert message(denied) == (
        "Policy doesn't allow volume_extension:volume_admin_actions:migrate_volume_completion"
        " to be performed."
    )
    assert complete(cinder, volume, "x", expect=400)
