"""No secret of the command line is echoed by a usage error (issue 19,
finding 12): a mistyped command, an unrecognised or mistyped option, an
ambiguous abbreviation. The value of an option nothing recognised is shown
as ``***`` (it may be a mistyped ``--password``'s), as ``--debug`` masks
secrets. And a mistyped command is a usage error on stderr with a few
suggestions, not every command on stdout (issue 22). In-process
``occli.shell.main``: argument errors come before any request."""

import pytest

SECRET = "Pa55-w0rd-4rgv"


@pytest.fixture
def occli(monkeypatch, tmp_path, capsys):
    """Run ``occli ARGV…`` in-process with no cloud: ``(code, out, err)``."""
    from occli import shell

    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OS_AUTH_URL", "http://127.0.0.1:9/identity/v3")

    def run(*argv):
        capsys.readouterr()
        code = shell.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.parametrize(
    "argv, shown",
    [
        # a mistyped command: cliff echoed the whole line on stdout
        (("user", "sett", "bob", "--password", SECRET), "'user sett' is not an occli command"),
        (("--debug", "user", "sett", "bob", "--password", SECRET), "'user sett'"),
        # a mistyped global option ahead of the command
        (("--os-pasword", SECRET, "server", "list"), "unrecognized arguments: --os-pasword ***"),
        # argparse's "unrecognized arguments"
        (("server", "list", "--pasword", SECRET), "unrecognized arguments: --pasword ***"),
        (("user", "create", "bob", "--passwd", SECRET), "--passwd ***"),
        (
            ("server", "list", "--pasword=" + SECRET, "--bogus"),
            "unrecognized arguments: --pasword=*** --bogus",
        ),
        # a global option after the command is taken (never echoed)
        (("server", "list", "--os-password=" + SECRET, "--bogus"), "arguments: --bogus"),
        (("server", "list", "-p" + SECRET), "unrecognized arguments: -p***"),
        (("help", "--pasword=" + SECRET), "unrecognized arguments: --pasword=***"),
        # an ambiguous abbreviation and a flag given a value
        (
            ("user", "create", "bob", "--pas=" + SECRET),
            "ambiguous option: --pas=*** could match --password, --password-prompt",
        ),
        (
            ("user", "create", "bob", "--password-prompt=" + SECRET),
            "argument --password-prompt: ignored explicit argument '***'",
        ),
    ],
)
def test_usage_errors_mask_secrets(occli, argv, shown):
    code, out, err = occli(*argv)
    assert code == 2
    assert SECRET not in out + err
    assert out == ""
    assert shown in err


def test_redact_args_masks_the_word_after_any_option():
    from occli.redaction import redact_args

    assert redact_args(["vm1", "--pasword", "P", "--x=Q", "-yR", "-z", "S", "--", "T"]) == [
        "vm1",
        "--pasword",
        "***",
        "--x=***",
        "-y***",
        "-z",
        "***",
        "--",
        "T",
    ]


def test_redact_usage_masks_values_of_secret_options_only():
    from occli.redaction import redact_usage

    assert (
        redact_usage("argument --admin-pass: invalid value: 'P'")
        == "argument --admin-pass: invalid value: '***'"
    )
    text = "argument --timeout: invalid float value: 'soon'"
    assert redact_usage(text) == text


def test_a_typo_is_a_usage_error_on_stderr_with_a_few_suggestions(occli):
    code, out, err = occli("server", "lsit")
    assert code == 2
    assert out == ""
    assert err.startswith("occli: 'server lsit' is not an occli command. Did you mean")
    assert "'server list'" in err
    assert err.count("\n") == 1  # one line (tests/unit/test_typo_suggestions.py)


def test_an_ambiguous_abbreviation_lists_what_it_abbreviates(occli):
    code, out, err = occli("server", "sh", "vm1")
    assert (code, out) == (2, "")
    assert "Did you mean 'server show', 'server shelve'?" in err


def test_a_group_alone_points_at_its_help(occli):
    code, out, err = occli("server")
    assert (code, out) == (2, "")
    assert err == "occli: 'server' is not an occli command. See 'occli server --help'.\n"


def test_help_of_a_mistyped_command_is_the_same_usage_error(occli):
    code, out, err = occli("zzz", "--password", SECRET, "--help")
    assert (code, out) == (2, "")
    assert SECRET not in err
    assert err.startswith("occli: 'zzz' is not an occli command.")
    # a group's help still lists its commands
    code, out, _ = occli("server", "--help")
    assert code == 0
    assert "server list" in out
