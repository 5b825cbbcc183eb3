"""Fault injection: make the next N matching requests fail on purpose.

A rule matches on HTTP method (``*`` for any) and a regular expression
searched in the request path with RE2 (linear time: no pattern an admin
adds can stall the requests it is matched against; backreferences and
lookarounds are refused), and applies to the next ``count`` matching
requests. Kinds:

* ``status`` — answer with HTTP status ``status`` (default 503) in the
  owning service's error shape;
* ``delay`` — sleep ``seconds`` (default 1) and then handle normally;
* ``close`` — drop the connection without any response;
* ``malformed`` — answer 200 with a body that is not JSON.

Rules come from ``--fault METHOD:PATHREGEX:COUNT:KIND[:ARG]`` at start-up
or from the admin-only API under ``/localcloud/faults``, whose own paths
are never matched. They live in the cloud's database (table
``localcloud_faults``), shared by all worker processes of ``--workers N``;
a cloud starting up replaces the rules left by an earlier run.
"""

import re
import time

from occli.localcloud.app import DropConnection
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.common import SQLITE_INTEGER_MAX
from occli.localcloud.common import fits_integer

KINDS = ("status", "delay", "close", "malformed")
MALFORMED_BODY = b"<html><body>upstream garbled the response</body></html>"
EXEMPT_PREFIX = "/localcloud"
_SPEC = re.compile(
    r"^(?P<method>[A-Za-z*]+):(?P<path>.+):(?P<count>\d+):"
    r"(?P<kind>%s)(?::(?P<arg>[^:]+))?$" % "|".join(KINDS)
)


def parse_spec(spec):
    """``METHOD:PATHREGEX:COUNT:KIND[:ARG]`` → rule dict (ValueError if bad)."""
    m = _SPEC.match(spec)
    if not m:
        raise ValueError(
            "invalid fault %r: expected METHOD:PATHREGEX:COUNT:"
            "KIND[:ARG] with KIND one of %s" % (spec, ", ".join(KINDS))
        )
    rule = {"method": m["method"], "path": m["path"], "count": int(m["count"]), "kind": m["kind"]}
    if m["arg"] is not None:
        if m["kind"] == "status":
            rule["status"] = m["arg"]
        elif m["kind"] == "delay":
            rule["seconds"] = m["arg"]
        else:
            raise ValueError("invalid fault %r: kind %s takes no argument" % (spec, m["kind"]))
    return rule


class FaultRule:
    """One validated rule with its remaining count (guarded by the injector)."""

    def __init__(self, rule_id, method, path, count, kind, status=None, seconds=None, regex=None):
        self.id = rule_id
        self.method = method
        self.path = path
        self.regex = regex if regex is not None else compile_path(path)
        self.count = count
        self.remaining = count
        self.kind = kind
        self.status = status
        self.seconds = seconds

    @classmethod
    def from_dict(cls, rule_id, data):
        """Validate ``data`` (the API/--fault shape); ValueError if invalid."""
        if not isinstance(data, dict):
            raise ValueError("a fault rule must be an object")
        unknown = set(data) - {"method", "path", "count", "kind", "status", "seconds"}
        if unknown:
            raise ValueError("unknown fault rule keys: %s" % ", ".join(sorted(unknown)))
        method = data.get("method", "*")
        if not isinstance(method, str) or not re.fullmatch(r"[A-Za-z]+|\*", method):
            raise ValueError("method must be an HTTP method or '*'")
        path = data.get("path")
        if not isinstance(path, str) or not path:
            raise ValueError("path must be a non-empty regular expression")
        regex = compile_path(path)
        count = data.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("count must be a positive integer")
        if not fits_integer(count):
            raise ValueError("count must be at most %d" % SQLITE_INTEGER_MAX)
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError("kind must be one of %s" % ", ".join(KINDS))
        status = seconds = None
        if kind == "status":
            status = _number(data.get("status", 503), int, "status")
            if not 400 <= status <= 599:
                raise ValueError("status must be between 400 and 599")
        elif "status" in data:
            raise ValueError("status is only valid with kind 'status'")
        if kind == "delay":
            seconds = _number(data.get("seconds", 1), float, "seconds")
            if not 0 <= seconds <= 300:
                raise ValueError("seconds must be between 0 and 300")
        elif "seconds" in data:
            raise ValueError("seconds is only valid with kind 'delay'")
        return cls(rule_id, method.upper(), path, count, kind, status, seconds, regex)

    def matches(self, method, path):
        return (
            self.remaining > 0
            and self.method in ("*", method)
            and self.regex.search(path) is not None
        )

    def to_dict(self):
        data = {
            "id": self.id,
            "method": self.method,
            "path": self.path,
            "count": self.count,
            "remaining": self.remaining,
            "kind": self.kind,
        }
        if self.status is not None:
            data["status"] = self.status
        if self.seconds is not None:
            data["seconds"] = self.seconds
        return data


