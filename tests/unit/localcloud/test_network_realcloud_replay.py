"""The local Neutron answers the requests the real Neutron 29 was sent
(``tests/fixtures/network/realcloud/``) as it did: each recording is
replayed in order against a fresh local cloud (``member`` as demo,
``admin`` as admin), the ids the real cloud made swapped for the local
ones, and every status is compared, plus the error type and message of
every error and the JSON shape (keys and value types) of every answer.

What differs on purpose is listed in DEVIATIONS and SHAPE_IGNORED, each
with its reason.
"""

import json

import pytest

from tests.shape import shape_differences
from tests.unit.fakes import load_fixture

FILES = (
    "networks",
    "ports",
    "routers",
    "pools",
    "discovery",
    "cidrs",
    "port_security",
    "security_groups",
    "external",
)
# the provider extension (a network's segment) is not served locally (not
# in its /extensions): its attributes are unknown ones, as they are to a
# neutron that has not loaded it
PROVIDER = ("provider:network_type", "provider:physical_network", "provider:segmentation_id")
# exchange -> the local status, where the local cloud answers otherwise
DEVIATIONS: dict[str, int] = {}
# keys of successful answers not compared (on both sides)
SHAPE_IGNORED = PROVIDER
# free-form maps of the answers (only their values' types compared)
MAPS = frozenset({"tenant_id"})


def _fill(body, ids):
    """``body`` with each ``"{placeholder}"`` string replaced by its id."""
    if isinstance(body, dict):
        return {k: _fill(v, ids) for k, v in body.items()}
    if isinstance(body, list):
        return [_fill(v, ids) for v in body]
    if isinstance(body, str) and body[:1] == "{" and body[-1:] == "}" and body[1:-1] in ids:
        return ids[body[1:-1]]
    return body


def _unordered(message):
    """A RouterInUse text with its port ids sorted: neutron lists them by
    id, and the local ids sort otherwise than the real ones."""
    head, sep, ids = message.partition(" has ports still attached: ")
    return head + sep + ", ".join(sorted(ids.split(", "))) if sep else message


def _rule_key(rule):
    return tuple(
        str(rule.get(k))
        for k in ("direction", "ethertype", "protocol", "remote_ip_prefix", "port_range_min")
    ) + (rule.get("remote_group_id") is None,)


def _rules_sorted(body):
    """``body`` with each group's rules in one order: neutron lists them
    in its database's order (not their creation's)."""
    if isinstance(body, dict):
        return {
            k: sorted(map(_rules_sorted, v), key=_rule_key)
            if k == "security_group_rules" and all(isinstance(r, dict) for r in v)
            else _rules_sorted(v)
            for k, v in body.items()
        }
    if isinstance(body, list):
        return [_rules_sorted(v) for v in body]
    return body


