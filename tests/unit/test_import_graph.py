"""The client's module graph has no import circle (issue 24).

Every module of ``occli`` outside the local cloud (which has its own test,
``tests/unit/localcloud/test_import_graph.py``), with
:mod:`tests.import_graph`'s rule: every import counts, function-level and
``TYPE_CHECKING`` ones too.
"""

import pathlib

import occli
from tests import import_graph

ROOT = pathlib.Path(occli.__file__).parent
PACKAGE = "occli"


def _graph():
    return import_graph.graph(ROOT, PACKAGE, leave_out=("occli.localcloud",))


def test_no_import_circle():
    graph = _graph()
    found = import_graph.circles(graph)
    assert not found, "import circles in occli:\n" + "\n\n".join(
        import_graph.describe(c, graph) for c in found
    )


def test_the_graph_sees_deferred_imports():
    graph = _graph()
    # the shell imports the adapter inside a method only
    assert "occli.cliff_adapter" in graph["occli.shell"]
    # from occli.v2.commands import bulk: the module, not the package
    assert "occli.v2.commands.bulk" in graph["occli.v2.compute.commands.server_lifecycle"]
    # the local cloud is neither a node nor a target (occli.testing uses it)
    assert not any(
        m.startswith("occli.localcloud") for m in graph.keys() | set().union(*graph.values())
    )
