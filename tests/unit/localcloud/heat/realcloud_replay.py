"""Replay the real Heat's recorded exchanges (``tests/fixtures/heat/realcloud``)
against a fresh local cloud, with no real cloud.

:class:`LocalRecorder` has the interface of ``tests.fidelity.record_heat``'s
``Recorder`` (``tag``, ``ids``, ``case``, ``raw``, ``call``, ``create``,
``wait``), so the recorder's own case functions
(``tests.fidelity.record_heat_cases``) send the recorded requests, in the
recorded order and with the recorded waits, to the local cloud (in-process
WSGI calls, no sockets). The run uses the recording's tag, so stack names
are the recorded ones; ids, project ids and the host differ and are
replaced by ``{placeholders}`` before comparing (:func:`differences`).
"""

import json
import pathlib
import re
import time
from typing import Any

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.fidelity.differential import signature
from tests.unit.localcloud.wsgi_client import Client

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "fixtures" / "heat" / "realcloud"
DEADLINE = 60.0  # seconds a local stack may take to settle
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# the URL up to Heat's /v1 (the rig's http://127.0.0.1:8004, the local
# cloud's http://cloud.test:8775/orchestration)
_BASE = re.compile(r"https?://[^/\"\s]+(/orchestration)?/v1/")
# the rig's service endpoints the case functions call directly (``_admin``)
# and the local cloud's paths for them
_RIG = {
    "http://127.0.0.1:8774/v2.1": "/compute/v2.1",
    "http://127.0.0.1:9292": "/image",
}


def recording(case: str) -> dict[str, Any]:
    """The fixture ``heat-27-<case>.json``."""
    return json.loads((FIXTURES / ("heat-27-%s.json" % case)).read_text())


class Answer:
    """What the case functions read of a keystoneauth response."""

    def __init__(self, status: int, headers: dict[str, str], text: str):
        self.status_code = status
        self.headers = headers
        self.text = text

    def json(self) -> Any:
        return json.loads(self.text)


