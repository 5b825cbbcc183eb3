"""ReDoS in ``GET /servers?name=`` (issue 9 B): nova's regular-expression
filters run in linear time (RE2) and never under the write lock; a pattern
RE2 cannot express matches literally."""

import threading
from urllib.parse import quote

import pytest

from occli.localcloud.compute import server_filters
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud

CATASTROPHIC = "^aaaaaaaaaa(a+)+$"
VICTIM = "a" * 40 + "!"


@pytest.fixture(scope="module")
def nova(tmp_path_factory):
    cloud = make_cloud(tmp_path_factory.mktemp("regex"))
    nova = Nova(cloud)
    for name in (VICTIM, "a[b", "xx(a)\\1yy", "plain"):
        nova.create(name=name)
    yield nova
    cloud.close()


def _names(result):
    assert result.status == 200, result.body
    return sorted(s["name"] for s in result.json()["servers"])


def test_catastrophic_pattern_finishes_without_the_write_lock(nova, monkeypatch):
    held = []
    compile_regex = server_filters._regex

    def spying(pattern):
        found = compile_regex(pattern)

        def search(text):
            held.append(nova.cloud.store.writing())
            return found(text)

        return search

    monkeypatch.setattr(server_filters, "_regex", spying)
    answers = []
    worker = threading.Thread(
        daemon=True,
        target=lambda: answers.append(nova.get("/servers?name=" + quote(CATASTROPHIC))),
    )
    worker.start()
    worker.join(20)
    in_time = not worker.is_alive()
    worker.join()  # nothing may still use the database at teardown
    assert in_time, "the name filter backtracked"
    assert _names(answers[0]) == []
    assert held and not any(held)


@pytest.mark.parametrize(
    "pattern, expected",
    [
        ("^a{40}!$", [VICTIM]),
        ("(a)\\1", ["xx(a)\\1yy"]),  # backreference, not RE2: literal
        ("^pla|^a\\[", ["a[b", "plain"]),
    ],
)
def test_patterns(nova, pattern, expected):
    assert _names(nova.get("/servers?name=" + quote(pattern))) == expected


def test_an_invalid_pattern_is_nova_400(nova):
    # nova's query schema: the parameter must compile as a Python regex
    refused = nova.get("/servers?name=" + quote("a[b"))
    assert refused.status == 400
    assert refused.json()["badRequest"]["message"] == (
        "Invalid input for query parameters name. Value: a[b. 'a[b' is not a 'regex'"
    )


def test_ip_filter_is_linear_too(nova):
    assert _names(nova.get("/servers?ip=" + quote("^(1+)+x$"))) == []
    assert len(_names(nova.get("/servers?ip=" + quote("^10\\.")))) == 4
