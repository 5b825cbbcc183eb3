"""Every Cinder view key by key (issue 23): the recordings of
``tests/fidelity/record_cinder_views.py`` (``cinder-29-views-*.json``,
``cinder-29-view-errors*.json``) replayed against a fresh local cloud, one
row per exchange, i.e. per view, caller and microversion (the names read
``<resource>_<view>_<version>_<caller>``). A row compares the status, the
keys exactly and the value types of the answer (free-form maps by their
values' types), and an error's fault name and text, with what the real
Cinder 29 answered; the replay and its id swapping are
``test_volume_realcloud_replay``'s.

What the rig makes differ is in DEVIATIONS and ACCEPTED, with the reason.
"""

import functools

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from occli.localcloud.microversions import APIVersion
from occli.localcloud.volume.api import microversions
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.test_volume_realcloud_replay import Replay
from tests.unit.localcloud.volume_harness import Cinder

FILES = (
    "views-volumes",
    "views-snapshots",
    "views-backups",
    "views-transfers",
    "view-errors",
    "views-types",
    "views-groups",
    "views-attachments",
    "views-admin",
    "views-writes",
    "view-errors-others",
    "views-counts",
)
LEAK = (
    "Cinder 29 lists every project's messages to any caller (_generate_paginate_query asks"
    " _messages_get_query without project_only, cinder/db/api.py); the local Cinder lists the"
    " caller's project's, as its show finds only those"
)
# file -> exchange -> why the local answer is not compared with the real one
DEVIATIONS = {
    "views-admin": {
        "pools_3.0_admin": (
            "the rig's fake driver reports its own pool stats ('infinite' capacities, replication"
            " and consistency groups); the local pool is the LVM driver's (unit-tested)"
        ),
        "messages_3.3_member": LEAK,
        "messages_3.3_admin": LEAK,
    },
}
# file -> the end of a difference accepted in any of its rows -> why
ACCEPTED = {
    "views-backups": {
        "fail_reason: null in actual, string in sample": (
            "the rig runs no cinder-backup: the real backup went to error with a reason"
        ),
    },
}
ROWS = [
    (name, key)
    for name in FILES
    for key in load_fixture("volume", "realcloud", "cinder-29-%s.json" % name)["exchanges"]
]


@pytest.fixture(name="replayed", scope="module")
def replayed_recordings(tmp_path_factory):
    """``replay(file)``: each exchange's differences (None: not served),
    each file replayed once, in order, against its own local cloud."""
    clouds = []

    @functools.cache
    def replay(name):
        cloud = LocalCloud(
            Config(data_dir=str(tmp_path_factory.mktemp(name)), build_time=0),
            services=service_classes(("identity", "compute", "image", "objectstore", "volume")),
        )
        clouds.append(cloud)
        player = Replay(Cinder(cloud), name)
        found = {}
        for key in player.exchanges:
            result = player.send(key)
            found[key] = None if result is None else player.differences(key, result)
        return found

    yield replay
    for cloud in clouds:
        cloud.close()


def _problems(replayed, name, key):
    """What the local answer to a row does differently, but what ACCEPTED
    accepts; fails when the row's route is not served."""
    problems = replayed(name)[key]
    assert problems is not None, "%s: not served by the local Cinder" % key
    accepted = tuple(ACCEPTED.get(name, {}))
    return [p for p in problems if not p.endswith(accepted)]


@pytest.mark.parametrize(("name", "key"), ROWS, ids=["%s:%s" % row for row in ROWS])
def test_view_as_cinder_29(replayed, name, key):
    if key in DEVIATIONS.get(name, {}):
        pytest.skip(DEVIATIONS[name][key])
    problems = _problems(replayed, name, key)
    assert not problems, "\n".join(problems)


