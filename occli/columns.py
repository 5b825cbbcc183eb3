"""Cell formatting: dicts and lists as OSC shows them in tables (osc-lib's
``format_columns``), real objects in json/yaml, their Python repr in
value, csv and shell (cliff's ``str(machine_readable())``)."""

import re

from cliff import columns

# C0 controls but tab and newline, DEL and C1 controls (ESC, CSI, OSC, …);
# the bidirectional controls (embeddings, overrides, isolates and marks: a
# name that reads backwards, "Trojan Source"); the line and paragraph
# separators; the invisible ZWSP, word joiner and BOM. ZWNJ and ZWJ are
# kept: Persian and Indic text and emoji sequences need them.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]"
)


def printable(text):
    """``text`` with control characters shown as ``\\xNN`` (``\\u202e``
    beyond U+00FF).

    Tabs and newlines are kept (multi-line cells are normal); anything
    that could move the cursor, start a terminal escape sequence, reorder
    the text shown (a bidirectional override) or hide in it is not.
    Text ``str.isprintable`` passes holds none of them (each is a control,
    format or separator character): returned as it is, without the regex
    (a listing's every cell goes through here).
    """
    if text.isprintable():
        return text
    return _CONTROL.sub(_escape, text)


def _escape(match):
    code = ord(match.group())
    return ("\\x%02x" if code < 0x100 else "\\u%04x") % code


def printable_cell(value):
    """A cell (text or column) whose control characters show escaped
    (:func:`printable`)."""
    if value.__class__ is str or isinstance(value, str):  # most cells: the first test
        return printable(value)
    if isinstance(value, columns.FormattableColumn):
        return PrintableColumn(value)
    return value


class PrintableColumn(columns.FormattableColumn):
    """Another column, its human-readable text made :func:`printable`."""

    def human_readable(self):
        text = self._value.human_readable()
        return printable(text) if isinstance(text, str) else text

    def machine_readable(self):
        return self._value.machine_readable()


def text_cell(value):
    """A cell as cliff's value, csv and shell formatters print it: a
    column's machine-readable value as ``str()`` makes it (a dict's or
    list's Python repr, as OSC prints them), control characters escaped
    (:func:`printable`); any other value (a number, a boolean, None) as
    it is, for the formatter to print (csv quotes text, not numbers)."""
    if value.__class__ is str:
        return printable(value)
    if isinstance(value, columns.FormattableColumn):
        return printable(str(value.machine_readable()))
    return printable_cell(value)


class DictColumn(columns.FormattableColumn):
    """``{"k": "v"}`` → ``k='v'`` in a table (:func:`format_dict`), an
    object in JSON: osc-lib's ``DictColumn``."""

    def human_readable(self):
        return format_dict(self._value)

    def machine_readable(self):
        return dict(self._value or {})


class ListColumn(columns.FormattableColumn):
    """``["b", "a"]`` → ``a, b`` in a table (sorted, as osc-lib's
    ``ListColumn``), a list in JSON."""

    def human_readable(self):
        return ", ".join(sorted(_scalar(v) for v in self._value or ()))

    def machine_readable(self):
        return list(self._value or ())


class DictListColumn(columns.FormattableColumn):
    """``{"net": ["b", "a"]}`` → ``net=a, b`` in a table (pairs apart by
    ``; ``), an object in JSON: osc-lib's ``DictListColumn``."""

    def human_readable(self):
        return format_dict_of_list(self._value)

    def machine_readable(self):
        return dict(self._value or {})


class ListDictColumn(columns.FormattableColumn):
    """``[{"k": "v"}, …]`` → one ``k='v'`` line a dict in a table, a list
    in JSON: osc-lib's ``ListDictColumn``."""

    def human_readable(self):
        return "\n".join(format_dict(item) for item in self._value or ())

    def machine_readable(self):
        return [dict(item) for item in self._value or ()]


def format_dict(data, prefix=None):
    """``k='v', k2='v2'`` of ``data`` (sorted keys, a nested dict's keys
    as ``outer.inner``, None as ``k=``), or None for None: osc-lib's
    ``osc_lib.utils.format_dict``."""
    if data is None:
        return None
    pairs = []
    for key in sorted(data):
        name = "%s.%s" % (prefix, key) if prefix else key
        value = data[key]
        if isinstance(value, dict):
            pairs.append(format_dict(value, prefix=name))
        elif value is not None:
            pairs.append("%s='%s'" % (name, value))
        else:
            pairs.append("%s=" % name)
    return ", ".join(pairs)


