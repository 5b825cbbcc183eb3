"""Output formatters of occli's own (the others are cliff's).

cliff's JSON formatter collects every row before it writes the array; the
one here writes each row as it comes, so that ``server list -f json`` over
many pages shows the first rows before the last page is read, and holds
one page in memory rather than all of them. Its output is byte for byte
what cliff's ``json.dump(rows, indent=2)`` (or ``--noindent``) writes.
"""

import json

from cliff import columns
from cliff.formatters import json_format


class StreamingJSONFormatter(json_format.JSONFormatter):
    """cliff's JSON formatter, with lists written row by row."""

    def emit_list(self, column_names, data, stdout, parsed_args):
        indent = None if parsed_args.noindent else 2
        first = True
        for row in data:
            item = {name: (value.machine_readable()
                           if isinstance(value, columns.FormattableColumn)
                           else value)
                    for name, value in zip(column_names, row, strict=False)}
            text = json.dumps(item, indent=indent)
            if indent is None:
                stdout.write(("[" if first else ", ") + text)
            else:
                # JSON text holds no raw newline but between its tokens:
                # one more level of indentation for an array element
                stdout.write(("[\n  " if first else ",\n  ")
                             + text.replace("\n", "\n  "))
            first = False
        if first:
            stdout.write("[]\n")
        else:
            stdout.write("]\n" if indent is None else "\n]\n")
