"""Reading an occli command line as python-openstackclient reads it.

OSC's cliff App parses its global options out of the whole line
(``parser.parse_known_args(argv)`` in cliff/app.py ``App.run``), so
``openstack server list --os-cloud local-admin`` and ``openstack server
--os-cloud x list`` work, and everything after ``--`` is the command's.
occli takes them likewise (exact names only: the global parser has
``allow_abbrev=False``, OSC's takes ``--ti`` for ``--timing``), with one
difference: an option the command defines itself stays the command's
(``software deployment create --timeout``), where OSC's global one would
take it (``openstack server ssh vm -v`` raises OSC's verbosity). ``-h`` and
``--help`` after a command are always the command's help, as OSC's
deferred help makes them.

Also the one-line message for a mistyped command (cliff's own prints every
command as close as the closest, on stdout).
"""

import argparse

#: Never taken as global after the first word: the command's (or the
#: group's) help.
_COMMAND_HELP = frozenset({"-h", "--help"})


def global_action(
    word: str, actions: dict[str, argparse.Action], owned: frozenset[str] = frozenset()
) -> argparse.Action | None:
    """The global option ``word`` names (``--os-cloud``, ``--os-cloud=x``),
    or None: not an option, the command's own, or not global."""
    if not word.startswith("-"):
        return None
    flag = word.partition("=")[0] if word.startswith("--") else word
    if flag in owned or flag in _COMMAND_HELP:
        return None
    return actions.get(flag)


def _short_flags(word: str, actions: dict[str, argparse.Action], owned: frozenset[str]) -> bool:
    """Whether ``word`` is global flags run together, as argparse reads
    them: ``-vv``, ``-vvv``."""
    if word.startswith("--") or len(word) < 3:
        return False
    for letter in word[1:]:
        action = global_action("-" + letter, actions, owned)
        if action is None or action.nargs != 0:
            return False
    return True


def take(
    argv: list[str],
    actions: dict[str, argparse.Action],
    owned: frozenset[str] = frozenset(),
    words_only: bool = False,
) -> tuple[list[str], list[str]]:
    """``(argv without its global options, those options and their
    values)``, nothing taken after ``--``.

    ``owned``: the option strings of the command, which stay in argv.
    ``words_only``: stop at the first option that is not global (the end
    of the command words).
    """
    rest: list[str] = []
    taken: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            rest.extend(argv[i:])
            break
        action = global_action(word, actions, owned)
        if action is None and not _short_flags(word, actions, owned):
            if words_only and word.startswith("-"):
                rest.extend(argv[i:])
                break
            rest.append(word)
            i += 1
            continue
        taken.append(word)
        i += 1
        if action is not None and "=" not in word and action.nargs != 0 and i < len(argv):
            taken.append(argv[i])
            i += 1
    return rest, taken


def command_positions(argv: list[str], actions: dict[str, argparse.Action]) -> list[int]:
    """Where the words that may name the command are in ``argv``: the words
    before the first option that is not global, global options' values
    skipped."""
    positions = []
    i = 0
    while i < len(argv):
        word = argv[i]
        action = global_action(word, actions)
        if action is not None:
            i += 2 if "=" not in word and action.nargs != 0 else 1
        elif _short_flags(word, actions, frozenset()):
            i += 1
        elif word.startswith("-"):
            break
        else:
            positions.append(i)
            i += 1
    return positions


#: At most this many commands named for a mistyped one.
SUGGESTIONS = 5


def suggestions(wrong: list[str], names: list[list[str]]) -> list[str]:
    """The commands (or groups) closest to the words ``wrong``, closest
    first, at most :data:`SUGGESTIONS`: what an ambiguous abbreviation
    stands for ("server s"), else difflib's close matches."""
    import difflib

    # the commands (or groups) as long as the words: "server add fixed"
    # for "server add x" (shown as "server add fixed ip", its one command)
    full: dict[str, list[str]] = {}
    for n in names:
        if len(n) >= len(wrong):
            full.setdefault(" ".join(n[: len(wrong)]), []).append(" ".join(n))
    typed = " ".join(wrong)
    close = [
        c
        for c in sorted(full)
        if all(a.startswith(b) for a, b in zip(c.split(), wrong, strict=True))
    ]
    if close:

        def distance(name: str) -> float:
            return -difflib.SequenceMatcher(None, typed, name).ratio()

        close = sorted(close, key=distance)[:SUGGESTIONS]
    else:
        close = difflib.get_close_matches(typed, sorted(full), n=SUGGESTIONS)
    return [full[c][0] if len(full[c]) == 1 else c for c in close]
