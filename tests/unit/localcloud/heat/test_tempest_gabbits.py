"""heat-tempest-plugin's gabbi API tests (``tests/fixtures/heat/tempest-gabbits``)
replayed against the local cloud's Heat.

gabbi is not a dependency, so a small runner here does what gabbi does for
the forms these files use: tests run in order, each may refer to the one
before (``$LAST_URL``, ``$LOCATION``, ``$RESPONSE['a.b']``) or to a named one
(``$HISTORY['name'].$URL``), ``$ENVIRON['OS_TOKEN']``/``$ENVIRON['PREFIX']``
come from the caller's session, relative URLs are under the orchestration
endpoint, redirects are followed as httpx follows them when ``redirects`` is
true, ``poll`` retries until the expectations hold (bounded by its count times
its delay), then ``status``, ``response_headers`` (exact, or ``/regex/``
searched) and ``response_json_paths`` (``$.a.b[0]`` and ``[?(@.k='v')]``
filters, a single match compared as the value) are checked.

A test the local cloud answers differently is listed in ``EXPECTED`` with the
reason; it must still fail, so a fixed difference shows up here."""

import json
import pathlib
import re
import time
import urllib.parse

import pytest
import requests
import yaml

from tests.unit.localcloud.heat import harness

GABBITS = pathlib.Path(__file__).parents[3] / "fixtures" / "heat" / "tempest-gabbits"
FILES = sorted(p.stem for p in GABBITS.glob("*.yaml"))

# (file, test name) -> why the local cloud's answer differs from Heat's.
EXPECTED: dict[tuple[str, str], str] = {}

_HISTORY = r"""(?:\$HISTORY(?:\['(?P<case1>[^']+?)'\]|\["(?P<case2>[^"]+?)"\])\.)??"""
_ARG = r"""(?:\['(?P<arg1>[^']+?)'\]|\["(?P<arg2>[^"]+?)"\])"""
_REDIRECTS = {301, 302, 303, 307, 308}


def _replacer(key: str, arg: bool) -> re.Pattern:
    return re.compile(r"%s\$%s%s" % (_HISTORY, key, _ARG if arg else ""))


# gabbi's order of replacement (gabbi/case.py REPLACERS)
_ENVIRON = _replacer("ENVIRON", True)
_LOCATION = _replacer("LOCATION", False)
_URL = _replacer("URL", False)
_RESPONSE = _replacer("RESPONSE", True)

_STEP = re.compile(
    r"""\.(?P<key>[A-Za-z_][\w-]*)|\[(?P<index>-?\d+)\]|\[\?\(?(?P<cond>[^\]]*?)\)?\]"""
)
_COND = re.compile(r"""^\s*(?:@\.)?(?P<key>[\w-]+)\s*==?\s*(?P<q>['"])(?P<value>.*)(?P=q)\s*$""")


def json_path(data, path: str):
    """The value at ``path`` (one match) or the list of matches; ValueError if none."""
    if not path.startswith("$"):
        path = "$." + path
    rest, nodes = path[1:], [data]
    while rest:
        step = _STEP.match(rest)
        if step is None:
            raise ValueError("unsupported JSONPath %r" % path)
        rest = rest[step.end() :]
        found = []
        for node in nodes:
            if step["key"] is not None and isinstance(node, dict) and step["key"] in node:
                found.append(node[step["key"]])
            elif step["index"] is not None and isinstance(node, list):
                index = int(step["index"])
                if -len(node) <= index < len(node):
                    found.append(node[index])
            elif step["cond"] is not None and isinstance(node, list):
                cond = _COND.match(step["cond"])
                if cond is None:
                    raise ValueError("unsupported JSONPath filter %r" % step["cond"])
                found.extend(
                    item
                    for item in node
                    if isinstance(item, dict) and str(item.get(cond["key"])) == cond["value"]
                )
        nodes = found
    if not nodes:
        raise ValueError("JSONPath %r failed to match on data: %r" % (path, data))
    return nodes[0] if len(nodes) == 1 else nodes


def _is_regex(value) -> bool:
    return (
        isinstance(value, str) and len(value) > 1 and value.startswith("/") and value.endswith("/")
    )


