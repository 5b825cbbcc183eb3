"""The README's command list names every built-in command (issue 12's
"the README's command list complete")."""

import pathlib
import re

from .test_newcomer import _setup_cfg_commands

README = pathlib.Path(__file__).resolve().parents[2] / "README.rst"


def _optional_words(match):
    """``x [a|b]`` → ``x|x a|x b``."""
    word = match.group(1)
    return "|".join([word] + ["%s %s" % (word, a) for a in match.group(2).split("|")])


def _listed_commands():
    """Every command the README's ``Commands`` bullets spell, expanding
    ``group a|b|c d`` to ``group a``, ``group b``, ``group c d`` and
    ``x [a|b]`` to ``x``, ``x a``, ``x b``."""
    text = README.read_text()
    section = text[text.index("\nCommands\n") : text.index("\nExit codes")]
    names = set()
    for span in re.findall(r"``([^`]+)``", " ".join(section.split())):
        span = re.sub(r"(\w+) \[([^\]]+)\]", _optional_words, span)
        alternatives = span.split("|")
        if len(alternatives) == 1:
            names.add(span.strip())
            continue
        # "server list|show": the group is the first alternative but its last word
        group, _, first = alternatives[0].rpartition(" ")
        for alt in [first] + alternatives[1:]:
            names.add(("%s %s" % (group, alt.strip())).strip())
    return names


def test_every_command_is_in_the_readme():
    listed = _listed_commands()
    missing = sorted(set(_setup_cfg_commands()) - listed)
    assert missing == [], "add to the README's Commands list: %s" % ", ".join(missing)


def test_the_expansion_reads_the_readme_forms():
    listed = _listed_commands()
    assert {"server resize confirm", "server migration force complete", "server list"} <= listed
