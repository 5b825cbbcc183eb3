"""occli.formatters: the streamed JSON array is cliff's JSON, byte for byte."""

import argparse
import io

import pytest
from cliff.formatters import json_format

from occli import columns
from occli.formatters import StreamingJSONFormatter

NAMES = ("ID", "Name", "Networks", "Tags")
ROWS = [
    ("1", "plain", {}, []),
    ("2", "nested", {"net": [{"addr": "10.0.0.3", "version": 4}]},
     ["a", "b"]),
    ("3", "unicode ☃ and \"quotes\"\n", columns.DictColumn({"k": "v"}),
     columns.ListColumn(["x"])),
    ("4", None, columns.JSONColumn({"deep": {"deeper": [1, 2.5, True]}}),
     []),
]


def emit(formatter, rows, noindent):
    out = io.StringIO()
    formatter.emit_list(NAMES, iter(rows), out,
                        argparse.Namespace(noindent=noindent))
    return out.getvalue()


@pytest.mark.parametrize("noindent", [False, True])
@pytest.mark.parametrize("rows", [[], ROWS[:1], ROWS], ids=["0", "1", "4"])
def test_streamed_json_is_cliffs(rows, noindent):
    assert emit(StreamingJSONFormatter(), rows, noindent) == emit(
        json_format.JSONFormatter(), rows, noindent)


def test_rows_are_written_as_they_come():
    out = io.StringIO()
    written = []

    def rows():
        for row in ROWS:
            yield row
            written.append(out.getvalue())
    StreamingJSONFormatter().emit_list(NAMES, rows(), out,
                                       argparse.Namespace(noindent=False))
    assert '"plain"' in written[0] and '"nested"' not in written[0]
    assert '"nested"' in written[1]
