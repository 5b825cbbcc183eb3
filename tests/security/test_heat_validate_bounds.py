"""Issue 9: ``POST /v1/{project}/validate`` stays bounded in time, memory
and answer size: heat's ``max_template_size`` (524288), YAML aliases
counted expanded, nesting bounded, and the answer bounded."""

import json
import tracemalloc

import pytest
import requests

from occli.localcloud.orchestration.fields import MAX_NESTING
from occli.localcloud.orchestration.templates import MAX_TEMPLATE_SIZE
from occli.localcloud.orchestration.templates import MAX_VALIDATE_RESPONSE
from occli.localcloud.orchestration.templates import TemplateLimitExceeded
from occli.localcloud.orchestration.templates import parse_template
from tests.unit.localcloud.heat_swift_harness import start_env

HEAD = "heat_template_version: 2013-05-23\n"
# 9 aliases per level, 8 levels: 9**8 (43 million) scalars once expanded,
# from about 400 bytes
BOMB = (
    HEAD
    + "parameter_groups:\n- a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        "  %s: &%s [%s]\n" % (name, name, ", ".join(["*" + prev] * 9))
        for prev, name in zip("abcdefg", "bcdefgh", strict=True)
    )
)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env, stop = start_env(tmp_path_factory.mktemp("cloud"))
    yield env
    stop()


def validate(env, template):
    return requests.post(
        env.demo.heat + "/validate", json={"template": template}, headers=env.demo.headers
    )


def assert_400(resp, type_, message=None):
    assert resp.status_code == 400, resp.text[:300]
    error = resp.json()["error"]
    assert error["type"] == type_
    if message is not None:
        assert error["message"] == message
    return error["message"]


def test_the_alias_bomb_is_refused_with_a_small_answer(env):
    assert len(BOMB) < 512
    resp = validate(env, BOMB)
    message = assert_400(resp, "RequestLimitExceeded")
    assert message == (
        "Request limit exceeded: Template size with YAML aliases expanded "
        "exceeds maximum allowed size (524288 bytes)."
    )
    assert len(resp.content) < 1000


def test_the_alias_bomb_is_refused_in_bounded_memory():
    tracemalloc.start()
    try:
        with pytest.raises(TemplateLimitExceeded):
            parse_template(BOMB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024


def test_aliases_within_the_bound_still_work(env):
    text = HEAD + (
        "parameter_groups:\n- label: &l grp\n  parameters: [p]\n"
        "- label: other\n  parameters: &ps [p, q]\n"
        "- label: *l\n  parameters: *ps\n"
        "parameters:\n  p: {type: string}\n  q: {type: string}\n"
    )
    resp = validate(env, text)
    assert resp.status_code == 200, resp.text
    assert resp.json()["ParameterGroups"][2] == {"label": "grp", "parameters": ["p", "q"]}


def test_a_template_over_max_template_size_gets_heats_message(env):
    text = HEAD + "description: " + "x" * MAX_TEMPLATE_SIZE + "\n"
    assert_400(
        validate(env, text),
        "RequestLimitExceeded",
        "Request limit exceeded: Template size (%d bytes) exceeds "
        "maximum allowed size (524288 bytes)." % len(text),
    )


def test_a_template_object_over_max_template_size_gets_heats_message(env):
    template = {"heat_template_version": "2013-05-23", "description": "x" * MAX_TEMPLATE_SIZE}
    assert_400(
        validate(env, template),
        "RequestLimitExceeded",
        "Request limit exceeded: Template size (%d bytes) exceeds "
        "maximum allowed size (524288 bytes)." % len(str(template)),
    )


DEPTH_MESSAGE = (
    "Request limit exceeded: Template nesting depth exceeds "
    "maximum allowed depth (%d)." % MAX_NESTING
)


LIBYAML_DEPTH = "exceeded maximum nesting depth"  # libyaml's own, at 1000


@pytest.mark.parametrize(
    "text, message",
    [
        (HEAD + "parameter_groups: " + "[" * 3000 + "]" * 3000, LIBYAML_DEPTH),
        (
            HEAD + "parameter_groups: " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1),
            DEPTH_MESSAGE,
        ),
        (
            HEAD
            + "parameter_groups:\n"
            + "".join(" " * i + "- \n" for i in range(MAX_NESTING + 5)),
            DEPTH_MESSAGE,
        ),
        (
            '{"heat_template_version": "2013-05-23", "parameter_groups": '
            + "[" * 5000
            + "]" * 5000
            + "}",
            DEPTH_MESSAGE,
        ),
        (
            '{"heat_template_version": "2013-05-23", "parameter_groups": '
            + "[" * 200
            + "]" * 200
            + "}",
            DEPTH_MESSAGE,
        ),
    ],
    ids=["yaml-flow-3000", "yaml-flow-just-over", "yaml-block", "json-5000", "json-200"],
)
def test_deep_nesting_is_a_400_not_a_recursion_error(env, text, message):
    resp = validate(env, text)
    assert resp.status_code == 400, resp.text[:300]
    assert message in resp.json()["error"]["message"]


def test_nesting_up_to_the_bound_is_fine(env):
    depth = MAX_NESTING - 2  # the document and parameter_groups add two
    resp = validate(env, HEAD + "parameter_groups: " + "[" * depth + "]" * depth)
    assert resp.status_code == 200, resp.text


def test_a_recursive_alias_is_refused(env):
    message = assert_400(validate(env, HEAD + "parameter_groups: &a [*a]\n"), "HTTPBadRequest")
    assert message.startswith("Template not in valid format: Error parsing template")


def test_an_answer_that_would_grow_past_the_bound_is_refused(env):
    """Every parameter adds ~80 bytes to the answer: 16000 of them in a
    400 KB template would answer 1.3 MB."""
    text = HEAD + "parameters:\n" + "".join("  p%d: {type: string}\n" % i for i in range(16000))
    assert len(text) < MAX_TEMPLATE_SIZE
    resp = validate(env, text)
    message = assert_400(resp, "RequestLimitExceeded")
    assert "exceeds maximum allowed size (%d bytes)" % (MAX_VALIDATE_RESPONSE) in message
    assert len(resp.content) < 1000


@pytest.mark.parametrize(
    "text, status",
    [
        (HEAD + "parameters: {p: {type: string, default: 2020-01-01}}\n", 200),
        (HEAD + "parameters: {p: {default: !!binary aGVsbG8=}}\n", 400),
        (HEAD + "parameters: {p: {default: !!set {a, b}}}\n", 400),
        (HEAD + "parameters: {p: {default: %s}}\n" % ("1" * 5000), 400),
        (HEAD + "parameters: [p]\n", 400),
        (HEAD + "resources: {r: {type: T, properties: [1]}}\n", 400),
        (HEAD + 'description: "\\udc80"\n', 400),
        ("\udc80", 400),
        (HEAD + "---\n" + HEAD, 400),
    ],
    ids=[
        "date",
        "binary",
        "set",
        "huge-int",
        "parameters-list",
        "properties-list",
        "escaped-surrogate",
        "lone-surrogate",
        "two-documents",
    ],
)
def test_odd_yaml_is_answered_not_crashed_on(env, text, status):
    """YAML that builds no JSON (bytes, sets, dates — heat's loader keeps
    dates as text) or that heat rejects is a 400, never a 500."""
    resp = requests.post(
        env.demo.heat + "/validate",
        headers={**env.demo.headers, "Content-Type": "application/json"},
        data=json.dumps({"template": text}),
    )
    assert resp.status_code == status, resp.text[:300]
    if status == 200:
        assert resp.json()["Description"] != ""