class Run:
    """One gabbit file's tests against one cloud, in order."""

    def __init__(self, prefix: str, environ: dict[str, str]):
        self.prefix, self.environ = prefix, environ
        self.history: dict[str, dict] = {}
        self.prior: dict | None = None

    def _case(self, match: re.Match) -> dict:
        name = match["case1"] or match["case2"]
        case = self.history[name] if name else self.prior
        assert case is not None, "no prior test for %s" % match[0]
        return case

    def replace(self, message, escape: bool = False):
        """``message`` with gabbi's variables replaced (dicts and lists throughout)."""
        if isinstance(message, dict):
            return {k: self.replace(v, escape) for k, v in message.items()}
        if isinstance(message, list):
            return [self.replace(v, escape) for v in message]
        if not isinstance(message, str):
            return message
        quote = re.escape if escape else str

        def sub(pattern, value):
            return lambda text: pattern.sub(lambda m: quote(str(value(m))), text)

        steps = [
            sub(_ENVIRON, lambda m: self.environ[m["arg1"] or m["arg2"]]),
            sub(_LOCATION, lambda m: self._case(m)["location"]),
            lambda text: text.replace("$LAST_URL", self.prior["url"]) if self.prior else text,
            sub(_URL, lambda m: self._case(m)["url"]),
        ]
        for step in steps:
            message = step(message)
        whole = _RESPONSE.fullmatch(message)
        if whole:  # the whole message: keep the value's type (gabbi's preserve)
            return json_path(self._case(whole)["json"], whole["arg1"] or whole["arg2"])
        return sub(_RESPONSE, lambda m: json_path(self._case(m)["json"], m["arg1"] or m["arg2"]))(
            message
        )

    def absolute(self, url: str) -> str:
        if urllib.parse.urlsplit(url).scheme:
            return url
        if url.startswith(urllib.parse.urlsplit(self.prefix).path):
            return urllib.parse.urljoin(self.prefix, url)
        return self.prefix + url

    def send(self, method: str, url: str, headers: dict, body: bytes | None, redirects: bool):
        """The answer, following redirects as httpx does when asked to."""
        for _ in range(20):
            answer = requests.request(
                method, url, headers=headers, data=body, allow_redirects=False, timeout=30
            )
            location = answer.headers.get("location")
            if not (redirects and answer.status_code in _REDIRECTS and location):
                return answer
            url = urllib.parse.urljoin(url, location)
            if (answer.status_code == 303 and method != "HEAD") or (
                answer.status_code in (301, 302) and method == "POST"
            ):
                method, body = "GET", None
        raise AssertionError("too many redirects")

    def check(self, test: dict, answer: requests.Response, data) -> None:
        expected = [s.strip() for s in str(test.get("status", 200)).split("||")]
        assert str(answer.status_code) in expected, "status %s: %s" % (
            answer.status_code,
            answer.text[:2000],
        )
        for header, value in test.get("response_headers", {}).items():
            regex = _is_regex(str(value))
            value = self.replace(str(value), escape=regex)
            got = answer.headers.get(header)
            assert got is not None, "%s header not present: %s" % (header, dict(answer.headers))
            if regex:
                assert re.search(value[1:-1], got), "%s: %s !~ %s" % (header, got, value)
            else:
                assert got == value, "%s: %s != %s" % (header, got, value)
        for path, value in test.get("response_json_paths", {}).items():
            got = json_path(data, self.replace(path))
            if _is_regex(value):
                value = self.replace(value, escape=True)
                assert re.search(value[1:-1], str(got)), "%s: %s !~ %s" % (path, got, value)
            else:
                assert got == self.replace(value), "%s: %r != %r" % (path, got, value)

    def run(self, test: dict, defaults: dict) -> None:
        """Send ``test`` and check its answer; it becomes the prior test either way."""
        method = next(m for m in ("GET", "POST", "PUT", "PATCH", "DELETE") if m in test)
        url = self.replace(test[method])
        case = {"url": url, "location": None, "json": None}
        headers = self.replace(
            {**defaults.get("request_headers", {}), **test.get("request_headers", {})}
        )
        full = self.absolute(url)
        if test.get("query_parameters"):
            query = urllib.parse.urlencode(self.replace(test["query_parameters"]), doseq=True)
            full += ("&" if "?" in full else "?") + query
        body = None
        if "data" in test:
            body = json.dumps(self.replace(test["data"])).encode()
        poll = test.get("poll") or {}
        deadline = time.monotonic() + float(poll.get("count", 1)) * float(poll.get("delay", 1))
        try:
            while True:
                answer = self.send(method, full, headers, body, bool(test.get("redirects")))
                case["location"] = answer.headers.get("location")
                kind = answer.headers.get("content-type", "")
                case["json"] = answer.json() if "json" in kind and answer.content else None
                try:
                    self.check(test, answer, case["json"])
                    return
                except (AssertionError, ValueError):
                    if not poll or time.monotonic() > deadline:
                        raise
                time.sleep(0.05)
        finally:
            self.history[test["name"]] = self.prior = case


