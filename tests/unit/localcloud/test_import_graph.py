"""The local cloud's module graph has no import circle (issue 24).

What counts as an import is :mod:`tests.import_graph`'s rule: every one,
function-level ones too.
"""

import pathlib

import occli.localcloud
from tests import import_graph

ROOT = pathlib.Path(occli.localcloud.__file__).parent
PACKAGE = "occli.localcloud"


def _graph():
    return import_graph.graph(ROOT, PACKAGE)


def test_no_import_circle():
    graph = _graph()
    found = import_graph.circles(graph)
    assert not found, "import circles in occli/localcloud:\n" + "\n\n".join(
        import_graph.describe(c, graph) for c in found
    )


def test_the_graph_sees_function_level_imports():
    # volume_attach imports Cinder's interface inside functions only
    graph = _graph()
    assert PACKAGE + ".volume.interface" in graph[PACKAGE + ".compute.volume_attach"]
    assert import_graph.circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})
    ]
