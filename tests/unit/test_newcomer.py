"""What a newcomer hits first (issue 15): usage errors, help texts, errors
that say what to do next."""

import re

import pytest

from .fakes import HEAT
from .test_software_configs import load_sample
from .test_software_deployments import SERVER_ID, SERVER_NAME
from .test_software_deployments import cloud  # noqa: F401 - a fixture

USAGE_ERRORS = [
    (["server", "set", "vm1"], "--name"),
    (["server", "create", "v", "--flavor", "m1.tiny"], "--image"),
    (["software", "deployment", "create", "d", "--config", "c",
      "--server", "s", "--input-value", "bad"], "--input-value"),
    (["server", "create", "v", "--flavor", "m1.tiny", "--image", "i",
      "--user-data", "/nope"], "--user-data"),
    (["server", "create", "v", "--flavor", "m1.tiny", "--image", "i",
      "--min", "3", "--max", "2"], "--min"),
    (["server", "list", "-c", "nosuch"], "-c"),
    (["compute", "service", "set", "h", "s"], "--enable"),
]


@pytest.mark.parametrize("argv,option", USAGE_ERRORS,
                         ids=[" ".join(a[:3]) + "-" + o
                              for a, o in USAGE_ERRORS])
def test_usage_error_exits_2_with_one_line(cli, requests_mock, argv, option):
    code, out, err = cli(*argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert option in lines[0]
    assert "usage:" not in err
    assert requests_mock.request_history == []


# -- software deployment metadata show -f json|yaml -------------------------

@pytest.mark.parametrize("fmt", ["json", "yaml", None])
def test_metadata_show_accepts_json_and_yaml(cli, cloud, fmt):
    import json

    import yaml

    sample = load_sample("software-deployments",
                         "deployment-metadata-response.json")
    cloud.get(HEAT + "/software_deployments/metadata/" + SERVER_ID,
              json=sample)
    argv = ["software", "deployment", "metadata", "show", SERVER_NAME]
    if fmt:
        argv += ["-f", fmt]
    code, out, err = cli(*argv)
    assert code == 0, err
    parse = yaml.safe_load if fmt == "yaml" else json.loads
    assert parse(out) == sample["metadata"]
    if fmt == "yaml":
        assert not out.lstrip().startswith(("{", "["))


def test_metadata_show_refuses_other_formats(cli, requests_mock):
    code, out, err = cli("software", "deployment", "metadata", "show", "vm",
                         "-f", "table")
    assert code == 2 and "-f/--format" in err
    assert requests_mock.request_history == []


# -- every command's --help: no RST markup, one example ----------------------

_RST = re.compile(r"``|:ref:|:[a-z]+:`|^\s*\.\. [\w|-]+|`[^`\n]+`_", re.M)


def _builtin_commands(tmp_path_factory):
    from occli import plugins

    registry = plugins.Registry.build(
        (), cache_dir=str(tmp_path_factory.mktemp("cache")))
    return registry, sorted(
        name for name in registry.command_names()
        if registry.plugins[registry.commands[name]].builtin)


@pytest.fixture(scope="module")
def command_helps(tmp_path_factory):
    """Each built-in command's --help text, as argparse prints it."""
    from occli import cliff_adapter, shell

    registry, names = _builtin_commands(tmp_path_factory)
    assert "server create" in names and "software deployment signal" in names
    app = shell.OcCLI()
    helps = {}
    for name in names:
        cmd = cliff_adapter.make_command(name, registry.command(name))(app, None)
        helps[name] = cmd.get_parser("occli " + name).format_help()
    return helps


def test_help_texts_have_no_rst_markup(command_helps):
    bad = {name: _RST.search(text).group(0)
           for name, text in command_helps.items() if _RST.search(text)}
    assert bad == {}


def test_help_texts_give_an_example(command_helps):
    missing = [name for name, text in command_helps.items()
               if not re.search(r"^\s*Example: occli (--os-\S+ \S+ )*%s( |$)"
                                % re.escape(name), text, re.M)]
    assert missing == []


def test_help_example_stays_on_its_own_line(cli):
    code, out, err = cli("server", "list", "--help")
    assert code == 0
    assert "\nExample: occli server list --status ACTIVE --long\n" in out
