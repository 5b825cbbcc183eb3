"""python-openstackclient with python-heatclient against the local cloud's
Heat, replayed in-process: the requests the real ``openstack`` CLI sent for
``stack create --wait -t app.yaml -e env.yaml``, ``stack list``, ``stack
show``, ``stack output show/list``, ``stack event list``, ``stack resource
list``, ``stack update --existing --wait``, ``orchestration resource type
list``, ``orchestration template version list`` and ``stack delete --wait
--yes`` (tests/fixtures/heat/osc_recording/stack-tour.json, made by
record.py beside it), sent in order to a fresh local cloud. Each answer
must have the status OSC got, the Location it followed (the 201 and the
302 name lookups) and what heatclient reads from it; the ``--wait`` loops
poll the events after a marker as heatclient does until the stack-level
event (``resource_name`` the stack's name, ``physical_resource_id`` its id)
ends the action, so OSC users keep working without the suite needing
OSC."""

import json
import pathlib
import re
import time
from typing import Any

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.orchestration.engine import stacks
from tests.unit.localcloud.wsgi_client import BASE
from tests.unit.localcloud.wsgi_client import Client

RECORDING = pathlib.Path(__file__).parents[3] / "fixtures/heat/osc_recording/stack-tour.json"
RECORDED = json.loads(RECORDING.read_text())
STACK = RECORDED["stack_name"]

#: seconds a --wait loop may take in-process
DEADLINE = 30
_PLACEHOLDER = re.compile(r"\{(project_id|stack_id|url|work|event:[^{}\"]+)\}")


@pytest.fixture
def cloud(tmp_path):
    running = LocalCloud(Config(data_dir=str(tmp_path / "data"), build_time=0))
    yield running
    running.close()


