"""The real Keystone 30's answers (``tests/fixtures/identity/realcloud``),
replayed against a fresh local cloud with no real cloud.

:class:`LocalRecorder` has the interface of ``tests.fidelity.record_keystone``'s
``Recorder`` (``tag``, ``ids``, ``case``, ``call``, ``login``, ``id_of``),
so the recorder's own case functions (``tests.fidelity.record_keystone_cases``)
send the recorded requests in the recorded order to the local cloud
(in-process WSGI calls, no sockets): ``member`` is the demo user (the member
role on the demo project), ``admin`` the admin. Every exchange must match
the recorded one in status, error code, title and message (ids and tokens
as placeholders), and body key paths and JSON types (:func:`differences`);
``DIFFERENT`` lists the justified exceptions with their reason.

A case whose routes the local Keystone does not serve yet is skipped while
its first route is missing (``CASE_ROUTES``, a route-exists check); an
exchange of a served case whose route is missing must be listed in
``UNSERVED`` and is compared as soon as the route exists.
"""

import json
import re
from typing import Any

import pytest

from tests.fidelity import record_keystone_cases as cases
from tests.fidelity.differential import signature
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

_HEX = re.compile(r"\b[0-9a-f]{32}\b")
_USERS = {"member": "demo", "admin": "admin"}
# the first route of a case still being built elsewhere: the case is
# skipped while the local Keystone has no such route
CASE_ROUTES = {
    "trusts": ("POST", "/v3/OS-TRUST/trusts"),
    "credentials": ("POST", "/v3/credentials"),
    "project_tags": ("PUT", "/v3/projects/p/tags/t"),
    "oauth1": ("POST", "/v3/OS-OAUTH1/consumers"),
    "domain_config": ("PUT", "/v3/domains/d/config"),
}
# exchanges of served cases whose local route does not exist yet
UNSERVED: dict[tuple[str, str], str] = {}
# exchanges where the local Keystone answers otherwise: its status and why
DIFFERENT: dict[tuple[str, str], tuple[int, str]] = {
    ("updates", "project_update_name_taken"): (
        409,
        "keystone's SQLite backend lets the IntegrityError of an update through (500);"
        " on MySQL, and for users, roles and domains, it is keystone's Conflict",
    ),
}
# key paths whose shape differs for the reason given (prefixes match)
IGNORE: dict[tuple[str, str], tuple[str, ...]] = {
    # the rig's services were made with a description; the local cloud's
    # seeded ones have none (keystone shows one only if it was given)
    ("system", "reader_list_services"): ("$.services[].description",),
    # the rig's Heat made trusts for its stacks; the local cloud has none
    ("system", "reader_list_OS-TRUST_trusts"): ("$.trusts[]",),
}
# lists whose length is the rig's own data (its services, endpoints,
# projects, users, Heat's trusts), not the run's: the others' lengths are
# compared, and a token's role names
RIG_LISTS = {
    ("app_credentials", "credential_token_catalog"),
    ("catalog_data", "region_list_member"),
    ("catalog_data", "endpoint_list_interface"),
    ("catalog_data", "catalog_admin"),
    ("catalog_data", "catalog_member"),
    ("project_tags", "filter_not-tags"),
    ("project_tags", "filter_not-tags-any"),
    ("tokens", "auth_catalog"),
    ("trusts", "list_admin"),
} | {
    ("system", "reader_list_" + n)
    for n in (
        "users",
        "projects",
        "domains",
        "roles",
        "groups",
        "regions",
        "services",
        "endpoints",
        "role_assignments",
        "role_inferences",
        "OS-TRUST_trusts",
    )
}
# keystone's text of every 401 without ``[DEFAULT] insecure_debug`` (the
# rig's default); the local Keystone answers the text keystone keeps for
# insecure_debug (its Unauthorized's own: "Invalid username or password",
# "User … has no access to project …"), which says the reason to a
# developer
GENERIC_401 = "The request you have made requires authentication."


class Answer:
    """What the case functions read of a response."""

    def __init__(self, status: int, headers: dict[str, str], content: bytes):
        self.status_code = status
        self.headers = headers
        self.content = content


class LocalRecorder:
    """The recorder's interface over a local cloud."""

    def __init__(self, data_dir: Any, tag: str):
        self.cloud = make_cloud(data_dir)
        self.client = Client(self.cloud)
        self.tokens = {caller: self.client.token(user) for caller, user in _USERS.items()}
        self.ids: dict[str, str] = {"tag": tag}
        with self.cloud.store.read() as db:
            for caller, user in _USERS.items():
                self.ids[caller + "_project"] = self.cloud.identity.project_id(db, user)
                self.ids[caller + "_user"] = self.cloud.identity.user_id(db, user)
        self.tag = tag
        self.case: dict[str, Any] = {"ids": dict(self.ids), "exchanges": {}}

    def close(self) -> None:
        self.cloud.close()

    def served(self, method: str, path: str) -> bool:
        """Whether the local Keystone has a route for ``method`` ``path``
        (a HEAD is served by its GET route)."""
        methods = {method, "GET"} if method == "HEAD" else {method}
        return any(r.method in methods and r.regex.match(path) for r in self.cloud.identity.routes)

    def raw(
        self,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        headers: dict[str, str] | None = None,
    ) -> Answer:
        sent = {"Accept": "application/json"}
        sent.update(headers or {})
        result = self.client.request(
            method,
            "/v3" + path + ("?" + query if query else ""),
            json=body,
            headers=sent,
            token=None if caller == "anonymous" else self.tokens[caller],
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
        headers: dict[str, str] | None = None,
        note: str | None = None,
        **ids: str,
    ) -> tuple[int, Any]:
        self.case["ids"].update(ids)
        known = self.case["ids"]
        local_path = path.format(**known)
        answer = self.raw(
            method,
            local_path,
            _fill(body, known),
            caller,
            query.format(**known),
            _fill(headers, known),
        )
        parsed = json.loads(answer.content) if answer.content else None
        self.case["exchanges"][name] = {
            "status": answer.status_code,
            "headers": answer.headers,
            "body": parsed,
            "served": self.served(method, "/v3" + local_path),
        }
        return answer.status_code, parsed

    def login(self, name: str, caller: str, auth: dict[str, Any]) -> tuple[int, Any]:
        status, answer = self.call(name, "POST", "/auth/tokens", {"auth": auth}, "anonymous")
        if status == 201:
            token = self.case["exchanges"][name]["headers"]["x-subject-token"]
            self.tokens[caller] = token
            self.case["ids"][caller + "_token"] = token
        return status, answer

    def id_of(self, name: str, answer: Any) -> str:
        ((_, value),) = answer.items()
        self.case["ids"][name] = value["id"]
        return value["id"]


