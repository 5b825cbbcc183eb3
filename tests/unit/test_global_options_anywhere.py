"""Global options after the command and among its words, as
python-openstackclient takes them (cliff's ``App.run`` parses them out of
the whole line); a command's own option of the same name stays its own."""

import json

import pytest

from occli import cliff_adapter
from occli import shell

from .fakes import COMPUTE
from .fakes import requests_to


def flavors(mock):
    mock.get(
        COMPUTE + "/flavors/detail",
        json={"flavors": [{"id": "1", "name": "m1.tiny", "ram": 512, "disk": 1, "vcpus": 1}]},
    )


def not_found(err, cloud):
    return "Cloud '%s' was not found" % cloud in err


@pytest.mark.parametrize(
    "argv",
    [
        ("flavor", "list", "--os-cloud", "nope"),
        ("flavor", "list", "--os-cloud=nope", "-f", "json"),
        ("flavor", "--os-cloud", "nope", "list"),
        ("flavor", "list", "-f", "json", "--os-cloud", "nope", "--long"),
    ],
)
def test_os_cloud_after_the_command_is_the_global_one(cli, mock_cloud, argv):
    code, out, err = cli(*argv)
    assert code == 1 and out == ""
    assert not_found(err, "nope"), err
    assert mock_cloud.mock.request_history == []


def test_a_value_that_looks_like_a_command_word_is_the_value(cli, mock_cloud):
    code, _, err = cli("flavor", "list", "--os-cloud", "list")
    assert code == 1 and not_found(err, "list"), err
    code, _, err = cli("--os-cloud", "flavor", "flavor", "list")
    assert code == 1 and not_found(err, "flavor"), err


def test_after_a_double_dash_everything_is_the_commands(cli, mock_cloud):
    code, out, err = cli("flavor", "list", "--", "--os-cloud", "nope")
    assert (code, out) == (2, "")
    assert "unrecognized arguments: -- --os-cloud" in err
    assert not not_found(err, "nope")


def test_timing_and_debug_after_the_command(cli, mock_cloud):
    flavors(mock_cloud.mock)
    code, out, err = cli("flavor", "list", "-f", "json", "--timing")
    assert code == 0, err
    assert json.loads(out)[0]["Name"] == "m1.tiny"
    assert "Timing:" in err and "/flavors/detail" in err
    code, out, err = cli("flavor", "list", "--debug", "-f", "json")
    assert code == 0, err
    assert "/flavors/detail" in err  # the debug log of the request


def run_app(argv):
    app = shell.OcCLI()
    code = app.run(list(argv))
    return app, code


def test_options_after_the_command_reach_the_app_options(cli, mock_cloud):
    flavors(mock_cloud.mock)
    app, code = run_app(
        ["flavor", "list", "-v", "-f", "json", "-vv", "--timeout", "7", "--retries=4"]
        + ["--no-cache"]
    )
    assert code == 0
    # -v once by default (cliff), then three more
    assert app.options.verbose_level == 4
    assert (app.options.api_timeout, app.options.retries, app.options.no_cache) == (7.0, 4, True)
    assert len(requests_to(mock_cloud.mock, "GET", "/flavors/detail")) == 1


def test_the_commands_own_option_of_a_global_name_stays_its_own(cli, mock_cloud):
    app = shell.OcCLI()
    app._register_commands()
    app.options, _ = app.parser.parse_known_args([])
    argv = ["software", "deployment", "create", "--timeout", "9", "--debug", "--os-cloud", "x"]
    assert app._take_global_options(argv) == [
        "software",
        "deployment",
        "create",
        "--timeout",
        "9",
    ]
    assert app.options.api_timeout is None  # not the global --timeout
    assert app.options.debug and app.options.cloud == "x"


def test_help_after_the_command_is_the_commands(cli, mock_cloud):
    code, out, _ = cli("flavor", "list", "--help")
    assert code == 0 and out.startswith("usage: occli flavor list")
    code, out, _ = cli("flavor", "list", "--os-cloud", "nope", "-h")
    assert code == 0 and out.startswith("usage: occli flavor list")


def test_a_commands_help_points_at_the_global_options(cli, mock_cloud):
    code, out, _ = cli("flavor", "list", "--help")
    assert code == 0
    assert " ".join(out.split()).endswith(" ".join(cliff_adapter.GLOBAL_OPTIONS_HINT.split()))
    code, out, _ = cli("help", "server", "show")
    assert code == 0
    assert "occli --help lists them" in " ".join(out.split())


def test_occli_help_lists_every_global_option(cli, mock_cloud):
    code, out, _ = cli("--help")
    assert code == 0
    flags = [f for a in shell.OcCLI().parser._actions for f in a.option_strings]
    assert {"--os-cloud", "--debug", "--timing", "--insecure", "-v"} <= set(flags)
    missing = [f for f in flags if f not in out.split("Commands:")[0]]
    assert missing == []


def test_a_typo_among_global_options_after_the_command_still_names_the_command(cli, mock_cloud):
    code, out, err = cli("flavor", "lsit", "--os-cloud", "x")
    assert (code, out) == (2, "")
    assert err.startswith("occli: 'flavor lsit' is not an occli command.")


@pytest.mark.parametrize(
    "argv", [("flavor", "list", "--retries", "many"), ("--retries", "many", "flavor", "list")]
)
def test_a_bad_global_value_is_a_one_line_usage_error(cli, mock_cloud, argv):
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert err == ("occli: argument --retries: invalid int value: 'many' (see occli --help)\n")
    assert mock_cloud.mock.request_history == []
