"""The dependency graph of a stack's resources (Heat's ``dependencies.py``).

Edges come from ``depends_on`` and from every ``get_resource`` and
``get_attr`` in a resource's definition (``rsrc_defn.py``
``required_resource_names``). A create walks the graph forwards, a delete
backwards; a cycle is refused before anything is made.
"""

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping

from occli.localcloud import errors


class Dependencies:
    """``requires``: each resource name → the names it needs first.

    Names a resource refers to that are not in the graph are ignored here
    (the template's validation reports them).
    """

    def __init__(
        self, requires: Mapping[str, Iterable[str]], label: Callable[[str], str] = str
    ) -> None:
        self.requires = {
            name: {r for r in needs if r in requires and r != name}
            for name, needs in requires.items()
        }
        # how a cycle names a resource: Heat's str(resource) of a stack not
        # stored yet, '<ClassName> "<name>"'
        self.label = label
        self.order = self._toposort()

    def _graph_order(self) -> list[str]:
        """The names in the order Heat's graph holds them: each resource's
        requirements before it (``Dependencies.__iadd__`` makes the
        required node first)."""
        seen: dict[str, None] = {}
        for name, needs in self.requires.items():
            for need in sorted(needs):
                seen.setdefault(need)
            seen.setdefault(name)
        return list(seen)

    def _cycle(self, remaining: Mapping[str, set[str]]) -> errors.BadRequest:
        """Heat's ``CircularDependencyException`` (a 400) naming what is
        left of the graph (``Graph.__str__``)."""
        cycle = "{%s}" % ", ".join(
            "%s: {%s}" % (self.label(name), ", ".join(self.label(n) for n in sorted(needs)))
            for name, needs in ((n, remaining[n]) for n in self._graph_order() if n in remaining)
        )
        return errors.BadRequest(
            "Circular Dependency Found: %s" % cycle, type="CircularDependencyException"
        )

    def _toposort(self) -> list[str]:
        """Kahn's order, template order among the ready; a cycle refused."""
        remaining = {name: set(needs) for name, needs in self.requires.items()}
        order: list[str] = []
        while remaining:
            ready = [name for name, needs in remaining.items() if not needs]
            if not ready:
                raise self._cycle(remaining)
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
