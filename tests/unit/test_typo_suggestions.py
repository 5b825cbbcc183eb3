"""A mistyped command or an ambiguous abbreviation: one line on stderr
naming at most five close commands, closest first, exit 2, no stdout and
no request (cliff's own prints every command as close as the closest on
stdout: 85 for ``server lsit``)."""

import re

import pytest

from occli import command_line


def suggested(err):
    """The commands a one-line error suggests."""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    match = re.search(r"Did you mean (.*)\? See 'occli --help'\.$", err.rstrip("\n"))
    assert match, err
    return re.findall(r"'([^']+)'", match.group(1))


@pytest.mark.parametrize(
    ("argv", "wrong", "first"),
    [
        (("server", "lsit"), "server lsit", "server list"),
        (("flavor", "lsit", "-f", "json"), "flavor lsit", "flavor list"),
        (("sever", "list"), "sever", "server"),  # the first wrong word named
        (("server", "shwo", "vm1"), "server shwo", "server show"),
    ],
)
def test_a_typo_is_one_line_with_the_closest_first(cli, mock_cloud, argv, wrong, first):
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert err.startswith("occli: '%s' is not an occli command." % wrong)
    names = suggested(err)
    assert names[0] == first
    assert 1 <= len(names) <= command_line.SUGGESTIONS == 5
    assert mock_cloud.mock.request_history == []


def test_an_ambiguous_abbreviation_names_at_most_five_of_what_it_abbreviates(cli, mock_cloud):
    code, out, err = cli("server", "s", "vm1")
    assert (code, out) == (2, "")
    names = suggested(err)
    assert len(names) == 5  # server set, shelve, show, ssh, start, stop, suspend...
    assert all(re.fullmatch(r"server s\w*( \w+)*", n) for n in names), names
    code, out, err = cli("server", "sh", "vm1")
    assert (code, out) == (2, "")
    assert sorted(suggested(err)) == ["server shelve", "server show"]


def test_closest_first_among_the_abbreviated():
    names = [n.split() for n in ("server set", "server show", "server shelve", "server stop")]
    assert command_line.suggestions(["server", "sho"], names)[0] == "server show"
    # a word standing for one command is shown as that command
    names.append(["server", "add", "fixed", "ip"])
    assert command_line.suggestions(["server", "ad"], names) == ["server add fixed ip"]


def test_nothing_close_is_one_line_without_suggestions(cli, mock_cloud):
    code, out, err = cli("zzzzzz")
    assert (code, out) == (2, "")
    assert err == "occli: 'zzzzzz' is not an occli command. See 'occli --help'.\n"
