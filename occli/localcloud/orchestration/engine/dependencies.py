"""The dependency graph of a stack's resources (Heat's ``dependencies.py``).

Edges come from ``depends_on`` and from every ``get_resource`` and
``get_attr`` in a resource's definition (``rsrc_defn.py``
``required_resource_names``). A create walks the graph forwards, a delete
backwards; a cycle is refused before anything is made.
"""

from collections.abc import Iterable
from collections.abc import Mapping

from occli.localcloud import errors


class Dependencies:
    """``requires``: each resource name → the names it needs first.

    Names a resource refers to that are not in the graph are ignored here
    (the template's validation reports them).
    """

    def __init__(self, requires: Mapping[str, Iterable[str]]) -> None:
        self.requires = {
            name: {r for r in needs if r in requires and r != name}
            for name, needs in requires.items()
        }
        self.order = self._toposort()

    def _toposort(self) -> list[str]:
        """Kahn's order, template order among the ready; a cycle is Heat's
        ``CircularDependencyException`` (a 400) naming what is left."""
        remaining = {name: set(needs) for name, needs in self.requires.items()}
        order: list[str] = []
        while remaining:
            ready = [name for name, needs in remaining.items() if not needs]
            if not ready:
                cycle = "{%s}" % ", ".join(
                    "%s: {%s}" % (name, ", ".join(sorted(needs)))
                    for name, needs in remaining.items()
                )
                raise errors.BadRequest(
                    "Circular Dependency Found: %s" % cycle, type="CircularDependencyException"
                )
            for name in ready:
                order.append(name)
                del remaining[name]
            for needs in remaining.values():
                needs.difference_update(ready)
        return order

    def required_by(self, name: str) -> list[str]:
        """The resources that need ``name`` (Heat's ``required_by``)."""
        return [other for other in self.order if name in self.requires[other]]

    def ready(self, done: set[str], started: set[str], reverse: bool = False) -> list[str]:
        """The names that may start now: forwards, all they need is done;
        backwards (delete), all that need them are done."""
        out = []
        for name in reversed(self.order) if reverse else self.order:
            if name in done or name in started:
                continue
            waits = self.required_by(name) if reverse else self.requires[name]
            if all(w in done for w in waits):
                out.append(name)
        return out
