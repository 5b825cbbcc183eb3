"""The real Glance 33's answers (``tests/fixtures/image/realcloud``),
replayed against a fresh local cloud with no real cloud.

:class:`LocalRecorder` has the interface of ``tests.fidelity.record_glance``'s
``Recorder`` (``tag``, ``ids``, ``case``, ``raw``, ``call``, ``image``), so
the recorder's own case functions (``tests.fidelity.record_glance_cases``)
send the recorded requests in the recorded order to the local cloud
(in-process WSGI calls, no sockets): ``member`` is the demo user, ``other``
the alt user (a member of another project), ``admin`` the admin. Every
exchange must match the recorded one in status, error text (ids as
placeholders; webob's explanation dropped where Glance gives a detail, as
the local Glance raises only the detail), body key paths and JSON types
(:func:`differences`), and the values in ``VALUES``; ``DIFFERENT`` lists
the justified exceptions with their reason.
"""

import json
import re
from typing import Any

import pytest

from tests.fidelity import record_glance_cases as cases
from tests.fidelity.differential import signature
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_HEX = re.compile(r"\b[0-9a-f]{32}\b")
_USERS = {"member": "demo", "other": "alt", "admin": "admin"}
# the properties of Glance's etc/schema-image.json, which packaged Glances
# install in /etc/glance and the rig's (from PyPI) has not: its image
# schema is the built-in one
_SCHEMA_FILE = (
    "architecture",
    "cinder_encryption_key_deletion_policy",
    "cinder_encryption_key_id",
    "description",
    "instance_uuid",
    "kernel_id",
    "os_distro",
    "os_version",
    "ramdisk_id",
)
# key paths whose shape differs for the reason given (prefixes match)
IGNORE: dict[tuple[str, str], tuple[str, ...]] = {
    ("imports", "schema_image"): tuple("$.properties.%s" % p for p in _SCHEMA_FILE),
    ("imports", "schema_images"): tuple(
        "$.properties.images.items.properties.%s" % p for p in _SCHEMA_FILE
    ),
    # the rig never ran ``glance-manage db_load_metadefs``: no namespaces
    # (the local Glance has Glance's seeded ones)
    ("imports", "metadefs_namespaces"): ("$.namespaces[]", "$.next"),
}
# exchanges where the local Glance answers otherwise, with its status
# and the reason
DIFFERENT: dict[tuple[str, str], tuple[int, str]] = {
    # Glance's create calls .get on a JSON list body and answers a 500
    ("create", "create_list_body"): (400, "a crash of the real one: the schema's 400 here"),
}
# headers compared by value (of an error, its JSON document is: the
# recordings asked for JSON, see below)
HEADERS = (
    "content-type",
    "content-md5",
    "accept-patch",
    "openstack-image-import-methods",
    "openstack-image-store-ids",
)
VALUES: dict[str, tuple[str, ...]] = {
    "create_defaults": ("visibility", "status", "protected", "os_hidden", "tags", "min_ram"),
    "show_uploaded": ("status", "size", "checksum", "os_hash_algo", "os_hash_value"),
    "show_deactivated": ("status",),
    "member_accepts": ("status",),
}


class Answer:
    """What the case functions read of a keystoneauth response."""

    def __init__(self, status: int, headers: dict[str, str], content: bytes):
        self.status_code = status
        self.headers = headers
        self.content = content
        self.text = content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


