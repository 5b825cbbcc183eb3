"""Output formatters of occli's own (the others are cliff's).

cliff's JSON formatter collects every row before it writes the array; the
one here writes each row as it comes, so that ``server list -f json`` over
many pages shows the first rows before the last page is read, and holds
one page in memory rather than all of them. Its output is byte for byte
what cliff's ``json.dump(rows, indent=2)`` (or ``--noindent``) writes.

The table formatter draws plain ASCII tables itself, as prettytable does,
and leaves the others to cliff's (see :class:`TableFormatter`).
"""

import json
import os
import sys

from cliff import columns
from cliff.formatters import base as formatter_base
from cliff.formatters import json_format


class StreamingJSONFormatter(json_format.JSONFormatter):
    """cliff's JSON formatter, with lists written row by row."""

    def emit_list(self, column_names, data, stdout, parsed_args):
        indent = None if parsed_args.noindent else 2
        first = True
        for row in data:
            item = {
                name: (
                    value.machine_readable()
                    if isinstance(value, columns.FormattableColumn)
                    else value
                )
                for name, value in zip(column_names, row, strict=False)
            }
            text = json.dumps(item, indent=indent)
            if indent is None:
                stdout.write(("[" if first else ", ") + text)
            else:
                # JSON text holds no raw newline but between its tokens:
                # one more level of indentation for an array element
                stdout.write(("[\n  " if first else ",\n  ") + text.replace("\n", "\n  "))
            first = False
        if first:
            stdout.write("[]\n")
        else:
            stdout.write("]\n" if indent is None else "\n]\n")


class TableFormatter(formatter_base.ListFormatter, formatter_base.SingleFormatter):
    """cliff's table formatter, drawing plain tables itself.

    cliff draws tables with prettytable, which measures every cell with
    wcwidth: importing wcwidth and measuring a few rows cost more than a
    warm ``server list``'s two requests. A table whose header and cells
    are printable ASCII (widths are then string lengths) and that fits
    the terminal (as cliff fits it: ``--max-width``, ``--fit-width``, a
    terminal on stdout) is drawn here, character for character as
    prettytable draws it with cliff's settings; any other (wide or
    control characters, a table to shrink, no rows) goes to cliff's
    formatter, and prettytable.
    """

    def add_argument_group(self, parser):
        # cliff's table options (a test compares them with cliff's own)
        group = parser.add_argument_group("table formatter")
        group.add_argument(
            "--max-width",
            metavar="<integer>",
            default=int(os.environ.get("CLIFF_MAX_TERM_WIDTH", 0)),
            type=int,
            help="Maximum display width, <1 to disable. You can also use the "
            "CLIFF_MAX_TERM_WIDTH environment variable, but the parameter "
            "takes precedence.",
        )
        group.add_argument(
            "--fit-width",
            action="store_true",
            default=bool(int(os.environ.get("CLIFF_FIT_WIDTH", 0))),
            help="Fit the table to the display width. Implied if --max-width "
            "greater than 0. Set the environment variable CLIFF_FIT_WIDTH=1 "
            "to always enable",
        )
        group.add_argument(
            "--print-empty",
            action="store_true",
            help="Print empty table if there is no data to show.",
        )

    def emit_list(self, column_names, data, stdout, parsed_args):
        rows = list(data)
        text = None
        if not rows and not getattr(parsed_args, "print_empty", False):
            text = ""  # prettytable draws nothing
        elif rows:
            aligns = [_ALIGNMENTS.get(type(value), "l") for value in rows[0]]
            text = _draw(column_names, [_cells(row) for row in rows], aligns, parsed_args)
        if text is None:
            return _cliff_table().emit_list(column_names, rows, stdout, parsed_args)
        stdout.write(text + "\n")

    def emit_one(self, column_names, data, stdout, parsed_args):
        data = list(data)
        text = "" if not data else None  # prettytable draws nothing
        if data:
            text = _draw(
                ("Field", "Value"),
                [_cells((name, value)) for name, value in zip(column_names, data, strict=False)],
                ["l", "l"],
                parsed_args,
            )
        if text is None:
            return _cliff_table().emit_one(column_names, data, stdout, parsed_args)
        stdout.write(text + "\n")


#: cliff's alignment of a column from the type of its first value
_ALIGNMENTS = {int: "r", str: "l", float: "r"}


def _cliff_table():
    from cliff.formatters import table

    return table.TableFormatter()


def _cells(row):
    """A row's cells as prettytable prints them, after cliff's
    ``_format_row`` (human-readable columns, no carriage return)."""
    cells = []
    for value in row:
        if isinstance(value, columns.FormattableColumn):
            value = value.human_readable()
        if isinstance(value, str):
            value = value.replace("\r\n", "\n").replace("\r", " ")
        cells.append(str(value).expandtabs())
    return cells


def _plain(text):
    """Printable ASCII, lines apart: one column per character."""
    return text.isascii() and text.replace("\n", "").isprintable()


def _draw(names, rows, aligns, parsed_args):
    """The table prettytable draws with cliff's settings (borders, a
    header, padding 1, top-aligned lines), or None when it is not a plain
    table that fits (see :class:`TableFormatter`)."""
    names = [str(name) for name in names]
    if not all(_plain(n) and "\n" not in n for n in names) or not all(
        len(row) == len(names) and all(_plain(c) for c in row) for row in rows
    ):
        return None
    widths = [len(n) for n in names]
    split = []
    for row in rows:
        lines = [cell.split("\n") for cell in row]
        for i, cell in enumerate(lines):
            widths[i] = max(widths[i], max(len(line) for line in cell))
        split.append(lines)
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    limit = _width_limit(parsed_args)
    if limit is not None and len(rule) > limit:
        return None  # cliff shrinks columns: prettytable wraps them

    def line(texts):
        return (
            "|"
            + "|".join(
                " " + (t.rjust(w) if a == "r" else t.ljust(w)) + " "
                for t, w, a in zip(texts, widths, aligns, strict=False)
            )
            + "|"
        )

    out = [rule, line(names), rule]
    for lines in split:
        for y in range(max(len(cell) for cell in lines)):
            out.append(line([cell[y] if y < len(cell) else "" for cell in lines]))
    out.append(rule)
    return "\n".join(out)


def _width_limit(parsed_args):
    """The width cliff fits a table to, or None (cliff's rules: a positive
    --max-width, else the terminal's when stdout is one or --fit-width)."""
    max_width = int(getattr(parsed_args, "max_width", 0) or 0)
    if max_width > 0:
        return max_width
    if not (sys.stdout.isatty() or getattr(parsed_args, "fit_width", False)):
        return None
    try:
        return os.get_terminal_size().columns
    except OSError:
        return None
