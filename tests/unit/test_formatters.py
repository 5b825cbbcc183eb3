"""occli.formatters: the streamed JSON array is cliff's JSON, byte for byte."""

import argparse
import io

import pytest
from cliff.formatters import json_format

from occli import columns
from occli.formatters import StreamingJSONFormatter
from occli.formatters import TableFormatter

NAMES = ("ID", "Name", "Networks", "Tags")
ROWS = [
    ("1", "plain", {}, []),
    ("2", "nested", {"net": [{"addr": "10.0.0.3", "version": 4}]}, ["a", "b"]),
    ("3", 'unicode ☃ and "quotes"\n', columns.DictColumn({"k": "v"}), columns.ListColumn(["x"])),
    ("4", None, columns.JSONColumn({"deep": {"deeper": [1, 2.5, True]}}), []),
]


def emit(formatter, rows, noindent):
    out = io.StringIO()
    formatter.emit_list(NAMES, iter(rows), out, argparse.Namespace(noindent=noindent))
    return out.getvalue()


@pytest.mark.parametrize("noindent", [False, True])
@pytest.mark.parametrize("rows", [[], ROWS[:1], ROWS], ids=["0", "1", "4"])
def test_streamed_json_is_cliffs(rows, noindent):
    assert emit(StreamingJSONFormatter(), rows, noindent) == emit(
        json_format.JSONFormatter(), rows, noindent
    )


def test_rows_are_written_as_they_come():
    out = io.StringIO()
    written = []

    def rows():
        for row in ROWS:
            yield row
            written.append(out.getvalue())

    StreamingJSONFormatter().emit_list(NAMES, rows(), out, argparse.Namespace(noindent=False))
    assert '"plain"' in written[0] and '"nested"' not in written[0]
    assert '"nested"' in written[1]


# -- tables -----------------------------------------------------------------


def table_args(max_width=0, fit_width=False, print_empty=False):
    return argparse.Namespace(max_width=max_width, fit_width=fit_width, print_empty=print_empty)


def both(method, names, data, args):
    """What occli's and cliff's table formatters write."""
    from cliff.formatters import table

    outputs = []
    for formatter in (TableFormatter(), table.TableFormatter()):
        out = io.StringIO()
        getattr(formatter, method)(names, iter(data) if method == "emit_list" else data, out, args)
        outputs.append(out.getvalue())
    return outputs


TABLES = [
    (("ID", "Name"), [("1", "a")]),
    (
        ("ID", "Name", "Networks", "Image"),
        [
            (
                "abc",
                "web-1",
                columns.AddressesColumn({"net": [{"addr": "10.0.0.3"}, {"addr": "fd00::3"}]}),
                None,
            ),
            ("d", "", columns.DictColumn({"k": "v", "k2": "v\nw"}), "cirros"),
        ],
    ),
    (("Count", "Ratio", "Label"), [(3, 0.5, "x"), (1234567, 2.25, "long\ttab")]),
    (("A", "B"), [("line1\nline2\nline3", "x"), ("y", "p\r\nq\rr")]),
    (("Wide ☃", "B"), [("x", "y")]),  # not ASCII: cliff's
    (("A", "B"), [("x", "é")]),
    (("A", "B"), [("x" * 300, "y")]),
    (("A",), []),
]


@pytest.mark.parametrize("names, rows", TABLES)
@pytest.mark.parametrize(
    "args",
    [table_args(), table_args(max_width=40), table_args(print_empty=True)],
    ids=["plain", "max-width-40", "print-empty"],
)
def test_tables_are_cliffs(names, rows, args):
    mine, cliffs = both("emit_list", names, rows, args)
    assert mine == cliffs


@pytest.mark.parametrize("args", [table_args(), table_args(max_width=30)])
def test_show_tables_are_cliffs(args):
    names = ("id", "name", "metadata", "addresses", "flavor", "empty", "n")
    data = (
        "0e44cc9c",
        "web",
        columns.DictColumn({"a": "1", "b": "2"}),
        columns.JSONColumn({"net": [{"addr": "10.0.0.3"}]}),
        "m1.tiny (vcpus=1, ram=512)",
        "",
        42,
    )
    mine, cliffs = both("emit_one", names, data, args)
    assert mine == cliffs


def test_random_tables_are_cliffs():
    import random

    rng = random.Random(14)
    alphabet = "abcXYZ019 -_.:/=,()[]{}\"'\n\t"
    for _ in range(300):
        width = rng.randint(1, 6)
        names = tuple("Col %d" % i + "x" * rng.randint(0, 3) for i in range(width))

        def value():
            kind = rng.random()
            if kind < 0.1:
                return rng.randint(-(10**6), 10**6)
            if kind < 0.15:
                return None
            return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))

        rows = [tuple(value() for _ in range(width)) for _ in range(rng.randint(1, 6))]
        mine, cliffs = both("emit_list", names, rows, table_args())
        assert mine == cliffs, (names, rows)


def test_table_options_are_cliffs():
    from cliff.formatters import table

    def options(formatter):
        parser = argparse.ArgumentParser()
        formatter.add_argument_group(parser)
        return [
            (a.option_strings, a.dest, a.default, a.type, a.help)
            for a in parser._actions
            if a.dest != "help"
        ]

    assert options(TableFormatter()) == options(table.TableFormatter())


@pytest.mark.parametrize("columns_wide", [30, 50, 200])
def test_tables_fit_a_terminal_as_cliffs(monkeypatch, columns_wide):
    import os
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(os, "get_terminal_size", lambda *a: os.terminal_size((columns_wide, 24)))
    rows = [
        ("0e44cc9c-e052-415d-afbf-469b0d384170", "web-%d" % i, "ACTIVE", "private=10.0.0.%d" % i)
        for i in range(3)
    ]
    names = ("ID", "Name", "Status", "Networks")
    mine, cliffs = both("emit_list", names, rows, table_args())
    assert mine == cliffs
