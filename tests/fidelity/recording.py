"""The run every real-cloud recorder (``record_*.py``) shares: its cases in
order, each saved (marked incomplete when it raised), and whatever the
run made deleted from the real cloud whatever happened."""

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any


def run(
    rec: Any,
    cases: Mapping[str, Callable[[Any], None]],
    chosen: Sequence[str],
    after_case: Callable[[Any], None] | None = None,
) -> int:
    """Record ``chosen`` (every case when empty) with ``rec``; 1 when
    something could not be deleted from the real cloud (printed), else 0.
    ``after_case(rec)`` runs after each saved case."""
    leftovers = []
    try:
        for name in chosen or list(cases):
            rec.begin(name)
            try:
                cases[name](rec)
            except BaseException:
                rec.save(complete=False)
                raise
            rec.save()
            if after_case is not None:
                after_case(rec)
    finally:
        leftovers = rec.cleanup()
        if leftovers:
            print("LEFT IN THE REAL CLOUD:", *leftovers, sep="\n  ")
    return 1 if leftovers else 0