class Replay:
    """The ids a replay learned, and the requests it sends."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.client = Client(cloud)
        self.token = self.client.token("demo")
        with cloud.store.read() as db:
            project_id = cloud.identity.project_id(db, "demo")
        self.ids = {"project_id": project_id, "url": BASE, "work": "/tmp/osc-replay"}

    def event_names(self):
        """{event id: placeholder} as record.py names them: the n-th event
        of the stack with that resource, action and status."""
        with self.cloud.store.read() as db:
            rows = stacks.events(db, self.ids["stack_id"])
        names: dict[str, str] = {}
        counts: dict[str, int] = {}
        for row in rows:
            key = "%s/%s_%s" % (row["resource_name"], row["action"], row["status"])
            counts[key] = counts.get(key, 0) + 1
            names[row["id"]] = "event:%s/%d" % (key, counts[key])
        return names

    def fill(self, value):
        text = json.dumps(value)
        if "{event:" in text:
            self.ids.update({name: found for found, name in self.event_names().items()})

        def one(match):
            assert match.group(1) in self.ids, match.group(0)
            return self.ids[match.group(1)]

        return json.loads(_PLACEHOLDER.sub(one, text))

    def send(self, method, path, query="", body=None, headers=None):
        return self.client.request(
            method,
            path + ("?" + query if query else ""),
            json=body,
            headers=headers,
            token=self.token,
        )

    def events_stored(self):
        """:meth:`events_seen` of every event the engine wrote for the stack."""
        with self.cloud.store.read() as db:
            rows = stacks.events(db, self.ids["stack_id"])
        return self.events_seen(
            [
                {
                    "id": row["id"],
                    "resource_name": row["resource_name"],
                    "resource_status": "%s_%s" % (row["action"], row["status"]),
                    "physical_resource_id": row["physical_resource_id"],
                }
                for row in rows
            ]
        )

    def events_seen(self, events):
        """[placeholder, resource_name, resource_status, stack id placeholder
        or None] of events of an answer, as record.py writes them."""
        names = self.event_names()
        stack_id = self.ids["stack_id"]
        return [
            [
                "{%s}" % names[e["id"]],
                e["resource_name"],
                e["resource_status"],
                "{stack_id}"
                if e["resource_name"] == STACK and e["physical_resource_id"] == stack_id
                else None,
            ]
            for e in events
        ]


def _is_subsequence(part, whole):
    remaining = iter(whole)
    return all(item in remaining for item in part)


def _is_poll(exchange):
    """An events request of a --wait loop (the marker lookups before a
    write ask for the newest event, sort_dir=desc)."""
    return (
        "--wait" in exchange["command"]
        and exchange["method"] == "GET"
        and exchange["path"].endswith("/events")
        and "sort_dir=asc" in exchange["query"]
    )


def _check_answer(replay, exchange, result):
    where = "%s (%s %s)" % (exchange["command"], exchange["method"], exchange["path"])
    assert result.status == exchange["status"], (where, result.body)
    if exchange["location"] is not None:
        assert result.header("Location") == replay.fill(exchange["location"]), where
    reads = exchange["reads"]
    if reads is None:
        return None
    body = result.json()
    assert sorted(body) == reads["keys"], where
    if "events" in reads:
        assert replay.events_seen(body["events"]) == reads["events"], where
        if body["events"]:
            assert sorted(body["events"][0]) == reads["event_keys"], where
    if "resources" in reads:
        listed = [
            [r["resource_name"], r["resource_type"], r["resource_status"]]
            for r in body["resources"]
        ]
        assert sorted(listed) == reads["resources"], where
    if "stacks" in reads:
        listed = [[s["stack_name"], s["stack_status"]] for s in body["stacks"]]
        assert sorted(listed) == reads["stacks"], where
    if "output_keys" in reads:
        outputs = body["stack"]["outputs"] if "stack" in body else body["outputs"]
        assert sorted(o["output_key"] for o in outputs) == reads["output_keys"], where
    if "template_versions" in reads:
        assert body["template_versions"] == reads["template_versions"], where
    for key, member in (("resource_keys", "resources"), ("stack_keys", "stacks")):
        if reads.get(key) and body.get(member):
            assert sorted(body[member][0]) == reads[key], where
    if "stack" in reads:
        stack = body["stack"]
        assert sorted(stack) == reads["stack_keys"], where
        want = reads["stack"]
        for key in ("stack_name", "description"):
            assert stack.get(key) == want.get(key), (where, key)
        if "stack_status" in want:
            # a show right after a write may find the action already done
            action, _, status = want["stack_status"].partition("_")
            allowed = [want["stack_status"]]
            if status == "IN_PROGRESS":
                allowed.append("%s_COMPLETE" % action)
            assert stack["stack_status"] in allowed, where
        if "parameters" in want:
            # names only: see test_environment_files_are_merged
            assert sorted(stack["parameters"]) == sorted(want["parameters"]), where
    if "output" in reads:
        assert body["output"]["output_key"] == reads["output"]["output_key"], where
        assert sorted(body["output"]) == reads["output_member_keys"], where
    if "includes" in reads:
        assert set(reads["includes"]) <= set(body["resource_types"]), where
    return body


def _stop_event(replay, events, action):
    """The stack-level event heatclient's poll_for_events stops at."""
    for event in events:
        if event["resource_name"] != STACK:
            continue
        links = {link["rel"]: link["href"] for link in event["links"]}
        stack_id = links.get("stack", event["physical_resource_id"]).rsplit("/", 1)[-1]
        if stack_id != event["physical_resource_id"]:
            continue
        assert stack_id == replay.ids["stack_id"]
        if event["resource_status"] in ("%s_COMPLETE" % action, "%s_FAILED" % action):
            return event
    return None