@pytest.fixture(scope="module")
def fixture():
    fx = harness.start()
    yield fx
    fx.stop()


@pytest.mark.parametrize("name", FILES)
def test_gabbit_file(fixture, name):
    """Every test of the file: the ones in EXPECTED fail, every other passes."""
    session = fixture.session()
    environ = {"OS_TOKEN": session.get_token(), "PREFIX": "api-" + name}
    endpoint = session.get_endpoint(service_type="orchestration", interface="public")
    suite = yaml.safe_load((GABBITS / ("%s.yaml" % name)).read_text())
    run = Run(endpoint.rstrip("/"), environ)
    outcome: list[tuple[str, str | None]] = []
    for test in suite["tests"]:
        try:
            run.run(test, suite.get("defaults", {}))
            outcome.append((test["name"], None))
        except (AssertionError, ValueError, KeyError) as exc:
            outcome.append((test["name"], "%s: %s" % (type(exc).__name__, exc)))
    failed = [(t, why) for t, why in outcome if why and (name, t) not in EXPECTED]
    assert not failed, failed
    failing = {t for t, why in outcome if why}
    fixed = [t for (f, t) in EXPECTED if f == name and t not in failing]
    assert not fixed, "now passing, drop from EXPECTED: %s" % fixed
    assert outcome, "no tests in %s" % name


def test_json_path_forms_of_the_gabbits():
    data = {"a": {"b": [{"id": "x", "v": 1}, {"id": "y", "v": 2}, {"id": "y", "v": 3}]}}
    assert json_path(data, "$.a.b[0].v") == 1
    assert json_path(data, "a.b[-1].id") == "y"
    assert json_path(data, "$.a.b[?(@.id='x')].v") == 1
    assert json_path(data, '$.a.b[?id = "y"].v') == [2, 3]
    assert json_path({"r": []}, "$.r") == []
    for missing in ("$.a.c", "$.a.b[3]", "$.a.b[?(@.id='z')].v"):
        with pytest.raises(ValueError):
            json_path(data, missing)


def test_replace_forms_of_the_gabbits():
    run = Run("http://h/v1/p", {"PREFIX": "api-x", "OS_TOKEN": "t"})
    run.history["one"] = {"url": "/one", "location": None, "json": {"s": {"id": "i1", "n": 4}}}
    run.prior = {
        "url": "http://h/v1/p/two",
        "location": "http://h/v1/p/l",
        "json": {"s": {"id": "i2"}},
    }
    assert run.replace("$LAST_URL/$RESPONSE['s.id']") == "http://h/v1/p/two/i2"
    assert run.replace("$HISTORY['one'].$URL") == "/one"
    assert run.replace("$HISTORY['one'].$RESPONSE['s.n']") == 4
    assert run.replace({"k": ["$ENVIRON['PREFIX']-s", "$LOCATION"]}) == {
        "k": ["api-x-s", "http://h/v1/p/l"]
    }
    assert run.replace("/$ENVIRON['PREFIX'].s/", escape=True) == r"/api\-x.s/"
    assert run.absolute("/stacks") == "http://h/v1/p/stacks"
    assert run.absolute("/v1/p/stacks") == "http://h/v1/p/stacks"


@pytest.mark.parametrize(
    "test",
    [
        {"name": "status", "GET": "/stacks", "status": 404},
        {"name": "header", "GET": "/stacks", "response_headers": {"content-type": "text/plain"}},
        {"name": "regex", "GET": "/stacks", "response_headers": {"content-type": "/^text/"}},
        {
            "name": "value",
            "GET": "/template_versions",
            "response_json_paths": {
                "$.template_versions[?(@.version='heat_template_version.2016-04-08')].type": "cfn"
            },
        },
        {"name": "pattern", "GET": "/stacks", "response_json_paths": {"$.stacks": "/^x/"}},
        {"name": "poll", "GET": "/stacks", "poll": {"count": 2, "delay": 0.1}, "status": 201},
    ],
)
def test_runner_refuses_a_wrong_expectation(fixture, test):
    session = fixture.session()
    endpoint = session.get_endpoint(service_type="orchestration", interface="public")
    run = Run(endpoint.rstrip("/"), {"OS_TOKEN": session.get_token()})
    defaults = {"request_headers": {"X-Auth-Token": "$ENVIRON['OS_TOKEN']"}}
    with pytest.raises(AssertionError):
        run.run(test, defaults)
    assert run.prior is run.history[test["name"]]
