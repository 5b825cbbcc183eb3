"""What a newcomer hits first (issue 15): usage errors, help texts, errors
that say what to do next."""

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
