"""How many requests the stack, image and object listings send (issue 26).

With a warm token cache (no request to Keystone): ``stack list`` one
request, ``stack show NAME`` at most two (Heat's 302 from the name to the
stack's canonical URL, then the stack), ``image list`` one per page
(Glance's ``next`` links followed, none after the last page), ``object
list`` one, and with ``--all`` one per page: a page shorter than the
``--limit`` sent is the last (Swift's "if the number of names returned
equals the specified limit, you can assume there are more names to list",
docs.openstack.org user-guide cli-swift-large-lists), so no empty page is
asked for after it.

The CLI runs in a subprocess against a local cloud; its access log
(``CloudFixture.requests``) counts what reached it.
"""

import pytest

from occli import testing

from .test_startup_imports_services import DATA
from .test_startup_imports_services import TEMPLATE
from .test_startup_imports_services import run

#: Glance's largest page (the local cloud's images.MAX_LIMIT, glance's
#: api_limit_max): one more image makes a second page
GLANCE_PAGE = 1000


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    """A local cloud holding a stack ``app`` and objects ``c/o1``…``c/o3``;
    ``run_env`` runs its user ``demo`` from plain ``OS_*`` variables with a
    warm token cache."""
    tmp = tmp_path_factory.mktemp("counts")
    with testing.start_local_cloud() as fixture:
        env = {k: v for k, v in fixture.env.items() if k != "OS_CLOUD"}
        env.update(
            OS_CLIENT_CONFIG_FILE=str(tmp / "none.yaml"),
            OCCLI_CACHE_DIR=str(tmp / "cache"),
            HOME=str(tmp),
        )
        (tmp / "stack.yaml").write_text(TEMPLATE)
        (tmp / "data.bin").write_bytes(DATA)
        run(env, "stack", "create", "-t", str(tmp / "stack.yaml"), "--wait", "app")
        run(env, "container", "create", "c")
        for name in ("o1", "o2", "o3"):
            run(env, "object", "create", "--name", name, "c", str(tmp / "data.bin"))
        fixture.run_env = env
        yield fixture


def requests_of(cloud, *argv):
    """``occli argv``'s output and the (method, path, query) it sent."""
    mark = cloud.mark()
    result = run(cloud.run_env, *argv)
    sent = [(r.method, r.path, r.query) for r in cloud.requests(mark)]
    assert not [s for s in sent if "/auth/tokens" in s[1]]  # the token cache answered
    return result["stdout"], sent


def test_stack_list_is_one_request(cloud):
    out, sent = requests_of(cloud, "stack", "list", "-f", "value", "-c", "Stack Name")
    assert out.split() == ["app"]
    assert [(m, p.rsplit("/", 1)[-1]) for m, p, _ in sent] == [("GET", "stacks")]


def test_stack_show_by_name_is_at_most_two_requests(cloud):
    out, sent = requests_of(cloud, "stack", "show", "app", "-f", "value", "-c", "stack_status")
    assert out.split() == ["CREATE_COMPLETE"]
    assert len(sent) <= 2
    assert sent[-1][1].endswith("/stacks/app/" + sent[-1][1].rsplit("/", 1)[-1])


def test_image_list_is_one_request_per_page(cloud):
    out, sent = requests_of(cloud, "image", "list", "-f", "value", "-c", "Name")
    assert len(sent) == 1
    seeded = len(out.split())
    for i in range(GLANCE_PAGE + 1 - seeded):
        cloud.seed_image("page-%04d" % i)
    out, sent = requests_of(cloud, "image", "list", "-f", "value", "-c", "Name")
    assert len(out.split()) == GLANCE_PAGE + 1
    assert [(m, p) for m, p, _ in sent] == [("GET", "/image/v2/images")] * 2
    assert "marker=" in sent[1][2]


def test_object_list_is_one_request(cloud):
    out, sent = requests_of(cloud, "object", "list", "c", "-f", "value")
    assert out.split() == ["o1", "o2", "o3"]
    assert len(sent) == 1


@pytest.mark.parametrize(("limit", "pages"), [("2", 2), ("3", 2), ("5", 1)])
def test_object_list_all_is_one_request_per_page(cloud, limit, pages):
    """Three objects: pages of 2 are [o1 o2] [o3]; of 3, [o1 o2 o3] and an
    empty one (a full page may have more after it); of 5, [o1 o2 o3]."""
    out, sent = requests_of(cloud, "object", "list", "c", "--all", "--limit", limit, "-f", "value")
    assert out.split() == ["o1", "o2", "o3"]
    assert len(sent) == pages