def test_every_view_is_recorded_for_both_callers():
    """The volume and snapshot recordings hold create, update, show, list
    and detail for the member and for admin at each microversion."""
    for name, resource in (("views-volumes", "volume"), ("views-snapshots", "snapshot")):
        keys = set(load_fixture("volume", "realcloud", "cinder-29-%s.json" % name)["exchanges"])
        for view in ("create", "update", "show", "list", "detail"):
            for caller in ("member", "admin"):
                found = [k for k in keys if k.startswith("%s_%s_" % (resource, view))]
                assert [k for k in found if k.endswith("_" + caller)], (name, view, caller)


def test_every_deviation_names_a_recorded_exchange():
    for name, deviations in DEVIATIONS.items():
        assert all((name, key) in ROWS and why for key, why in deviations.items()), name
    assert all(name in FILES and all(reasons.values()) for name, reasons in ACCEPTED.items())


# issue 23: each microversion that adds a key to a view (Cinder's
# rest_api_version_history.rst), with the recorded row at it and the one
# before: (file, exchange with %s for the version, before, at, key)
KEYED_MICROVERSIONS = (
    ("views-admin", "services_%s_admin", "3.0", "3.7", "cluster"),
    ("views-volumes", "volume_show_%s_admin", "3.0", "3.13", "group_id"),
    ("views-snapshots", "snapshot_show_%s_member", "3.0", "3.14", "group_snapshot_id"),
    ("views-backups", "backup_show_%s_admin", "3.0", "3.18", "os-backup-project-attr:project_id"),
    ("views-volumes", "volume_show_%s_admin", "3.13", "3.21", "provider_id"),
    ("views-admin", "summary_%s_member", "3.12", "3.36", "metadata"),
    ("views-groups", "group_show_%s_member", "3.13", "3.38", "replication_status"),
    ("views-snapshots", "snapshot_show_%s_member", "3.14", "3.41", "user_id"),
    ("views-backups", "backup_show_%s_member", "3.18", "3.43", "metadata"),
    ("views-volumes", "volume_show_%s_member", "3.21", "3.48", "service_uuid"),
    ("views-volumes", "volume_show_%s_member", "3.21", "3.48", "shared_targets"),
    ("views-backups", "backup_show_%s_admin", "3.51", "3.56", "user_id"),
    ("views-transfers", "transfer_show_%s", "3.55", "3.57", "source_project_id"),
    ("views-groups", "group_show_%s_admin", "3.38", "3.58", "project_id"),
    ("views-groups", "gsnap_show_%s_admin", "3.19", "3.58", "project_id"),
    ("views-volumes", "volume_show_%s_admin", "3.48", "3.61", "cluster_name"),
    ("views-volumes", "volume_show_%s_member", "3.61", "3.63", "volume_type_id"),
    ("views-volumes", "volume_show_%s_member", "3.63", "3.65", "consumes_quota"),
    ("views-snapshots", "snapshot_show_%s_member", "3.41", "3.65", "consumes_quota"),
)


def _keys(name, key):
    """The keys of a recorded answer's one resource (of every item of a list)."""
    recording = load_fixture("volume", "realcloud", "cinder-29-%s.json" % name)
    body = recording["exchanges"][key]["body"]
    (value,) = body.values()
    items = value if isinstance(value, list) else [value]
    return set().union(*items)


@pytest.mark.parametrize(
    ("name", "exchange", "before", "at", "key"),
    KEYED_MICROVERSIONS,
    ids=["%s %s" % (row[3], row[4]) for row in KEYED_MICROVERSIONS],
)
def test_an_advertised_microversion_adds_its_key(replayed, name, exchange, before, at, key):
    """The version document's maximum covers the microversion, the real
    Cinder adds the key there and not before, and the local answers at
    both agree with the real ones key by key (so it serves it)."""
    assert APIVersion(at) <= APIVersion(microversions.MAX_VERSION)
    assert key in _keys(name, exchange % at) and key not in _keys(name, exchange % before)
    assert _problems(replayed, name, exchange % at) == []
    assert _problems(replayed, name, exchange % before) == []
