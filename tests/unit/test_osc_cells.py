"""occli prints dict, list, boolean and None cells as OSC does, in every
text format: the same values as tests/fixtures/osc/formatters-osc.json
records from cliff's formatters and osc-lib's columns (record_formatters.py,
which needs OSC's virtualenv; this test does not) go through occli's
columns, its cell conversion and the formatters its commands load.
"""

import argparse
import importlib
import io
import json
import pathlib

import pytest

from occli import cliff_adapter
from occli import columns

RECORDING = json.loads(
    (
        pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "osc" / "formatters-osc.json"
    ).read_text()
)

#: osc-lib's column → occli's
COLUMNS = {
    "DictColumn": columns.DictColumn,
    "ListColumn": columns.ListColumn,
    "DictListColumn": columns.DictListColumn,
    "ListDictColumn": columns.ListDictColumn,
}

#: recorded text → (formatter name, list or show)
FORMATS = {
    "table_list": ("table", "list"),
    "table_one": ("table", "one"),
    "value_list": ("value", "list"),
    "value_one": ("value", "one"),
    "csv": ("csv", "list"),
    "shell": ("shell", "one"),
}


def occli_text(fmt, kind, cell):
    """What occli's ``fmt`` formatter prints of one cell named ``cell``, the
    cell converted as occli's commands convert it (cliff_adapter)."""
    table = cliff_adapter.LIST_FORMATTERS if kind == "list" else cliff_adapter.SHOW_FORMATTERS
    module, _, name = table[fmt].partition(":")
    formatter = getattr(importlib.import_module(module), name)()
    cell = columns.text_cell(cell) if fmt != "table" else columns.printable_cell(cell)
    args = argparse.Namespace(
        max_width=0,
        fit_width=False,
        print_empty=False,
        quote_mode="nonnumeric",
        variables=[],
        prefix="",
    )
    out = io.StringIO()
    if kind == "list":
        formatter.emit_list(["cell"], [[cell]], out, args)
    else:
        formatter.emit_one(["cell"], [cell], out, args)
    return out.getvalue()


def test_the_recording_covers_each_column_and_format():
    cases = RECORDING["cases"]
    assert {case["column"] for case in cases} == {*COLUMNS, None}
    assert {True, False, None} <= {case["value"] for case in cases if case["column"] is None}
    assert all(set(FORMATS) <= set(case) for case in cases)


@pytest.mark.parametrize(
    "case,recorded",
    [
        pytest.param(case, recorded, id="%s %r %s" % (case["column"], case["value"], recorded))
        for case in RECORDING["cases"]
        for recorded in FORMATS
    ],
)
def test_occli_prints_what_cliff_and_osc_lib_print(case, recorded):
    value = case["value"]
    cell = COLUMNS[case["column"]](value) if case["column"] else value
    assert occli_text(*FORMATS[recorded], cell) == case[recorded]


def test_format_dict_is_osc_libs():
    # osc_lib.utils.format_dict: sorted keys, nested keys dotted, None bare
    data = {"b": None, "a": {"y": 2, "x": "1"}, "c": [1]}
    assert columns.format_dict(data) == "a.x='1', a.y='2', b=, c='[1]'"
    assert columns.format_dict(None) is None


def test_a_control_character_in_a_dict_cell_stays_escaped():
    text = occli_text("value", "one", columns.DictColumn({"k": "\x1b[2J"}))
    assert "\x1b" not in text and text == "{'k': '\\x1b[2J'}\n"
