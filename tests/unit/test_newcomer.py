"""What a newcomer hits first (issue 15): usage errors, help texts, errors
that say what to do next."""

import re

import pytest

from . import test_software_deployments as sd_tests
from .fakes import COMPUTE
from .fakes import HEAT
from .test_software_configs import load_sample
from .test_software_deployments import SERVER_ID
from .test_software_deployments import SERVER_NAME

cloud = sd_tests.cloud  # a fixture: the deployments' mocked cloud

USAGE_ERRORS = [
    (["server", "set", "vm1"], "--name"),
    (["server", "create", "v", "--flavor", "m1.tiny"], "--image"),
    (
        [
            "software",
            "deployment",
            "create",
            "d",
            "--config",
            "c",
            "--server",
            "s",
            "--input-value",
            "bad",
        ],
        "--input-value",
    ),
    (
        ["server", "create", "v", "--flavor", "m1.tiny", "--image", "i", "--user-data", "/nope"],
        "--user-data",
    ),
    (
        [
            "server",
            "create",
            "v",
            "--flavor",
            "m1.tiny",
            "--image",
            "i",
            "--min",
            "3",
            "--max",
            "2",
        ],
        "--min",
    ),
    (["server", "list", "-c", "nosuch"], "-c"),
    (["compute", "service", "set", "h", "s"], "--enable"),
    (
        ["--os-compute-api-version", "2.80", "server", "migration", "list"]
        + ["--changes-since", "bad"],
        "--changes-since",
    ),
    # argparse's own errors: one line too, no usage summary
    (["server", "create", "v", "--image", "i"], "--flavor"),
    (["server", "create", "v", "--flavor", "m1.tiny", "--image", "i", "--nic", "bad"], "--nic"),
    (["server", "list", "--bogus"], "--bogus"),
]


@pytest.mark.parametrize(
    "argv,option", USAGE_ERRORS, ids=[" ".join(a[:3]) + "-" + o for a, o in USAGE_ERRORS]
)
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

    sample = load_sample("software-deployments", "deployment-metadata-response.json")
    cloud.get(HEAT + "/software_deployments/metadata/" + SERVER_ID, json=sample)
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
    code, out, err = cli("software", "deployment", "metadata", "show", "vm", "-f", "table")
    assert code == 2 and "-f/--format" in err
    assert requests_mock.request_history == []


# -- every command's --help: no RST markup, one example ----------------------

_RST = re.compile(r"``|:ref:|:[a-z]+:`|^\s*\.\. [\w|-]+|`[^`\n]+`_", re.M)


def _builtin_commands(tmp_path_factory):
    from occli import plugins

    registry = plugins.Registry.build((), cache_dir=str(tmp_path_factory.mktemp("cache")))
    return registry, sorted(
        name
        for name in registry.command_names()
        if registry.plugins[registry.commands[name]].builtin
    )


def _setup_cfg_commands():
    """``{name: do_* function}`` of every module setup.cfg declares in
    ``occli.commands``: the source of truth, also for a module added since
    the installed entry points were written."""
    import configparser
    import importlib
    import pathlib

    from occli import plugins

    cfg = configparser.ConfigParser()
    cfg.read(pathlib.Path(__file__).resolve().parents[2] / "setup.cfg")
    commands = {}
    for line in cfg["options.entry_points"]["occli.commands"].split("\n"):
        if "=" in line:
            module = importlib.import_module(line.split("=", 1)[1].strip())
            commands.update(plugins.commands_of(module))
    return commands


@pytest.fixture(scope="module")
def command_functions(tmp_path_factory):
    """Each built-in command's ``do_*`` function (registry and setup.cfg)."""
    registry, names = _builtin_commands(tmp_path_factory)
    assert "server create" in names and "software deployment signal" in names
    functions = _setup_cfg_commands()
    functions.update((name, registry.command(name)) for name in names)
    return functions


