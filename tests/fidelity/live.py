"""Run a recorder's cases live against a real service and a local cloud at
once, and compare every exchange with ``differential``'s rules.

The recorders (``record_neutron.py``, ``record_cinder.py``,
``record_glance.py``) send every request through
``self.sessions[caller].request(url, method, ...)``, as a keystoneauth
``Session`` does. :class:`LocalSession` answers that call from a local
cloud (in-process WSGI, no sockets), so each recorder runs its own case
functions twice, unchanged: once against the real service (its own
``__init__``, login, members and clean-up), once against a fresh local
cloud (``member`` = demo, ``other`` = alt, ``admin`` = admin; the same run
tag). Nothing is written to ``tests/fixtures``: :class:`Capture` keeps the
cases and every exchange's answer in memory.

Every real request goes to 127.0.0.1 with the recorder's timeout; the real
side's clean-up is the recorder's own (bounded waits), and whatever it
could not delete is reported.
"""

import json as jsonlib
import pathlib
import types
import urllib.parse
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from tests.fidelity.clouds import Answer
from tests.fidelity.differential import Difference
from tests.fidelity.differential import Pair
from tests.fidelity.differential import known as known_difference
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.wsgi_client import Client

# the real services' ports and the local cloud's mount of each
MOUNTS = {"9696": "/network", "8776": "/volume", "9292": "/image", "5000": ""}
USERS = {"member": "demo", "other": "alt", "admin": "admin"}
#: ``adapt(caller, method, path, body)``: the body the local cloud is sent
#: instead (a test module's listed adaptation, with its reason)
Adapt = Callable[[str, str, str, Any], Any]


class LocalResponse:
    """What the recorders read of a keystoneauth response."""

    def __init__(self, status: int, headers: dict[str, str], content: bytes):
        self.status_code = status
        self.headers = headers  # lower-cased by the WSGI client
        self.content = content
        self.text = content.decode("utf-8", "replace")

    def json(self) -> Any:
        return jsonlib.loads(self.content)


class LocalSession:
    """A keystoneauth ``Session`` look-alike over a local cloud: the real
    service's URL is sent to the local cloud's mount of that service, with
    the caller's token (none when ``authenticated`` is false)."""

    def __init__(self, client: Client, caller: str, project_id: str, adapt: Adapt | None = None):
        self.client = client
        self.caller = caller
        self.token = client.token(USERS[caller])
        self.project_id = project_id
        self.adapt = adapt

    def get_project_id(self) -> str:
        return self.project_id

    def request(self, url: str, method: str, json: Any = None, data: Any = None,
                headers: dict[str, str] | None = None, authenticated: bool = True,
                **_ignored: Any) -> LocalResponse:  # fmt: skip
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname == "127.0.0.1", url
        path = MOUNTS[str(parts.port)] + parts.path + ("?" + parts.query if parts.query else "")
        if self.adapt is not None and json is not None:
            json = self.adapt(self.caller, method, parts.path, json)
        if isinstance(data, str):
            data = data.encode()
        result = self.client.request(
            method,
            path,
            json=json,
            body=data,
            headers=headers,
            token=self.token if authenticated else None,
        )
        return LocalResponse(result.status, dict(result.headers), result.body)


class Capture:
    """Mixed into a recorder: keeps each case (``cases``) and each
    exchange's full answer (``answers[case][exchange]``, an
    :class:`~tests.fidelity.clouds.Answer`) instead of writing files."""

    cases: dict[str, dict[str, Any]]
    answers: dict[str, dict[str, Answer]]
    case: dict[str, Any]
    case_name: str

    def raw(self, *args: Any, **kw: Any) -> Any:
        resp = super().raw(*args, **kw)  # type: ignore[misc]
        self.last = resp
        return resp

    def call(self, name: str, *args: Any, **kw: Any) -> Any:
        answer = super().call(name, *args, **kw)  # type: ignore[misc]
        resp = self.last
        self.answers.setdefault(self.case_name, {})[name] = Answer(
            resp.status_code, dict(resp.headers), resp.text
        )
        return answer

    def save(self, complete: bool = True) -> None:
        self.cases[self.case_name] = self.case


def real_recorder(recorder: type) -> Any:
    """The recorder class's own run against the real service, captured."""
    kind = type("Real" + recorder.__module__.rsplit("_", 1)[-1], (Capture, recorder), {})
    rec = kind()
    rec.side, rec.cases, rec.answers = "real", {}, {}
    return rec


def local_recorder(recorder: type, cloud: Any, tag: str, adapt: Adapt | None = None) -> Any:
    """The recorder class over ``cloud`` (its ``__init__``, which logs in to
    the real Keystone, replaced by the local users' sessions; ``adapt``
    rewrites the JSON bodies sent)."""
    kind = type("Local" + recorder.__module__.rsplit("_", 1)[-1], (Capture, recorder), {})
    rec: Any = object.__new__(kind)
    rec.tag, rec.adapt = tag, adapt
    rec.created, rec.case, rec.case_name = [], {}, ""
    rec.side, rec.cases, rec.answers = "local", {}, {}
    attach(rec, cloud)
    return rec


def attach(rec: Any, cloud: Any) -> None:
    """Point the local recorder ``rec`` at ``cloud``: its users' sessions,
    projects and ids."""
    client = Client(cloud)
    with cloud.store.read() as db:
        projects = {c: cloud.identity.project_id(db, u) for c, u in USERS.items()}
    rec.sessions = {c: LocalSession(client, c, projects[c], rec.adapt) for c in USERS}
    rec.projects = projects
    rec.ids = {c + "_project": p for c, p in projects.items()}
    rec.ids["tag"] = rec.tag


