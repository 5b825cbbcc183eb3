"""The local Cinder against the real Cinder 29 on 127.0.0.1:8776, live:
``record_cinder``'s cases (and its view cases) run against both
(``tests.fidelity.live``), each exchange a row compared by
``differential``'s rules (status, fault name, code and text, body
signature). Skipped when Keystone or Cinder does not answer.

KNOWN lists the differences found, each with its reason; they are strict
expected failures, so a fix shows.
"""

import pytest

from tests.fidelity import live
from tests.fidelity import record_cinder
from tests.fidelity import record_cinder_cases
from tests.fidelity import record_cinder_views

REAL_SERVICE = ("Cinder", "http://127.0.0.1:8776/")
CASES = {**record_cinder_cases.CASES, **record_cinder_views.CASES}
ROWS = live.rows("volume", "cinder-29", CASES)
_VERSIONS = (
    "the local Cinder's maximum microversion is 3.70, Cinder 29's 3.71 (its 406 texts and"
    " version documents name it)"
)
_NO_BACKUP = (
    "the rig runs no cinder-backup (README): the real backup goes to error (fail_reason, no"
    " zone or container), cannot be restored, exported or deleted (404 Service cinder-backup"
    " could not be found) and stays listed in later cases; the local backup succeeds"
)
_MESSAGES = (
    "the real Cinder made user messages for the rig's failures (no cinder-backup, the fake"
    " driver) and lists every project's (test_cinder_realcloud_replay's LEAK); the local one"
    " has none to list"
)
_POOLS = "the rig's fake driver reports its own pool stats; the local pool is the LVM driver's"
_ATTACHMENT_OTHER = (
    "Cinder 29 shows another project's attachment by id (200) and refuses its delete by"
    " policy (403); the local Cinder finds only the caller's project's (404)"
)
_GROUPS: dict[str, tuple[str, ...]] = {
    _VERSIONS: ("versions:latest", "versions:too_new", "versions:too_old")
    + tuple(
        "view-errors:%s_list_too_%s" % (kind, age)
        for kind in ("volume", "snapshot", "backup", "transfer", "type")
        for age in ("new", "old")
    )
    + tuple(
        "view-errors:%s_list_too_new" % kind
        for kind in ("attachment", "group", "group_snapshot", "message", "group_type")
    ),
    _NO_BACKUP: (
        "backups:show", "backups:restore", "backups:export", "backups:delete", "backups:list",
        "backups:list_detail", "views-counts:backups_count_3.45_member",
        "views-counts:backups_detail_count_3.45_member",
    )
    + tuple(
        "views-backups:backup_%s_%s_%s" % (view, version, caller)
        for view in ("show", "detail")
        for version in ("3.0", "3.18", "3.43", "3.51", "3.56")
        for caller in ("member", "admin")
    ),
    _MESSAGES: (
        "volumes:messages", "backups:messages", "views-admin:messages_3.3_member",
        "views-admin:messages_3.3_admin",
    ),
    _POOLS: ("admin:pools_detail", "views-admin:pools_3.0_admin"),
    _ATTACHMENT_OTHER: (
        "view-errors-others:attachment_show_other", "view-errors-others:attachment_delete_other"
    ),
    "the rig's fake driver fails os-attach (500); the local Cinder attaches": ("actions:attach",),
    "a crash of the real one (500) on a body without volume_type; the local one's schema 400": (
        "types:type_create_bad_body",
    ),
    "the case names the rig's volume host (realcloud-cinder), unknown locally": (
        "admin:host_show",
    ),
}  # fmt: skip
# (case, exchange) -> why the local answer differs
KNOWN = {
    (row.partition(":")[0], row.partition(":")[2]): reason
    for reason, found in _GROUPS.items()
    for row in found
}


def fresh(rec):
    """Delete what the case made (not the run's users), so that the next
    case starts within the member's quotas (10 volumes), as each recording
    did."""
    users = [c for c in rec.created if c[1].startswith("http")]
    rec.created = [c for c in rec.created if not c[1].startswith("http")]
    failures = rec.cleanup()
    rec.created = users
    return failures


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    yield from live.both(
        record_cinder.Recorder, CASES, tmp_path_factory.mktemp("cinder"), after_case=fresh
    )


@pytest.mark.parametrize(("case", "exchange"), live.marked(ROWS, KNOWN))
def test_as_the_real_cinder(run, case, exchange):
    run.check(
        case,
        exchange,
        headers=("content-type", "openstack-api-version"),
        present=("x-openstack-request-id",),
    )