def _fill(body: Any, ids: dict[str, str]) -> Any:
    """``body`` with each ``"{placeholder}"`` string replaced by its id."""
    if isinstance(body, dict):
        return {k: _fill(v, ids) for k, v in body.items()}
    if isinstance(body, list):
        return [_fill(v, ids) for v in body]
    if isinstance(body, str) and body[:1] == "{" and body[-1:] == "}" and body[1:-1] in ids:
        return ids[body[1:-1]]
    return body


def _text(text: str, ids: dict[str, str]) -> str:
    """An error text with tokens and ids as placeholders."""
    for name, value in ids.items():
        if name.endswith("_token"):
            text = text.replace(value, "{token}")
    return _HEX.sub("{id}", text)


def _shape(body: Any) -> dict[str, list[str]]:
    """Key paths and JSON types of a body (of a list's items, each key's
    types whichever items are null)."""
    shape = {}
    for path, kinds in signature(body).items():
        if "[]" in path:
            kinds = kinds - {"null"}
        if kinds:
            shape[path] = sorted(kinds)
    return shape


def _counted(real: Any, local: Any) -> list[str]:
    """The top-level lists' lengths and a token's role names that differ."""
    problems = []
    for key, items in real.items():
        if isinstance(items, list) and len(items) != len(local.get(key) or []):
            problems.append("%s: real %d items, local %d" % (key, len(items), len(local[key])))
    if "token" in real:
        names = [
            sorted(r["name"] for r in side["token"].get("roles", [])) for side in (real, local)
        ]
        if names[0] != names[1]:
            problems.append("token roles: real %s, local %s" % tuple(names))
    return problems


def differences(
    real: dict[str, Any],
    local: dict[str, Any],
    key: tuple[str, str],
    ids: tuple[dict[str, str], dict[str, str]],
) -> list[str]:
    """What differs between a recorded exchange and the local one."""
    if key in DIFFERENT:
        status, _reason = DIFFERENT[key]
        return [] if local["status"] == status else ["status: local %s" % local["status"]]
    if real["status"] != local["status"]:
        return [
            "status: real %s, local %s" % (real["status"], local["status"]),
            "body: real %r, local %r" % (real["body"], local["body"]),
        ]
    if real["body"] is None or local["body"] is None:
        return [] if real["body"] == local["body"] else ["body: local %r" % local["body"]]
    if real["status"] == 401 and real["body"]["error"]["message"] == GENERIC_401:
        return []
    if real["status"] >= 400:
        errors = [dict(side["body"]["error"]) for side in (real, local)]
        for error, known in zip(errors, ids, strict=True):
            error["message"] = _text(error["message"], known)
        return [] if errors[0] == errors[1] else ["error: real %r, local %r" % tuple(errors)]
    problems = []
    if ("x-subject-token" in real["headers"]) != ("x-subject-token" in local["headers"]):
        problems.append("X-Subject-Token: real %s" % ("x-subject-token" in real["headers"]))
    if key not in RIG_LISTS:
        problems += _counted(real["body"], local["body"])
    sigs = [_shape(real["body"]), _shape(local["body"])]
    ignore = IGNORE.get(key, ())
    for path in sorted(set(sigs[0]) | set(sigs[1])):
        if any(path.startswith(i) for i in ignore):
            continue
        if sigs[0].get(path) != sigs[1].get(path):
            problems.append("%s: real %s, local %s" % (path, sigs[0].get(path), sigs[1].get(path)))
    return problems


def replay(tmp_path: Any, case: str) -> list[str]:
    """Run ``case`` against a local cloud; every difference found."""
    recorded = load_fixture("identity", "realcloud", "keystone-30-%s.json" % case)
    rec = LocalRecorder(tmp_path, recorded["ids"]["tag"])
    try:
        if case in CASE_ROUTES and not rec.served(*CASE_ROUTES[case]):
            pytest.skip("the local Keystone does not serve %s %s yet" % CASE_ROUTES[case])
        cases.CASES[case](rec)
    finally:
        rec.close()
    problems = []
    for name, real in recorded["exchanges"].items():
        local = rec.case["exchanges"].get(name)
        if local is None:
            problems.append("%s: not sent" % name)
            continue
        if not local["served"]:
            if (case, name) not in UNSERVED:
                problems.append("%s: no local route" % name)
            continue
        if (case, name) in UNSERVED:
            problems.append("%s: served now: drop it from UNSERVED" % name)
        found = differences(real, local, (case, name), (recorded["ids"], rec.case["ids"]))
        problems += ["%s: %s" % (name, p) for p in found]
    return problems


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_replay(tmp_path: Any, case: str) -> None:
    problems = replay(tmp_path, case)
    assert problems == [], "\n".join(problems)
