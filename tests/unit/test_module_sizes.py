"""No module of occli over 800 lines: a bigger one is split by
CONTRIBUTING's rule (a topic to a sibling module, names kept)."""

import pathlib

import occli

MAX_LINES = 800


def test_no_module_over_800_lines():
    root = pathlib.Path(occli.__file__).parent
    sizes = {
        str(path.relative_to(root.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    assert len(sizes) > 100
    big = sorted(name for name, lines in sizes.items() if lines > MAX_LINES)
    assert not big, "modules over %d lines: %s" % (MAX_LINES, ", ".join(big))
