"""Send one request to both clouds and compare the answers.

Compared (a difference raises :class:`Difference`):

* the status code;
* the body's *signature*: every key path (recursively; list items merged
  under ``[]``) with the JSON type of its values;
* for an error, the fault name, its ``code`` and its message text;
* the headers in ``HEADERS`` (values) and ``PRESENT`` (presence only);
* the values at the paths a test names (``values=``).

What legitimately differs is normalised by the table ``NORMALISED`` below and
nowhere else: every entry names what, in which cloud, and why. Ids,
timestamps, host names and image ids are values, never compared as such; in
messages and ``values`` each cloud's own ids (``cloud.ids``) are replaced by
``{name}`` placeholders before comparing.
"""

import json as jsonlib
import re
from typing import Any

import pytest

# (cloud, path, replacement, reason): the value at ``path`` in that cloud's
# body is replaced before comparing (``[]``: every item of a list).
NORMALISED: list[tuple[str, str, Any, str]] = [
    (
        "real",
        "server.pinned_availability_zone",
        None,
        "the rig sets [DEFAULT] default_schedule_zone = nova (nova's default: none,"
        " null), so every real server is pinned to 'nova' (2.96+)",
    ),
    (
        "real",
        "servers[].pinned_availability_zone",
        None,
        "as server.pinned_availability_zone (list detail, 2.96+)",
    ),
    (
        "both",
        "hypervisor.uptime",
        None,
        "the rig's fake virt driver has no uptime (null); the local cloud plays a"
        " libvirt host, which reports one (2.88+)",
    ),
    ("both", "hypervisors[].uptime", None, "as hypervisor.uptime (list detail, 2.88+)"),
    (
        "real",
        "server.OS-EXT-SRV-ATTR:root_device_name",
        "/dev/vda",
        "the rig's fake virt driver names the root disk /dev/sda; the local cloud plays"
        " libvirt with virtio disks (/dev/vda), as nova with libvirt does (2.3+, admin)",
    ),
    (
        "real",
        "servers[].OS-EXT-SRV-ATTR:root_device_name",
        "/dev/vda",
        "as server.OS-EXT-SRV-ATTR:root_device_name (list detail)",
    ),
]
# Neutron (tests/fidelity/test_live_neutron.py)
NORMALISED += [
    (
        "both",
        path,
        [],
        "the rig's Neutron runs no DHCP agent, so no network is hosted in a zone ([]); the"
        " local one answers as a Neutron whose DHCP agent is in zone 'nova'",
    )
    for path in ("network.availability_zones", "networks[].availability_zones")
] + [
    (
        "both",
        path,
        [],
        "as network.availability_zones: the rig runs no L3 agent (a router's zones), no agent"
        " at all (the zone list)",
    )
    for path in ("router.availability_zones", "routers[].availability_zones", "availability_zones")
]
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# (regular expression, replacement, reason): applied to both clouds' error
# messages before comparing
MESSAGES: list[tuple[str, Any, str]] = [
    (
        r"already has \d+ instance\(s\)",
        "already has N instance(s)",
        "the real host also runs other sessions' servers",
    ),
    (
        r"for flavor \d+ and project",
        "for flavor N and project",
        "nova names its internal flavor row id, which counts every flavor ever made",
    ),
    (r"not found for \d+ / ", "not found for N / ", "as 'for flavor N' (access removal)"),
    (
        r"((?:still attached|for these ports is): )([^.]*)",
        lambda m: (
            m.group(1)
            + ", ".join(sorted(re.sub(_UUID, "{port}", p) for p in m.group(2).split(", ")))
        ),
        "Neutron's RouterInUse and NetworkInUse name ports no request named (a gateway's), in"
        " its database's order: their ids become {port}, sorted",
    ),
    (
        r"(Circular Dependency Found: \{)(.*)(\})$",
        lambda m: (
            m.group(1)
            + ", ".join(sorted(e.strip() for e in re.findall(r"[^,{]+ \{[^}]*\}", m.group(2))))
            + m.group(3)
        ),
        "Heat names a cycle's nodes in its graph's order, which varies from run to run (the"
        " recording has b first, a live run a): the entries are sorted",
    ),
]
# the highest microversion of each cloud: what "latest" resolves to (the
# local cloud implements up to 2.96; nova 34 up to 2.104)
MAXIMUM = {"real": "2.104", "local": "2.96"}

HEADERS = ("openstack-api-version", "x-openstack-nova-api-version", "vary", "content-type")
PRESENT = ("x-compute-request-id", "x-openstack-request-id")


class Difference(AssertionError):
    """The clouds answered differently (after normalisation)."""