def compile_path(pattern):
    """``pattern`` compiled with RE2, whose search is linear in the path
    (Python's backtracking ``re`` can take minutes on ``^(a+)+$``);
    ValueError if RE2 cannot parse it."""
    import re2  # a local-cloud dependency, needed once a rule exists

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options=options)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise ValueError("path is not a valid regular expression: %s" % reason) from None


def _number(value, kind, name):
    if isinstance(value, bool):
        raise ValueError("%s must be a number" % name)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise ValueError("%s must be a number" % name) from None


class Fault:
    """One triggered rule, applied by the Application to one request."""

    def __init__(self, rule):
        self.rule_id = rule.id
        self.kind = rule.kind
        self.status = rule.status
        self.seconds = rule.seconds

    def apply(self, req):
        """Return a Response to send, None to go on handling the request
        normally (after a delay), or raise HTTPError/DropConnection."""
        if self.kind == "delay":
            time.sleep(self.seconds)
            return None
        if self.kind == "status":
            raise HTTPError(self.status, "Injected fault (rule %s)." % self.rule_id)
        if self.kind == "close":
            raise DropConnection()
        return Response(200, raw=MALFORMED_BODY)


def validate_spec(spec):
    """Check a ``--fault`` spec (ValueError if invalid); its rule dict."""
    rule = parse_spec(spec)
    FaultRule.from_dict("0", rule)
    return rule


FAULTS_TABLE = """
CREATE TABLE localcloud_faults (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    count INTEGER NOT NULL,
    remaining INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status INTEGER,
    seconds REAL
);
"""


