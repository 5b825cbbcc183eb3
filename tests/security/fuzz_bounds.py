"""The boundary cases of the fuzzer's integer and size bounds (issue 19,
finding 9): for one route, every request that puts one boundary value in
one place — a path parameter, a query parameter the route reads, a header
(``Content-Length``, Swift's metadata and expiry headers, the microversion
headers), a leaf of a valid body — plus whole bodies at the limits (empty,
nested just within and just past ``app.MAX_JSON_DEPTH``, just within and
just past the service's ``max_body``).

Each case changes one place only, the others are the caller's own valid
ids and a valid body, so the value reaches the code behind the first
checks. Cases are enumerated, not drawn: every route gets every one.
"""

import dataclasses
import inspect
import json
import re
from unittest import mock

from occli.localcloud import app

INTS = [0, -1, 2**31, 2**63 - 1, 2**63, 2**64, 10**30, -(10**30)]
HUGE_TEXT = "9" * 5000
# path segments, query values and header values
TEXTS = [str(n) for n in INTS] + ["1e308", "-1e308", "", "0x7fffffffffffffff", HUGE_TEXT]
# leaves of a body
LEAVES = [*INTS, 1e308, -1e308, "", str(2**63), str(10**30), HUGE_TEXT]
# query parameters that look like integers get every TEXTS, others these
INTEGER_NAME = re.compile(
    r"limit|offset|page|marker|size|count|min|max|ram|disk|vcpus|length|port|since|_at$|id$"
)
FEW_TEXTS = [str(2**63), "-1", "", HUGE_TEXT]
# the largest body actually sent
SENT_BODY_MAX = 8 * 1024 * 1024
# query parameters of pagination, sent to every GET route
PAGING = ("limit", "marker", "offset", "page")
# parameters a route's handler names in its own source
_QUERY_NAME = re.compile(
    r"""(?:\.arg\(|query\.get\(|query\[)\s*"([^"]+)"|"([^"]+)"\s+(?:not\s+)?in\s+req\.query"""
)
MICROVERSION_HEADERS = {
    "compute": [("OpenStack-API-Version", "compute %s"), ("X-OpenStack-Nova-API-Version", "%s")],
    "volume": [("OpenStack-API-Version", "volume %s")],
}
MICROVERSIONS = ["2.%d" % 2**63, "3.%d" % 10**30, "%d.1" % 2**64, "2.-1", "-2.1", "1e308", ""]
SWIFT_HEADERS = (
    "X-Object-Meta-Fuzz",
    "X-Container-Meta-Fuzz",
    "X-Account-Meta-Fuzz",
    "X-Delete-At",
    "X-Delete-After",
    "X-Container-Meta-Quota-Bytes",
    "X-Container-Meta-Quota-Count",
    "X-Account-Meta-Quota-Bytes",
    "Range",
)


@dataclasses.dataclass
class Case:
    """One request: ``where`` names the place of the boundary value."""

    where: str
    path: str
    query: str = ""
    headers: dict = dataclasses.field(default_factory=dict)
    body: bytes = b""


class _Reading(dict):
    """A parsed query string that records the names a handler looks up."""

    names: set = set()

    def get(self, name, default=None):
        self.names.add(name)
        return super().get(name, default)

    def __getitem__(self, name):
        self.names.add(name)
        return super().__getitem__(name)

    def __contains__(self, name):
        self.names.add(name)
        return super().__contains__(name)


def names_read(call):
    """The query parameters the request ``call()`` looks up."""
    parse = app.parse_qs
    names = set()

    def reading(*args, **kwargs):
        query = _Reading(parse(*args, **kwargs))
        query.names = names
        return query

    with mock.patch.object(app, "parse_qs", reading):
        call()
    return names


def names_in_source(handler):
    """The query parameters ``handler``'s own source names."""
    try:
        source = inspect.getsource(handler)
    except (OSError, TypeError):
        return set()
    return {a or b for a, b in _QUERY_NAME.findall(source)}


def fill(template, ids, name=None, value=None):
    """``template`` with the caller's ids, ``value`` for ``{name}``."""

    def one(match):
        if match.group(1) == name:
            return value
        return ids.get(match.group(1), "x")

    return re.sub(r"\{(\w+)\}", one, template)


def _leaves(value, where=()):
    """``(path, leaf)`` of every scalar in ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*where, index))
    else:
        yield where, value


def _replaced(value, where, leaf):
    if not where:
        return leaf
    head, rest = where[0], where[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, leaf)}
    return [_replaced(item, rest, leaf) if i == head else item for i, item in enumerate(value)]


def _nested(depth):
    return b'{"a": ' * (depth - 1) + b"[]" + b"}" * (depth - 1)


def _sized(size):
    """A JSON object of exactly ``size`` bytes."""
    frame = b'{"a": ""}'
    return frame[:-2] + b"a" * (size - len(frame)) + frame[-2:]


def cases(service, method, template, ids, seeds, query_names, max_body, twin=False):
    """Every boundary case of one route (see the module docstring); of a
    ``twin`` (compute's and cinder's ``/{project_id}/`` form of a route,
    the same handler) only its ``{project_id}`` and ``Content-Length``."""
    valid = fill(template, ids)
    body = json.dumps(seeds[0]).encode() if seeds else b""
    found = []
    for name in re.findall(r"\{(\w+)\}", template):
        if twin and name != "project_id":
            continue
        for text in TEXTS:
            found.append(
                Case("path %s=%.20r" % (name, text), fill(template, ids, name, text), body=body)
            )
    # a refused DELETE is safe to send with the caller's own ids; another
    # header or query value could let it delete them
    if method != "DELETE" and not twin:
        for name in sorted(query_names):
            for text in TEXTS if INTEGER_NAME.search(name) else FEW_TEXTS:
                found.append(
                    Case("query %s=%.20r" % (name, text), valid, "%s=%s" % (name, text), body=body)
                )
        for header, form in MICROVERSION_HEADERS.get(service, ()):
            for text in MICROVERSIONS:
                found.append(
                    Case("header %s" % header, valid, headers={header: form % text}, body=body)
                )
        if service == "objectstore":
            for header in SWIFT_HEADERS:
                for text in TEXTS:
                    headers = {header: "bytes=0-%s" % text if header == "Range" else text}
                    found.append(
                        Case("header %s=%.20r" % (header, text), valid, headers=headers, body=body)
                    )
        for text in ("-1", "", "1e308", str(2**63)):
            found.append(
                Case(
                    "Content-Length %r" % text, valid, headers={"Content-Length": text}, body=body
                )
            )
    for text in (str(max_body + 1), str(2**64), str(10**30)):
        found.append(
            Case("Content-Length %s" % text, valid, headers={"Content-Length": text}, body=body)
        )
    if method in ("POST", "PUT", "PATCH") and not twin:
        for seed in seeds:
            for where, _ in _leaves(seed):
                for leaf in LEAVES:
                    changed = json.dumps(_replaced(seed, where, leaf)).encode()
                    found.append(
                        Case(
                            "body %s=%.20r" % ("/".join(map(str, where)), leaf),
                            valid,
                            body=changed,
                        )
                    )
        # bodies of a service's max_body itself (bigger ones, e.g. Swift's
        # objects: their declared Content-Length above)
        if max_body <= SENT_BODY_MAX:
            for size in (max_body, max_body + 1):
                found.append(Case("body of %d bytes" % size, valid, body=_sized(size)))
        for depth in (app.MAX_JSON_DEPTH, app.MAX_JSON_DEPTH + 1):
            found.append(Case("body %d deep" % depth, valid, body=_nested(depth)))
        found.append(Case("empty body", valid))
    return found