def _ids(value):
    """Whether ``value`` is a non-empty list of ids (a port's groups)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _single(real, answer):
    """Whether both are lists of one item (a filtered GET: the same one)."""
    ((key, items),) = real.items() if len(real) == 1 else ((None, None),)
    return isinstance(items, list) and len(items) == 1 and len(answer.get(key) or ()) == 1


class Replay:
    """Sends one recording's requests to the local Neutron, learning which
    local id stands for each real one from the answers."""

    def __init__(self, neutron, name):
        data = load_fixture("network", "realcloud", "neutron-29-%s.json" % name)
        self.neutron = neutron
        self.exchanges = data["exchanges"]
        self.real = data["ids"]
        self.local = {
            "member_project": neutron.project_id("demo"),
            "admin_project": neutron.project_id("admin"),
            "tag": self.real["tag"],
        }
        self.swaps = [
            (self.real["member_project"], self.local["member_project"]),
            (self.real["admin_project"], self.local["admin_project"]),
        ]

    def swap(self, text):
        for real, local in self.swaps:
            text = text.replace(real, local)
        return text

    def learn(self, real, local):
        """The local id of each real one in two answers of the same shape."""
        if isinstance(real, dict) and isinstance(local, dict):
            for key in real.keys() & local.keys():
                if key.endswith("id") and isinstance(real[key], str) and real[key]:
                    self._swap_id(real[key], local[key])
                elif key == "security_groups" and _ids(real[key]) and _ids(local[key]):
                    # a port's groups: ids in the same order
                    for r, lo in zip(real[key], local[key], strict=False):
                        self._swap_id(r, lo)
                else:
                    self.learn(real[key], local[key])
        elif isinstance(real, list) and isinstance(local, list) and len(real) == len(local):
            for r, lo in zip(real, local, strict=True):
                self.learn(r, lo)

    def _swap_id(self, real, local):
        known = any(real == r for r, _ in self.swaps)
        if isinstance(local, str) and real != local and not known:
            self.swaps.append((real, local))
            for name, value in self.real.items():
                if value == real:
                    self.local[name] = local

    def send(self, key):
        request = self.exchanges[key]["request"]
        query = self.swap(request["query"])
        path = request["path"].format(**self.local) + ("?" + query if query else "")
        body = request["body"]
        if key == "ext_net":  # the admin's external network, without PROVIDER
            body = {"network": {k: v for k, v in body["network"].items() if k not in PROVIDER}}
        if body is not None:
            body = json.loads(self.swap(json.dumps(_fill(body, self.local))))
        user = "admin" if request["caller"] == "admin" else "demo"
        return self.neutron.call(request["method"], path, json=body, user=user)

    def differences(self, key, result):
        """What the local answer does differently (empty: none)."""
        exchange = self.exchanges[key]
        expected = DEVIATIONS.get(key, exchange["status"])
        answer = result.json() if result.body else None
        if result.status != expected:
            return [
                "%s: status %d, real %d: %s" % (key, result.status, expected, result.body[:300])
            ]
        if expected != exchange["status"]:
            return []
        real = exchange["body"]
        if expected >= 400 and "NeutronError" not in real:  # pecan's own (webob) errors
            return [] if answer == real else ["%s: %r, real %r" % (key, answer, real)]
        if expected >= 400:
            error = real["NeutronError"]
            want = (error["type"], _unordered(self.swap(error["message"])))
            got = (answer or {}).get("NeutronError", {})
            if (got["type"], _unordered(got["message"])) != want:
                return ["%s: %r, real %r" % (key, (got["type"], got["message"]), want)]
            return []
        if real is None or answer is None:
            return [] if real == answer else ["%s: body %r, real %r" % (key, answer, real)]
        if exchange["request"]["method"] in ("POST", "PUT") or _single(real, answer):
            self.learn(real, answer)
        real, answer, missing = self.matched(_rules_sorted(real), _rules_sorted(answer))
        if missing:
            return ["%s: not listed: %s" % (key, missing)]
        return [
            "%s: %s" % (key, p)
            for p in shape_differences(answer, real, maps=MAPS, ignore=SHAPE_IGNORED)
        ]

    def matched(self, real, answer):
        """A list answer's items that the real one listed too, both in the
        recorded order (the local cloud lists its seed's too), and the ids
        of the real ones it did not list."""
        if len(real) != 1:
            return real, answer, []
        ((key, items),) = real.items()
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and "id" in i for i in items
        ):
            return real, answer, []
        local = {item.get("id"): item for item in answer[key]}
        pairs = [
            (i, local.get(self.swap(i.get("id", ""))) or self.twin(i, answer[key])) for i in items
        ]
        missing = [i.get("id") for i, mine in pairs if mine is None]
        pairs = [p for p in pairs if p[1] is not None]
        return {key: [p[0] for p in pairs]}, {key: [p[1] for p in pairs]}, missing

    def twin(self, item, answer):
        """The local item of a device the answers never named by id (a
        floating IP's port): the one of the same device and owner."""
        device = self.swap(item.get("device_id") or "")
        for mine in answer:
            if device and (mine.get("device_id"), mine.get("device_owner")) == (
                device,
                item.get("device_owner"),
            ):
                self._swap_id(item["id"], mine["id"])
                return mine
        return None

    def run(self):
        problems = []
        for key in self.exchanges:
            problems += self.differences(key, self.send(key))
        return problems


@pytest.mark.parametrize("name", FILES)
def test_replay_as_neutron_29(neutron, name):
    problems = Replay(neutron, name).run()
    assert not problems, "\n".join(problems)


def test_the_extensions_are_neutron_29s_and_served(neutron):
    """Every extension the local Neutron lists is one Neutron 29 lists, with
    its description and date (a name may list fewer resources:
    standard-attr-tag's names only the local taggable ones), and each is
    served by alias."""
    recorded = load_fixture("network", "realcloud", "neutron-29-discovery.json")
    real = {e["alias"]: e for e in recorded["exchanges"]["extensions"]["body"]["extensions"]}
    local = neutron.get("/extensions").json()["extensions"]
    assert local
    for extension in local:
        assert extension["alias"] in real, extension["alias"]
        twin = real[extension["alias"]]
        assert {k: v for k, v in extension.items() if k != "name"} == {
            k: v for k, v in twin.items() if k != "name"
        }
        shown = neutron.get("/extensions/" + extension["alias"])
        assert shown.json() == {"extension": extension}