def known(reason):
    """Mark a test (or a parameter) as showing a recorded difference, for
    triage: it must fail with a :class:`Difference`."""
    return pytest.mark.xfail(reason=reason, raises=Difference, strict=True)


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def signature(doc, path="$", into=None, names=None):
    """``{key path: set of JSON types}`` of a document; keys that are one
    of the cloud's ids (``names``: value to name, e.g. a host name keying
    the zone detail) become ``{name}``."""
    into = {} if into is None else into
    names = names or {}
    into.setdefault(path, set()).add(_kind(doc))
    if isinstance(doc, dict):
        for key, value in doc.items():
            key = "{%s}" % names[key] if key in names else key
            signature(value, "%s.%s" % (path, key), into, names)
    elif isinstance(doc, list):
        for item in doc:
            signature(item, path + "[]", into, names)
    return into


def _apply(doc, steps, replacement):
    if not steps or not isinstance(doc, dict):
        return
    step, rest = steps[0], steps[1:]
    key, is_list = (step[:-2], True) if step.endswith("[]") else (step, False)
    if key not in doc:
        return
    if is_list:
        for item in doc[key] if isinstance(doc[key], list) else []:
            _apply(item, rest, replacement)
    elif not rest:
        doc[key] = replacement
    else:
        _apply(doc[key], rest, replacement)


def normalise(cloud, body):
    for where, path, replacement, _reason in NORMALISED:
        if where in (cloud.name, "both"):
            _apply(body, path.split("."), replacement)
    return body


def placeholders(cloud, text, maximum=True):
    """``text`` with the cloud's own ids (and, with ``maximum``, its highest
    microversion) replaced by ``{name}``/``{max}``."""
    for name, value in sorted(cloud.ids.items(), key=lambda kv: -len(str(kv[1]))):
        if isinstance(value, int):
            # aggregate ids: small numbers, replaced only where nova names
            # an aggregate by them
            text = re.sub(r"(?<=aggregate )%d\b" % value, "{%s}" % name, text)
        elif value:
            text = re.sub(r"(?<![\w.-])%s(?![\w-]|\.\d)" % re.escape(value), "{%s}" % name, text)
    return text.replace(MAXIMUM[cloud.name], "{max}") if maximum else text


def _message(text):
    for pattern, replacement, _reason in MESSAGES:
        text = re.sub(pattern, replacement, text)
    return text


def _value(body, path):
    """The value at ``path`` (``a.0.b``); a trailing ``?`` asks only
    whether it is null (for timestamps)."""
    if path.endswith("?"):
        return _value(body, path[:-1]) is None
    for step in path.split("."):
        if isinstance(body, list):
            body = body[int(step)]
        elif isinstance(body, dict) and step in body:
            body = body[step]
        else:
            return "<absent>"
    return body


def _fault(body):
    """``(name, code, message)`` of a Nova or Cinder fault, or of a
    ``NeutronError`` (its ``type`` for the code)."""
    if isinstance(body, dict) and len(body) == 1:
        ((name, inner),) = body.items()
        if isinstance(inner, dict) and "message" in inner:
            return name, inner.get("code", inner.get("type")), inner["message"]
    return None