@pytest.fixture(scope="module")
def command_helps(command_functions):
    """Each built-in command's --help text, as argparse prints it."""
    from occli import cliff_adapter
    from occli import shell

    app = shell.OcCLI()
    helps = {}
    for name, func in sorted(command_functions.items()):
        cmd = cliff_adapter.make_command(name, func)(app, None)
        helps[name] = cmd.get_parser("occli " + name).format_help()
    return helps


# ``occli --help`` shows a docstring's first line: it must be the whole
# summary. Pending in a module another change is rewriting (issue 12's
# network and volume quotas): remove once its summaries are one line.
def test_every_command_has_a_one_line_summary(command_functions):
    import inspect

    bad = {}
    for name, func in command_functions.items():
        paragraph = (inspect.getdoc(func) or "").split("\n\n")[0]
        if "\n" in paragraph or not paragraph.endswith(".") or len(paragraph) > 80:
            bad[name] = paragraph
    assert bad == {}


def test_summary_is_the_first_line_of_the_help(command_helps, command_functions):
    import inspect

    for name, text in command_helps.items():
        summary = (inspect.getdoc(command_functions[name]) or "").split("\n")[0]
        assert "\n\n%s\n" % summary in text, name


def test_help_texts_have_no_rst_markup(command_helps):
    bad = {
        name: _RST.search(text).group(0)
        for name, text in command_helps.items()
        if _RST.search(text)
    }
    assert bad == {}


def test_help_texts_give_an_example(command_helps):
    missing = [
        name
        for name, text in command_helps.items()
        if not re.search(
            r"^\s*Example: occli (--os-\S+ \S+ )*%s( |$)" % re.escape(name), text, re.M
        )
    ]
    assert missing == []


def test_help_example_stays_on_its_own_line(cli):
    code, out, err = cli("server", "list", "--help")
    assert code == 0
    assert "\nExample: occli server list --status ACTIVE --long\n" in out


# -- errors that say what to do next -----------------------------------------


def _write_clouds(path, *names, auth_url="http://cloud.test/identity/v3"):
    import yaml

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        yaml.safe_dump(
            {
                "clouds": {
                    name: {
                        "auth": {
                            "auth_url": auth_url,
                            "username": "admin",
                            "password": "x",
                            "project_name": "admin",
                            "user_domain_id": "default",
                            "project_domain_id": "default",
                        }
                    }
                    for name in names
                }
            }
        )
    )


def test_unknown_cloud_lists_the_clouds_that_exist(cli, requests_mock, tmp_path, monkeypatch):
    _write_clouds(tmp_path / "clouds.yaml", "prod", "staging")
    _write_clouds(tmp_path / "lc" / "clouds.yaml", "localcloud")
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(tmp_path / "clouds.yaml"))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(tmp_path / "lc"))
    code, out, err = cli("--os-cloud", "nosuch", "server", "list")
    assert code == 1
    assert "Cloud 'nosuch' was not found" in err
    assert "Use --os-cloud with one of: localcloud, prod, staging." in err
    assert requests_mock.request_history == []


def test_unknown_cloud_names_the_local_clouds_file_once(cli, requests_mock, tmp_path, monkeypatch):
    """OS_CLIENT_CONFIG_FILE pointing at the local cloud's own file (as
    occli-localcloud start suggests): the file and its clouds once."""
    _write_clouds(tmp_path / "lc" / "clouds.yaml", "local", "local-admin")
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(tmp_path / "lc" / "clouds.yaml"))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(tmp_path / "lc"))
    code, out, err = cli("--os-cloud", "nosuch", "server", "list")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert err.count(str(tmp_path / "lc" / "clouds.yaml")) == 2  # where it looked, searched
    assert "local cloud's" not in err
    assert "Use --os-cloud with one of: local, local-admin." in err


def test_unknown_cloud_without_any_clouds_says_so(cli, requests_mock):
    code, out, err = cli("--os-cloud", "nosuch", "server", "list")
    assert code == 1
    assert "No clouds.yaml defines any cloud" in err