def _replay_wait(replay, polls):
    """heatclient's poll_for_events: the events after the marker through
    the 302 name lookup, the marker moved to the newest event seen, until
    the stack-level event of the action (or, for a delete, the 404 once the
    stack is gone)."""
    command = polls[0]["command"]
    action = command.split()[1].upper()
    recorded = [
        e for p in polls if p["reads"] and "events" in p["reads"] for e in p["reads"]["events"]
    ]
    lookup, followed = polls[0], polls[1]
    assert (lookup["status"], followed["status"]) == (302, 200), command
    query = replay.fill(lookup["query"])
    seen: list[list[Any]] = []
    stop, deadline = None, time.monotonic() + DEADLINE
    while stop is None:
        assert time.monotonic() < deadline, (command, seen)
        result = replay.send("GET", replay.fill(lookup["path"]), query)
        if result.status == 404 and action == "DELETE" and polls[-1]["status"] == 404:
            message = result.json()["error"]["message"]
            assert message == "The Stack (%s) could not be found." % STACK
            break
        assert result.status == 302, (command, result.body)
        target = replay.fill(followed["path"])
        assert result.header("Location") == BASE + target + "?" + query, command
        answer = replay.send("GET", target, query)
        assert answer.status == 200, (command, answer.body)
        events = answer.json()["events"]
        if events:
            assert sorted(events[0]) == followed["reads"]["event_keys"], command
            seen.extend(replay.events_seen(events))
            query = "marker=%s&sort_dir=asc" % events[-1]["id"]
            stop = _stop_event(replay, events, action)
        else:
            time.sleep(0.02)
    stored = replay.events_stored()
    # what OSC saw happened here too, in that order (an engine may write
    # more events than it did when the recording was made)
    assert _is_subsequence(recorded, stored), (command, recorded, stored)
    if stop is not None:
        assert _is_subsequence(
            [e for e in recorded if e[3] is not None], [e for e in seen if e[3] is not None]
        ), (command, seen)
        assert stop["resource_status"] == "%s_COMPLETE" % action, stop


def test_openstackclient_stack_tour_replays(cloud):
    replay = Replay(cloud)
    exchanges = RECORDED["exchanges"]
    outputs = []
    index = 0
    while index < len(exchanges):
        exchange = exchanges[index]
        if _is_poll(exchange):
            end = index
            while end < len(exchanges) and _is_poll(exchanges[end]):
                end += 1
            _replay_wait(replay, exchanges[index:end])
            index = end
            continue
        path = replay.fill(exchange["path"])
        assert not _PLACEHOLDER.search(path), path
        result = replay.send(
            exchange["method"],
            path,
            replay.fill(exchange["query"]),
            replay.fill(exchange["body"]) if exchange["body"] is not None else None,
            dict(exchange["headers"]) or None,
        )
        if exchange["method"] == "POST" and result.status == 201:
            replay.ids["stack_id"] = result.json()["stack"]["id"]
        body = _check_answer(replay, exchange, result)
        if body and "output" in body:
            outputs.append(body["output"]["output_value"])
        index += 1
    # the random string as created (the environment's length is not merged
    # yet: see test_environment_files_are_merged) and after --parameter length=16
    assert [len(value) for value in outputs][1:] == [16]
    assert outputs[0] != outputs[1]
    with cloud.store.read() as db:
        gone = stacks.by_id(db, replay.ids["stack_id"])
    assert gone is None or (gone["action"], gone["status"]) == ("DELETE", "COMPLETE")


def _create(replay, body):
    result = replay.send("POST", replay.fill("/orchestration/v1/{project_id}/stacks"), body=body)
    assert result.status == 201, result.body
    stack_id = result.json()["stack"]["id"]
    path = "/orchestration/v1/%s/stacks/%s/%s" % (
        replay.ids["project_id"],
        body["stack_name"],
        stack_id,
    )
    deadline = time.monotonic() + DEADLINE
    while True:
        stack = replay.send("GET", path).json()["stack"]
        if stack["stack_status"] != "CREATE_IN_PROGRESS":
            return stack
        assert time.monotonic() < deadline, stack
        time.sleep(0.02)


def test_environment_files_are_merged(cloud):
    """``-e env.yaml``: heatclient sends the environment files in ``files``
    and names them in ``environment_files``; Heat ignores the body's
    ``environment`` then and merges the files over it, in order."""
    replay = Replay(cloud)
    (create,) = [e for e in RECORDED["exchanges"] if e["method"] == "POST"]
    body = replay.fill(create["body"])
    stack = _create(replay, body)
    assert stack["stack_status"] == "CREATE_COMPLETE"
    assert stack["parameters"]["length"] == "12"
