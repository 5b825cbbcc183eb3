"""``columns.printable`` returns text ``str.isprintable`` passes as it is
(issue 26: every cell of a listing goes through it); no character it must
escape is printable, so the shortcut never lets one through."""

import sys

from occli import columns


def test_every_escaped_character_still_escaped():
    escaped = [chr(c) for c in range(sys.maxunicode + 1) if columns._CONTROL.match(chr(c))]
    assert len(escaped) > 60  # the C0 and C1 controls at least
    for char in escaped:
        shown = columns.printable("vm" + char + "1")
        assert char not in shown, repr(char)
        assert shown.startswith("vm\\") and shown.endswith("1"), repr(shown)


def test_printable_text_is_returned_as_it_is():
    for text in ("be7d0331-a976-4263-af40-4b7848944d49", "名前 ü", ""):
        assert columns.printable(text) is text
    # ZWJ (a format character, so not isprintable) is kept by the regex
    assert columns.printable("a\u200dB") == "a\u200dB"
    # tabs and newlines are kept although str.isprintable refuses them
    assert columns.printable("a\tb\nc") == "a\tb\nc"