class LocalRecorder:
    """The recorder's interface over a local cloud."""

    def __init__(self, data_dir: Any, tag: str):
        self.cloud = make_cloud(data_dir)
        self.client = Client(self.cloud)
        self.tokens = {caller: self.client.token(user) for caller, user in _USERS.items()}
        with self.cloud.store.read() as db:
            self.ids: dict[str, str] = {
                caller + "_project": self.cloud.identity.project_id(db, user)
                for caller, user in _USERS.items()
            }
        self.ids["tag"] = tag
        self.tag = tag
        self.case: dict[str, Any] = {"ids": dict(self.ids), "exchanges": {}}

    def close(self) -> None:
        self.cloud.close()

    def raw(
        self,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        data: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        sent = {"Accept": "application/json"}
        if body is not None:
            sent["Content-Type"] = "application/json"
            data = json.dumps(body)
        sent.update(headers or {})
        if isinstance(data, str):
            data = data.encode()
        result = self.client.request(
            method,
            "/image" + path + ("?" + query if query else ""),
            body=data,
            headers=sent,
            token=self.tokens[caller],
        )
        return Answer(result.status, dict(result.headers), result.body)

    def call(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        data: Any = None,
        headers: dict[str, str] | None = None,
        note: str | None = None,
        **ids: str,
    ) -> tuple[int, Any]:
        self.case["ids"].update(ids)
        ids = self.case["ids"]
        answer = self.raw(
            method, path.format(**ids), body, caller, query.format(**ids), data, headers
        )
        parsed = _body_of(answer)
        self.case["exchanges"][name] = {
            "status": answer.status_code,
            "headers": answer.headers,
            "body": parsed,
        }
        return answer.status_code, parsed

    def image(self, record: str | None, body: Any, caller: str = "member") -> tuple[int, Any]:
        if record:
            return self.call(record, "POST", "/v2/images", body, caller)
        answer = self.raw("POST", "/v2/images", body, caller)
        return answer.status_code, _body_of(answer)


def _body_of(answer: Answer) -> Any:
    if not answer.content:
        return None
    try:
        return answer.json()
    except ValueError:
        pass
    try:
        return answer.content.decode("utf-8")
    except UnicodeDecodeError:
        return "<%d bytes of data>" % len(answer.content)


def _ids(text: str) -> str:
    return _HEX.sub("{hex}", _UUID.sub("{uuid}", text))


def real_message(body: Any) -> str:
    """A recorded webob JSON error's text: its detail, else its explanation."""
    explanation, _, detail = body["message"].partition("<br /><br />")
    return _ids(detail.strip() or explanation.strip())


def differences(
    real: dict[str, Any], local: dict[str, Any], key: tuple[str, str], tag: str
) -> list[str]:
    """What differs between a recorded exchange and the local one; of a
    listing also the names, in order, of the images of the run (``tag``)."""
    problems: list[str] = []
    if key in DIFFERENT:
        status, _reason = DIFFERENT[key]
        return [] if local["status"] == status else ["status: local %s" % local["status"]]
    if real["status"] != local["status"]:
        problems.append("status: real %s, local %s" % (real["status"], local["status"]))
        problems.append("body: real %r, local %r" % (real["body"], local["body"]))
        return problems
    if real["status"] >= 400:
        # webob's JSON document, asked for by the recorder's Accept
        if not isinstance(local["body"], dict):
            return ["error: real %r, local %r" % (real["body"], local["body"])]
        texts = real_message(real["body"]), real_message(local["body"])
        if texts[0] != texts[1]:
            problems.append("error: real %r, local %r" % texts)
        for field in ("code", "title"):
            if real["body"][field] != local["body"].get(field):
                problems.append(
                    "%s: real %r, local %r"
                    % (field, real["body"][field], local["body"].get(field))
                )
        return problems
    for header in HEADERS:
        if header in real["headers"] and real["headers"][header] != local["headers"].get(header):
            values = real["headers"][header], local["headers"].get(header)
            problems.append("%s: real %r, local %r" % (header, *values))
    if isinstance(real["body"], str) or real["body"] is None:
        if real["body"] != local["body"] and not str(real["body"]).startswith("<"):
            problems.append("body: real %r, local %r" % (real["body"], local["body"]))
        return problems
    sigs = [_shape(real["body"]), _shape(local["body"])]
    ignore = IGNORE.get(key, ())
    for path in sorted(set(sigs[0]) | set(sigs[1])):
        if any(path.startswith(i) for i in ignore):
            continue
        if sigs[0].get(path) != sigs[1].get(path):
            problems.append("%s: real %s, local %s" % (path, sigs[0].get(path), sigs[1].get(path)))
    if isinstance(real["body"].get("images"), list):
        names = _run_names(real["body"], tag), _run_names(local["body"], tag)
        if names[0] != names[1]:
            problems.append("images: real %s, local %s" % names)
    for path in VALUES.get(key[1], ()):
        values = real["body"].get(path), local["body"].get(path)
        if values[0] != values[1]:
            problems.append("value %s: real %r, local %r" % (path, *values))
    return problems


def _run_names(body: Any, tag: str) -> list[str]:
    """The names of a listing's images made by the run, in order."""
    return [i["name"] for i in body.get("images", []) if (i.get("name") or "").startswith(tag)]


def _shape(body: Any) -> dict[str, list[str]]:
    """Key paths and JSON types of a body; an image list's images are
    compared by their Glance keys (the rig's own images carry properties
    of its setup)."""
    if isinstance(body, dict) and isinstance(body.get("images"), list):
        body = dict(body, images=[_core(i) for i in body["images"]])
    shape = {}
    for path, kinds in signature(body).items():
        if "[]" in path:
            # items of a list: each key's types, whichever items are null
            kinds = kinds - {"null"}
        if kinds:
            shape[path] = sorted(kinds)
    return shape


def _core(image: dict[str, Any]) -> dict[str, Any]:
    recorded_keys = load_fixture("image", "realcloud", "glance-33-create.json")["exchanges"]
    keys = recorded_keys["create_defaults"]["body"]
    return {k: v for k, v in image.items() if k in keys}


def replay(tmp_path: Any, case: str) -> list[str]:
    """Run ``case`` against a local cloud; every difference found."""
    recorded = load_fixture("image", "realcloud", "glance-33-%s.json" % case)
    rec = LocalRecorder(tmp_path, recorded["ids"]["tag"])
    try:
        cases.CASES[case](rec)
    finally:
        rec.close()
    problems = []
    for name, real in recorded["exchanges"].items():
        local = rec.case["exchanges"].get(name)
        if local is None:
            problems.append("%s: not sent" % name)
            continue
        found = differences(real, local, (case, name), rec.tag)
        problems += ["%s: %s" % (name, p) for p in found]
    return problems


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_replay(tmp_path: Any, case: str) -> None:
    problems = replay(tmp_path, case)
    assert problems == [], "\n".join(problems)