def run_both(
    real: Any,
    local: Any,
    cases: Mapping[str, Callable[[Any], None]],
    after_case: Callable[[Any], list[str]] | None = None,
    leftovers: list[str] | None = None,
) -> dict[str, str]:
    """Each case against each cloud, in order; ``{case: error}`` for the
    cases that raised on a side (their other exchanges still compared).
    ``after_case(rec)`` runs after each case on each side; what it could
    not delete in the real cloud goes to ``leftovers``."""
    errors: dict[str, str] = {}
    for name, case in cases.items():
        for rec in (real, local):
            rec.begin(name)
            try:
                case(rec)
            except Exception as exc:  # noqa: BLE001 - reported per exchange
                error = "%s raised in the %s cloud: %r" % (name, rec.side, exc)
                errors[name] = (errors[name] + "\n" if name in errors else "") + error
            rec.save()
            if after_case is not None:
                failed = after_case(rec)
                if rec is real and leftovers is not None:
                    leftovers += failed
    return errors


def compare(
    real: Any,
    local: Any,
    case: str,
    exchange: str,
    prepare: Callable[[str, Answer], Answer] | None = None,
    **rules: Any,
) -> list[str]:
    """What differs in one exchange (``Pair.differences``' rules, with
    each cloud's ids of the case as placeholders)."""
    answers = [rec.answers.get(case, {}).get(exchange) for rec in (real, local)]
    if None in answers:
        return ["%s: not sent (real %s, local %s)" % (exchange, *[a is not None for a in answers])]
    if prepare is not None:
        answers = [prepare(side, a) for side, a in zip(("real", "local"), answers, strict=True)]
    sides = [
        types.SimpleNamespace(name=n, ids=rec.cases[case]["ids"])
        for n, rec in (("real", real), ("local", local))
    ]
    return Pair(*sides).differences(*answers, **rules)


def rows(service: str, prefix: str, cases: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(case, exchange)`` of every exchange the recordings hold
    (``tests/fixtures/<service>/realcloud/<prefix>-<case>.json``): known at
    collection, with no real cloud."""
    return [
        (case, exchange)
        for case in cases
        for exchange in load_fixture(service, "realcloud", "%s-%s.json" % (prefix, case))[
            "exchanges"
        ]
    ]


def marked(found: list[tuple[str, str]], known: Mapping[tuple[str, str], str]) -> list[Any]:
    """The rows as parameters, those in ``known`` (row: reason) marked as
    known differences (strict: a fix shows)."""
    return [
        pytest.param(
            *row, id="%s:%s" % row, marks=[known_difference(known[row])] if row in known else []
        )
        for row in found
    ]


class Live:
    """One live run: both recorders and the cases that raised."""

    def __init__(self, real: Any, local: Any, errors: dict[str, str]):
        self.real = real
        self.local = local
        self.errors = errors

    def check(
        self,
        case: str,
        exchange: str,
        prepare: Callable[[str, Answer], Answer] | None = None,
        **rules: Any,
    ) -> None:
        """Raise :class:`Difference` when the exchange's answers differ;
        ``prepare(side, answer)`` is what is compared of each (a test
        module's listed normalisation)."""
        problems = compare(self.real, self.local, case, exchange, prepare, **rules)
        if problems:
            answers = [rec.answers.get(case, {}).get(exchange) for rec in (self.real, self.local)]
            raise Difference(
                "%s %s:\n  %s\nreal:  %r\nlocal: %r%s"
                % (
                    case,
                    exchange,
                    "\n  ".join(problems),
                    *answers,
                    "\n" + self.errors[case] if case in self.errors else "",
                )  # fmt: skip
            )


def both(
    recorder: type,
    cases: Mapping[str, Callable[[Any], None]],
    data_dir: Any,
    after_case: Callable[[Any], list[str]] | None = None,
    adapt: Adapt | None = None,
) -> Iterator[Live]:
    """Run ``cases`` with ``recorder`` against the real service and a fresh
    local cloud (in ``data_dir``, with ``answers.json``: both sides' answers,
    for triage); yields the :class:`Live` run, then deletes what the real side
    made and fails if anything is left there."""
    real = real_recorder(recorder)
    clouds: list[Any] = []
    leftovers: list[str] = []

    def new_cloud() -> Any:
        folder = pathlib.Path(data_dir) / ("cloud%d" % len(clouds))
        clouds.append(LocalCloud(Config(data_dir=str(folder), build_time=0),
                                 services=service_classes()))  # fmt: skip
        return clouds[-1]

    try:
        local = local_recorder(recorder, new_cloud(), real.tag, adapt)
        errors = run_both(real, local, cases, after_case, leftovers)
        answers = {
            rec.side: {c: {e: [a.status, a.body or a.text] for e, a in x.items()}
                       for c, x in rec.answers.items()}
            for rec in (real, local)
        }  # fmt: skip
        (pathlib.Path(data_dir) / "answers.json").write_text(jsonlib.dumps(answers, indent=1))
        yield Live(real, local, errors)
    finally:
        leftovers += real.cleanup()
        for cloud in clouds:
            cloud.close()
    assert not leftovers, "left in the real cloud: %s" % leftovers