class LocalRecorder:
    """The recorder's interface over a local cloud: ``member`` is the demo
    user (member of its project), ``admin`` the cloud's admin."""

    def __init__(self, data_dir: Any, tag: str, **settings: Any):
        # the rig's heat.conf: abandon and adopt off (Heat's defaults)
        settings.setdefault("heat_enable_stack_abandon", False)
        settings.setdefault("heat_enable_stack_adopt", False)
        self.cloud = LocalCloud(Config(data_dir=str(data_dir), build_time=0, **settings))
        self.client = Client(self.cloud)
        self.tokens = {"member": self.client.token("demo"), "admin": self.client.token("admin")}
        with self.cloud.store.read() as db:
            identity = self.cloud.identity
            self.ids: dict[str, str] = {
                "admin_project": identity.project_id(db, "admin"),
                "member_project": identity.project_id(db, "demo"),
                "member_user": identity.user_id(db, "demo"),
                "tag": tag,
            }
        self.tag = tag
        self.case: dict[str, Any] = {"ids": dict(self.ids), "exchanges": {}}
        self.created: list[tuple[str, str, str]] = []  # the recorder's cleanup list (unused)

    def close(self) -> None:
        self.cloud.close()

    def _admin(self, method: str, url: str, body: Any = None) -> Any:
        """As the recorder's: the admin's request to another service (a
        rig URL of ``_RIG``), which must succeed; its JSON body."""
        for rig, local in _RIG.items():
            if url.startswith(rig):
                url = local + url[len(rig) :]
                break
        else:
            raise AssertionError("no local endpoint for %s" % url)
        result = self.client.request(method, url, json=body, token=self.tokens["admin"])
        assert result.status < 300, (method, url, result.status, result.body)
        return json.loads(result.body) if result.body else None

    def raw(
        self,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        project: str | None = None,
        text: str | None = None,
        redirect: bool = False,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One request; ``path`` already formatted."""
        if project is None:
            project = self.ids["member_project" if caller == "member" else "admin_project"]
        url = "/orchestration/v1/" + project + path + ("?" + query if query else "")
        sent = text.encode() if text is not None else None
        result = self.client.request(
            method,
            url,
            json=body if text is None else None,
            body=sent,
            headers={"Accept": "application/json", **(headers or {})},
            token=self.tokens[caller],
        )
        return Answer(result.status, dict(result.headers), result.body.decode("utf-8"))

    def call(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        project: str | None = None,
        text: str | None = None,
        note: str | None = None,
        **ids: str,
    ) -> tuple[int, Any]:
        """As the recorder's: send and keep the exchange as ``name``."""
        self.case["ids"].update(ids)
        answer = self.raw(
            method, path.format(**self.case["ids"]), body, caller, query, project, text
        )
        try:
            parsed = answer.json() if answer.text else None
        except ValueError:
            parsed = answer.text
        self.case["exchanges"][name] = {
            "status": answer.status_code,
            "headers": answer.headers,
            "body": parsed,
        }
        return answer.status_code, parsed

    def create(
        self, name: str, body: dict[str, Any], caller: str = "member", record: str | None = None
    ) -> tuple[int, Any]:
        body = dict(body, stack_name=name)
        if record:
            return self.call(record, "POST", "/stacks", body, caller)
        answer = self.raw("POST", "/stacks", body, caller)
        return answer.status_code, answer.json() if answer.text else None

    def wait(self, path: str, caller: str = "member", gone_ok: bool = False) -> Any:
        """Poll ``path`` until its stack leaves *_IN_PROGRESS (bounded)."""
        deadline = time.monotonic() + DEADLINE
        while True:
            answer = self.raw("GET", path, caller=caller, query="resolve_outputs=False")
            if answer.status_code == 404 and gone_ok:
                return None
            assert answer.status_code == 200, (path, answer.status_code, answer.text)
            stack = answer.json()["stack"]
            if not stack["stack_status"].endswith("IN_PROGRESS"):
                return stack
            assert time.monotonic() < deadline, ("did not settle", path, stack)
            time.sleep(0.05)


def placeholders(text: str, ids: dict[str, str]) -> str:
    """``text`` with a run's ids (longest first) as ``{name}``, every other
    uuid as ``{uuid}`` and the URL base as ``{base}/v1/``."""
    text = _BASE.sub("{base}/v1/", text)
    for key, value in sorted(ids.items(), key=lambda kv: -len(str(kv[1]))):
        if key != "tag" and isinstance(value, str) and len(value) > 3:
            text = text.replace(value, "{%s}" % key)
    return _UUID.sub("{uuid}", text)


def _error(body: Any) -> tuple[Any, Any] | None:
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body["error"].get("type"), body["error"].get("message")
    return None


def at(body: Any, path: str) -> Any:
    """The value at a dotted ``path`` (list items by index; ``$`` the
    whole body), or "<absent>"."""
    if path == "$":
        return body
    for step in path.split("."):
        if isinstance(body, list) and step.isdigit() and int(step) < len(body):
            body = body[int(step)]
        elif isinstance(body, dict) and step in body:
            body = body[step]
        else:
            return "<absent>"
    return body


def differences(
    real: dict[str, Any],
    real_ids: dict[str, str],
    local: dict[str, Any],
    local_ids: dict[str, str],
    values: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
) -> list[str]:
    """What differs between a recorded exchange and the local one: status,
    ``Location`` (its path), the error's type and message, the body's key
    paths with their JSON types, and the ``values`` at the dotted paths
    named, ids replaced by placeholders. ``ignore`` names key paths
    (``$.`` prefixed) whose shape is not compared."""

    def norm(doc: Any, ids: dict[str, str]) -> Any:
        return json.loads(placeholders(json.dumps(doc), ids))

    problems = []
    if real["status"] != local["status"]:
        problems.append("status: real %s, local %s" % (real["status"], local["status"]))
    locations = [
        placeholders(a["headers"].get("location", "<none>"), ids)
        for a, ids in ((real, real_ids), (local, local_ids))
    ]
    if locations[0] != locations[1]:
        problems.append("location: real %r, local %r" % tuple(locations))
    errors = [_error(norm(real["body"], real_ids)), _error(norm(local["body"], local_ids))]
    if errors[0] or errors[1]:
        if errors[0] != errors[1]:
            problems.append("error: real %r, local %r" % tuple(errors))
        return problems
    sigs = [signature(real["body"]), signature(local["body"])]
    for path in sorted(set(sigs[0]) | set(sigs[1])):
        if any(path == i or path.startswith(i + ".") or path.startswith(i + "[]") for i in ignore):
            continue
        kinds = [sorted(s.get(path, ())) for s in sigs]
        if kinds[0] != kinds[1]:
            problems.append(
                "%s: real %s, local %s"
                % (path, "|".join(kinds[0]) or "absent", "|".join(kinds[1]) or "absent")
            )
    for path in values:
        got = [
            norm(at(real["body"], path), real_ids),
            norm(at(local["body"], path), local_ids),
        ]
        if got[0] != got[1]:
            problems.append("value %s: real %r, local %r" % (path, *got))
    return problems