class FaultInjector:
    """The fault rules of a cloud, kept in its database (the table
    ``localcloud_faults``, a migration of the admin service) so that every
    worker process of one cloud sees the same rules and counts: a use is
    consumed by one short write transaction (``UPDATE … SET remaining =
    remaining - 1 WHERE remaining > 0``), so a rule with count 1 fires
    exactly once whichever process serves the matching requests. Off (no
    rules) by default; a request with no rule left costs one autocommit
    ``SELECT`` (tens of microseconds)."""

    def __init__(self, store):
        self._store = store
        self._regexes = {}

    def reset(self, initial_rules=()):
        """Drop every rule (ids start again at 1) and add ``initial_rules``
        (``--fault`` specs or dicts): what a cloud starting up does."""
        rules = [
            FaultRule.from_dict("0", parse_spec(r) if isinstance(r, str) else r)
            for r in initial_rules or ()
        ]
        with self._store.transaction() as db:
            # an empty table is left untouched (SQLite's DELETE without
            # WHERE writes its root page even then): a cloud without rules,
            # as occli.testing starts per test, writes nothing at start and
            # so syncs nothing at start or close
            if db.execute("SELECT 1 FROM localcloud_faults LIMIT 1").fetchone():
                db.execute("DELETE FROM localcloud_faults")
            db.execute("DELETE FROM sqlite_sequence WHERE name = 'localcloud_faults'")
            for rule in rules:
                self._insert(db, rule)

    @staticmethod
    def _insert(db, rule):
        cur = db.execute(
            "INSERT INTO localcloud_faults (method, path, count, remaining, kind, status,"
            " seconds) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rule.method, rule.path, rule.count, rule.count, rule.kind, rule.status, rule.seconds),
        )
        return str(cur.lastrowid)

    def _rule(self, row):
        regex = self._regexes.get(row["path"])
        if regex is None:
            regex = self._regexes[row["path"]] = compile_path(row["path"])
        rule = FaultRule(
            str(row["id"]),
            row["method"],
            row["path"],
            row["count"],
            row["kind"],
            row["status"],
            row["seconds"],
            regex,
        )
        rule.remaining = row["remaining"]
        return rule

    def add(self, data):
        """Add a rule from its dict form; returns its dict (with ``id``)."""
        rule = FaultRule.from_dict("0", data)
        with self._store.transaction() as db:
            rule.id = self._insert(db, rule)
        return rule.to_dict()

    def rules(self):
        with self._store.read() as db:
            rows = db.execute("SELECT * FROM localcloud_faults ORDER BY id").fetchall()
        return [self._rule(row).to_dict() for row in rows]

    def remove(self, rule_id):
        """Remove a rule; False if there is no such rule."""
        try:
            number = int(rule_id)
        except ValueError:
            return False
        if not fits_integer(number):
            return False
        with self._store.transaction() as db:
            cur = db.execute("DELETE FROM localcloud_faults WHERE id = ?", (number,))
            return cur.rowcount > 0

    def clear(self):
        with self._store.transaction() as db:
            db.execute("DELETE FROM localcloud_faults")

    def match(self, req):
        """The Fault for ``req`` (consuming one use of the rule), or None."""
        if req.path == EXEMPT_PREFIX or req.path.startswith(EXEMPT_PREFIX + "/"):
            return None
        # one autocommit SELECT on a connection of its own (this thread's,
        # tracked by the store): no BEGIN/COMMIT, none of the request's
        rows = (
            self._store._conn("faults")
            .execute("SELECT * FROM localcloud_faults WHERE remaining > 0 ORDER BY id")
            .fetchall()
        )
        for row in rows:
            rule = self._rule(row)
            if not rule.matches(req.method, req.path):
                continue
            with self._store.transaction() as db:
                cur = db.execute(
                    "UPDATE localcloud_faults SET remaining = remaining - 1"
                    " WHERE id = ? AND remaining > 0",
                    (row["id"],),
                )
                if cur.rowcount:
                    return Fault(rule)
            # another thread or process used it up meanwhile: try the next
        return None


class AdminService(Service):
    """Admin-only control API of the local cloud (``/localcloud``)."""

    name = "localcloud"
    prefix = EXEMPT_PREFIX

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/faults", self.list_faults)
        self.route("POST", "/faults", self.add_fault)
        self.route("DELETE", "/faults", self.clear_faults)
        self.route("DELETE", "/faults/{rule_id}", self.delete_fault)

    def migrations(self):
        return [(self.name, [FAULTS_TABLE])]

    def before(self, req):
        if not req.context.is_admin:
            raise HTTPError(403, "The local cloud admin API requires the admin role.")

    def list_faults(self, req):
        return Response(200, {"faults": self.cloud.faults.rules()})

    def add_fault(self, req):
        try:
            rule = self.cloud.faults.add(req.json())
        except ValueError as exc:
            raise HTTPError(400, str(exc)) from None
        return Response(201, {"fault": rule})

    def clear_faults(self, req):
        self.cloud.faults.clear()
        return Response(204)

    def delete_fault(self, req):
        if not self.cloud.faults.remove(req.params["rule_id"]):
            raise HTTPError(404, "No fault rule %s." % req.params["rule_id"])
        return Response(204)