class Pair:
    """The real and the local cloud side by side."""

    def __init__(self, real, local):
        self.real = real
        self.local = local
        self.clouds = (real, local)

    def both(self, method, path, json=None, **kw):
        """The same request to each cloud: ``(real answer, local answer)``.

        ``path`` is formatted with each cloud's ids; ``json`` is a document
        or a function of the cloud's ids returning one.
        """
        answers = []
        for cloud in self.clouds:
            body = json(cloud.ids) if callable(json) else json
            answers.append(cloud.request(method, path.format(**cloud.ids), body, **kw))
        return tuple(answers)

    def check(self, method, path, json=None, values=(), keep=None, ignore=(), exact=False, **kw):
        """``both`` and compare; ``keep(ids, item)`` filters the items of
        the body's top-level lists (the real cloud is shared: compare only
        what the test made); ``ignore``: key paths left out, each with a
        reason in the calling test; ``exact``: every value compared too,
        but VOLATILE keys'."""
        real, local = self.both(method, path, json, **kw)
        # the version documents name each cloud's maximum too
        latest = kw.get("version") == "latest" or path.startswith("@")
        problems = self.differences(real, local, values, keep, ignore, latest, exact)
        if problems:
            raise Difference(
                "%s %s (%s):\n  %s\nreal:  %r\nlocal: %r"
                % (method, path, kw.get("version"), "\n  ".join(problems), real, local)
            )
        return real, local

    def differences(
        self,
        real,
        local,
        values=(),
        keep=None,
        ignore=(),
        latest=False,
        exact=False,
        headers=HEADERS,
        present=PRESENT,
        text=False,
    ):
        """What differs; ``headers`` compared by value, ``present`` by
        presence (Nova's by default); with ``text``, bodies that are not
        JSON (webob's error pages) as text, ids as placeholders."""
        problems = []
        latest = latest or real.status == 406
        if real.status != local.status:
            problems.append("status: real %d, local %d" % (real.status, local.status))
        for header in headers:
            got = [
                placeholders(c, a.headers.get(header, "<absent>"), latest)
                for c, a in zip(self.clouds, (real, local), strict=True)
            ]
            if got[0] != got[1]:
                problems.append("header %s: real %r, local %r" % (header, *got))
        for header in present:
            got = [header in a.headers for a in (real, local)]
            if got[0] != got[1]:
                problems.append("header %s present: real %s, local %s" % (header, *got))
        if text and real.body is None and local.body is None:
            texts = [
                _message(placeholders(c, a.text.strip(), latest))
                for c, a in zip(self.clouds, (real, local), strict=True)
            ]
            if texts[0] != texts[1]:
                problems.append("text: real %r, local %r" % tuple(texts))
            return problems
        bodies = []
        for cloud, answer in zip(self.clouds, (real, local), strict=True):
            body = normalise(cloud, answer.body)
            if keep and isinstance(body, dict):
                for key, items in body.items():
                    if isinstance(items, list):
                        body[key] = [i for i in items if keep(cloud.ids, i)]
            bodies.append(body)
        faults = [_fault(b) for b in bodies]
        if faults[0] or faults[1]:
            texts = [
                f and (f[0], f[1], _message(placeholders(c, f[2])))
                for c, f in zip(self.clouds, faults, strict=True)
            ]
            if texts[0] != texts[1]:
                problems.append("fault: real %r, local %r" % tuple(texts))
            return problems
        sigs = [
            signature(b, names={str(v): k for k, v in c.ids.items() if isinstance(v, str)})
            for c, b in zip(self.clouds, bodies, strict=True)
        ]
        for path in sorted(set(sigs[0]) | set(sigs[1])):
            if any(path == "$." + i or path.startswith("$." + i + ".") for i in ignore):
                continue
            kinds = [sorted(s.get(path, ())) for s in sigs]
            if kinds[0] != kinds[1]:
                problems.append(
                    "%s: real %s, local %s"
                    % (path, "|".join(kinds[0]) or "absent", "|".join(kinds[1]) or "absent")
                )
        for path in values:
            got = [_value(b, path) for b in bodies]
            got = [
                jsonlib.loads(placeholders(c, jsonlib.dumps(v), latest))
                for c, v in zip(self.clouds, got, strict=True)
            ]
            if got[0] != got[1]:
                problems.append("value %s: real %r, local %r" % (path, *got))
        if exact:
            leaves = [
                _leaves(jsonlib.loads(placeholders(c, jsonlib.dumps(b), latest)))
                for c, b in zip(self.clouds, bodies, strict=True)
            ]
            for path in sorted(set(leaves[0]) & set(leaves[1])):
                bare = re.sub(r"\.\d+(?=\.|$)", "", path)  # list positions left out
                if any(bare == "$." + i or bare.startswith("$." + i + ".") for i in ignore):
                    continue
                if leaves[0][path] != leaves[1][path]:
                    problems.append(
                        "value %s: real %r, local %r" % (path, leaves[0][path], leaves[1][path])
                    )
        return problems


# keys whose values are never compared by ``exact`` checks: they name or
# date things each cloud makes on its own (what they are is still compared
# through the signature)
VOLATILE = frozenset(
    {
        "id", "uuid", "links", "href", "created", "updated", "created_at", "updated_at",
        "launched_at", "OS-SRV-USG:launched_at", "hostId", "host_id", "adminPass",
        "private_key", "public_key", "fingerprint", "reservation_id",
        "OS-EXT-SRV-ATTR:instance_name", "OS-EXT-SRV-ATTR:reservation_id",
        "request_id", "start_time", "heartbeat", "disabled_reason_at",
    }
)  # fmt: skip


def _leaves(doc, path="$", into=None):
    """``{path: value}`` of a document's scalar leaves (list items by
    position), leaving VOLATILE keys out."""
    into = {} if into is None else into
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key not in VOLATILE:
                _leaves(value, "%s.%s" % (path, key), into)
    elif isinstance(doc, list):
        for index, item in enumerate(doc):
            _leaves(item, "%s.%d" % (path, index), into)
    else:
        into[path] = doc
    return into