def format_dict_of_list(data):
    """``k=a, b; k2=c`` (sorted keys and items, a None list left out):
    osc-lib's ``osc_lib.utils.format_dict_of_list``."""
    return "; ".join(
        "%s=%s" % (key, ", ".join(sorted(data[key])))
        for key in sorted(data or {})
        if data[key] is not None
    )


class ReprColumn(columns.FormattableColumn):
    """A value OSC leaves unformatted: its ``str()`` in a table (``[]``,
    ``[{'id': …}]``, as prettytable prints it), the value in JSON."""

    def human_readable(self):
        return str(self._value)

    def machine_readable(self):
        return self._value


class AddressesColumn(columns.FormattableColumn):
    """Nova ``addresses`` → ``net=10.0.0.3, fd00::3`` in a table, ``{"net":
    ["10.0.0.3", "fd00::3"]}`` in JSON: OSC's (openstackclient/compute/v2/
    server.py ``AddressesColumn``, osc_lib ``format_dict_of_list``)."""

    def human_readable(self):
        return format_dict_of_list(self.machine_readable())

    def machine_readable(self):
        return {
            net: [a["addr"] for a in addrs or () if "addr" in a]
            for net, addrs in (self._value or {}).items()
        }


class JSONColumn(columns.FormattableColumn):
    """Any nested value: indented JSON text in a table, the value in JSON."""

    def human_readable(self):
        import json

        if self._value is None:
            return ""
        return json.dumps(self._value, indent=2, sort_keys=True)

    def machine_readable(self):
        return self._value


def _scalar(value):
    if value is None:
        return ""
    if isinstance(value, dict):
        return ", ".join("%s=%s" % (k, _scalar(v)) for k, v in sorted(value.items()))
    if isinstance(value, (list, tuple)):
        return ", ".join(_scalar(v) for v in value)
    return str(value)


#: the cell types :func:`format_value` returns as they are, checked first
_SCALARS = frozenset((str, int, float, bool, type(None)))


def format_value(value, formatter=None):
    """Wrap ``value`` in a column type (given, or chosen by its Python type)."""
    if formatter is not None:
        return formatter(value)
    if value.__class__ in _SCALARS:
        return value
    if isinstance(value, dict):
        return JSONColumn(value) if _nested(value.values()) else DictColumn(value)
    if isinstance(value, (list, tuple)):
        return JSONColumn(list(value)) if _nested(value) else ListColumn(value)
    return value


def _nested(values):
    return any(isinstance(v, (dict, list, tuple)) for v in values)


def show(data, columns=None, formatters=None, rename=None):
    """``(names, values)`` for a ShowOne from a dict or Resource.

    ``columns`` picks and orders keys (default: all, sorted); ``rename`` maps
    keys to displayed names; ``formatters`` maps keys to column classes.
    """
    info = data.to_dict() if hasattr(data, "to_dict") else dict(data)
    formatters = formatters or {}
    rename = rename or {}
    keys = list(columns) if columns else sorted(info)
    names = tuple(rename.get(k, k) for k in keys)
    values = tuple(format_value(info.get(k), formatters.get(k)) for k in keys)
    return names, values


def with_raw_keys(args, shown, renamed):
    """``shown`` (a show's names and values) plus, for each raw key of
    ``renamed`` (``{raw key: name shown}``) that ``-c`` names, that column
    again under the raw key: scripts written for occli's raw keys (``-c
    tenant_id``) still work where the output has OSC's names."""
    names, values = shown
    wanted = getattr(args, "columns", None) or ()
    extra = [(raw, renamed[raw]) for raw in wanted if raw in renamed and renamed[raw] in names]
    for raw, name in extra:
        names += (raw,)
        values += (values[names.index(name)],)
    return names, values


def osc_fields(data, renamed, fields=()):
    """A resource's fields as OSC shows them (openstacksdk's resource):
    ``renamed`` (``{raw key: OSC's name}``) applied, a raw key whose OSC
    name is there already (Neutron's ``tenant_id`` beside ``project_id``)
    dropped, and each of ``fields`` None when the answer lacks it."""
    info = data.to_dict() if hasattr(data, "to_dict") else dict(data)
    for raw, name in renamed.items():
        if raw in info:
            info.setdefault(name, info.pop(raw))
    for name in fields:
        info.setdefault(name, None)
    return info


def table(items, columns, headers=None, formatters=None):
    """``(headers, rows)`` for a Lister from dicts or Resources."""
    formatters = formatters or {}
    headers = tuple(headers or columns)

    cells = [(k, formatters.get(k)) for k in columns]

    def row(item):
        info = item.to_dict() if hasattr(item, "to_dict") else item
        return tuple([format_value(info.get(k), f) for k, f in cells])

    return headers, (row(i) for i in items)
