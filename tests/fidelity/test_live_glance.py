"""The local Glance against the real Glance 33 on 127.0.0.1:9292, live:
``record_glance``'s cases run against both (``tests.fidelity.live``), each
exchange a row compared by ``differential``'s rules (status, headers, body
signature, an error page's text). Skipped when Keystone or Glance does not
answer.

KNOWN lists the differences found, each with its reason; they are strict
expected failures, so a fix shows.
"""

import pytest

from tests.fidelity import live
from tests.fidelity import record_glance
from tests.fidelity import record_glance_cases as cases
from tests.fidelity.clouds import Answer
from tests.unit.localcloud.test_image_realcloud_replay import DIFFERENT
from tests.unit.localcloud.test_image_realcloud_replay import IGNORE
from tests.unit.localcloud.test_image_realcloud_replay import real_message

REAL_SERVICE = ("Glance", "http://127.0.0.1:9292/versions")
ROWS = live.rows("image", "glance-33", cases.CASES)
# compared by value (test_image_realcloud_replay's)
HEADERS = (
    "content-type",
    "content-md5",
    "accept-patch",
    "openstack-image-import-methods",
    "openstack-image-store-ids",
)
# (case, exchange) -> why the local answer differs
KNOWN = {
    ("create", "create_list_body"): DIFFERENT[("create", "create_list_body")][1],
}


def prepare(side, answer):
    """An error as its text only (webob's JSON document's detail, else its
    explanation), so that the texts are compared."""
    if answer.status < 400:
        return answer
    if isinstance(answer.body, dict) and "message" in answer.body:
        text = real_message(answer.body)
    else:
        text = answer.text
    headers = {k: v for k, v in answer.headers.items() if k != "content-type"}
    return Answer(answer.status, headers, text)


def fresh(rec):
    """Delete the case's images (as record_glance does between cases)."""
    return rec.cleanup(kinds=("image",))


def keep(ids, item):
    """Of a list of images, those of the run (its projects' or named with
    its tag): the rig has its own seed images (cirros), the local cloud
    its seed's."""
    if not isinstance(item, dict) or "disk_format" not in item:
        return True
    own = (ids.get("member_project"), ids.get("other_project"))
    return item.get("owner") in own or str(item.get("name")).startswith(ids["tag"])


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    yield from live.both(
        record_glance.Recorder, cases.CASES, tmp_path_factory.mktemp("glance"), after_case=fresh
    )


@pytest.mark.parametrize(("case", "exchange"), live.marked(ROWS, KNOWN))
def test_as_the_real_glance(run, case, exchange):
    run.check(
        case,
        exchange,
        headers=HEADERS,
        present=("x-openstack-request-id", "location"),
        text=True,
        prepare=prepare,
        keep=keep,
        # the rig's schema file and metadefs (test_image_realcloud_replay)
        ignore=tuple(path[2:] for path in IGNORE.get((case, exchange), ())),
    )


def test_an_error_is_json_when_asked(run):
    """An image that is not there, asked for as JSON."""
    run.check("create", "show_unknown", headers=("content-type",), present=())