@pytest.mark.parametrize("local", [True, False], ids=["localcloud", "other"])
def test_unreachable_cloud_names_the_url(cli, requests_mock, tmp_path, monkeypatch, local):
    import requests

    url = "http://127.0.0.1:9/identity/v3"
    where = tmp_path / ("lc" if local else "user") / "clouds.yaml"
    _write_clouds(where, "mine", auth_url=url)
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(tmp_path / "lc"))
    if not local:
        monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(where))
    requests_mock.get(
        url, exc=requests.exceptions.ConnectionError("[Errno 111] Connection refused")
    )
    requests_mock.post(
        url + "/auth/tokens",
        exc=requests.exceptions.ConnectionError("[Errno 111] Connection refused"),
    )
    code, out, err = cli("--os-cloud", "mine", "server", "list")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Cannot reach cloud 'mine' at %s (connection refused)." % url in err
    assert ("occli-localcloud status" in err) == local


def test_policy_refusal_says_an_admin_role_is_needed(cli, mock_cloud):
    from .fakes import COMPUTE

    message = "Policy doesn't allow os_compute_api:os-aggregates:index to be performed."
    mock_cloud.mock.get(
        COMPUTE + "/os-aggregates",
        status_code=403,
        json={"forbidden": {"code": 403, "message": message}},
    )
    code, out, err = cli("aggregate", "list")
    assert code == 1
    assert message in err
    assert "(this operation needs the admin role" in err


def test_other_403_gets_no_admin_hint():
    import requests

    from occli import exceptions

    response = requests.Response()
    response.status_code = 403
    response._content = (
        b'{"error": {"code": 403, "title": "Forbidden", '
        b'"message": "You are not authorized to perform the '
        b"requested action: Using method POST is not "
        b'allowed."}}'
    )
    exc = exceptions.from_response(response)
    assert "admin role" not in str(exc)


def test_deleting_a_non_empty_aggregate_suggests_removing_hosts(cli, mock_cloud):
    from .test_aggregates import AGGS
    from .test_aggregates import aggs  # noqa: F401
    from .test_aggregates import nova_error

    m = mock_cloud.mock
    agg = {
        "id": 1,
        "name": "agg1",
        "hosts": ["host1", "host2"],
        "metadata": {},
        "availability_zone": None,
    }
    m.get(AGGS, json={"aggregates": [agg]})
    m.get(AGGS + "/1", json={"aggregate": agg})
    m.delete(
        AGGS + "/1",
        **nova_error(
            400, "Cannot remove host from aggregate 1. Reason: Host aggregate is not empty."
        ),
    )
    code, out, err = cli("aggregate", "delete", "agg1")
    assert code == 1
    assert "Host aggregate is not empty" in err
    assert "occli aggregate remove host agg1 host1 host2" in err


def test_output_show_before_any_signal_says_so(cli, cloud):
    from .test_software_deployments import DEPLOYMENT_ID
    from .test_software_deployments import DEPLOYMENT_URL
    from .test_software_deployments import deployment

    cloud.get(DEPLOYMENT_URL, json=deployment("IN_PROGRESS", output_values=None))
    for argv in (["result"], ["--all"]):
        code, out, err = cli("software", "deployment", "output", "show", DEPLOYMENT_ID, *argv)
        assert code == 1
        assert "has not signalled yet" in err, err
        assert out == ""


def test_a_unique_prefix_of_each_word_names_the_command(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/detail",
        json={"flavors": [{"id": "1", "name": "m1.tiny", "ram": 512, "disk": 1, "vcpus": 1}]},
    )
    full = cli("flavor", "list", "-f", "value", "-c", "Name")
    short = cli("flav", "lis", "-f", "value", "-c", "Name")
    assert full == short == (0, "m1.tiny\n", "")


def test_an_ambiguous_prefix_is_a_usage_error(cli, requests_mock):
    code, out, err = cli("server", "s", "vm1")
    assert code == 2
    assert "is not an occli command" in out + err and "server show" in out + err
    assert requests_mock.request_history == []
