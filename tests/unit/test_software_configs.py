"""Software config manager and commands against the upstream heat samples."""

import json
import os
import re

import pytest

from occli import exceptions

from .fakes import FIXTURES
from .fakes import HEAT
from .fakes import load_fixture
from .fakes import requests_to

SAMPLES = os.path.join(FIXTURES, "orchestration")
CONFIG_ID = "ddee7aca-aa32-4335-8265-d436b20db4f1"
HEAT_404 = {
    "code": 404,
    "title": "Not Found",
    "explanation": "The resource could not be found.",
    "error": {
        "type": "NotFound",
        "traceback": None,
        "message": "Software config with id nosuch not found",
    },
}


def load_sample(*parts):
    """A heat sample; configs-list-response.json needs its trailing comma
    removed (it is invalid JSON upstream, see tests/fixtures/SOURCES.md)."""
    with open(os.path.join(SAMPLES, *parts)) as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", text))


def all_samples():
    for folder, _, files in sorted(os.walk(SAMPLES)):
        for name in sorted(files):
            if name.endswith(".json"):
                yield os.path.relpath(os.path.join(folder, name), SAMPLES)


@pytest.mark.parametrize("sample", list(all_samples()))
def test_every_orchestration_sample_parses(sample):
    assert isinstance(load_sample(sample), dict)


def test_the_list_sample_is_invalid_json_upstream():
    with pytest.raises(ValueError):
        load_fixture("orchestration", "software-configs", "configs-list-response.json")
    repaired = load_sample("software-configs", "configs-list-response.json")
    assert repaired["software_configs"][0]["id"] == CONFIG_ID


@pytest.fixture
def configs(mock_cloud):
    m = mock_cloud.mock
    m.get(
        HEAT + "/software_configs",
        json=load_sample("software-configs", "configs-list-response.json"),
    )
    m.get(
        HEAT + "/software_configs/" + CONFIG_ID,
        json=load_sample("software-configs", "config-show-response.json"),
    )
    m.get(
        HEAT + "/software_configs/nosuch",
        status_code=404,
        json=HEAT_404,
        headers={"x-openstack-request-id": "req-heat"},
    )
    m.get(HEAT + "/software_configs/a-config-we5zpvyu7b5o", status_code=404, json=HEAT_404)
    return m


def test_list_parses_the_sample(client, configs):
    got = list(client.software_configs.list())
    assert [c.id for c in got] == [CONFIG_ID]
    assert got[0].name == "a-config-we5zpvyu7b5o"
    assert got[0].group == "script"
    sent = requests_to(configs, "GET", "/software_configs")[0]
    assert sent.qs == {"limit": ["100"]}


def _page(start, count):
    return {
        "software_configs": [
            {"id": "c%d" % i, "name": "n%d" % i, "group": "script"}
            for i in range(start, start + count)
        ]
    }


def test_list_follows_pages_with_the_last_id_as_marker(client, mock_cloud):
    m = mock_cloud.mock
    m.get(
        HEAT + "/software_configs",
        [{"json": _page(0, 2)}, {"json": _page(2, 2)}, {"json": _page(4, 1)}],
    )
    client.software_configs.page_size = 2
    got = client.software_configs.iter(marker="start")
    assert not requests_to(m, "GET", "/software_configs")  # lazy
    assert [c.id for c in got] == ["c0", "c1", "c2", "c3", "c4"]
    sent = [r.qs for r in requests_to(m, "GET", "/software_configs")]
    assert sent == [
        {"limit": ["2"], "marker": ["start"]},
        {"limit": ["2"], "marker": ["c1"]},
        {"limit": ["2"], "marker": ["c3"]},
    ]


def test_list_limit_caps_the_total(client, mock_cloud):
    m = mock_cloud.mock
    m.get(HEAT + "/software_configs", [{"json": _page(0, 2)}, {"json": _page(2, 1)}])
    client.software_configs.page_size = 2
    assert [c.id for c in client.software_configs.list(limit=3)] == ["c0", "c1", "c2"]
    sent = [r.qs for r in requests_to(m, "GET", "/software_configs")]
    assert sent == [{"limit": ["2"]}, {"limit": ["1"], "marker": ["c1"]}]


def test_list_stops_when_a_server_ignores_the_marker(client, mock_cloud):
    mock_cloud.mock.get(HEAT + "/software_configs", json=_page(0, 2))
    client.software_configs.page_size = 2
    assert len(list(client.software_configs.list())) == 4
    assert len(requests_to(mock_cloud.mock, "GET", "/software_configs")) == 2


def test_get_parses_the_sample(client, configs):
    config = client.software_configs.get(CONFIG_ID)
    sample = load_sample("software-configs", "config-show-response.json")
    assert config.to_dict() == sample["software_config"]
    assert [i["name"] for i in config.inputs] == ["foo", "bar"]
    assert config.outputs[0]["error_output"] is False


def test_get_not_found_uses_heats_error_message(client, configs):
    with pytest.raises(exceptions.NotFound) as err:
        client.software_configs.get("nosuch")
    assert str(err.value) == (
        "Software config with id nosuch not found (HTTP 404) (Request-ID: req-heat)"
    )


def test_create_sends_an_unwrapped_body(client, mock_cloud):
    request = load_sample("software-configs", "config-create-request.json")
    response = load_sample("software-configs", "config-create-response.json")
    mock_cloud.mock.post(HEAT + "/software_configs", json=response)
    config = client.software_configs.create(
        request["name"],
        group=request["group"],
        config=request["config"],
        inputs=request["inputs"],
        outputs=request["outputs"],
        options=request["options"],
    )
    assert config.id == response["software_config"]["id"]
    sent = requests_to(mock_cloud.mock, "POST", "/software_configs")[0].json()
    assert sent == dict(request, options={})


def test_create_defaults(client, mock_cloud):
    mock_cloud.mock.post(HEAT + "/software_configs", json={"software_config": {"id": "x"}})
    client.software_configs.create("bare")
    sent = requests_to(mock_cloud.mock, "POST", "/software_configs")[0].json()
    assert sent == {
        "name": "bare",
        "group": "Heat::Ungrouped",
        "config": "",
        "inputs": [],
        "outputs": [],
        "options": {},
    }


def test_delete(client, mock_cloud):
    mock_cloud.mock.delete(HEAT + "/software_configs/" + CONFIG_ID, status_code=204)
    client.software_configs.delete(CONFIG_ID)
    assert requests_to(mock_cloud.mock, "DELETE", CONFIG_ID)


def test_find_resource_by_name(client, configs):
    config = client.software_configs.find_resource("a-config-we5zpvyu7b5o")
    assert config.id == CONFIG_ID


def test_find_resource_ambiguous_name(client, mock_cloud):
    m = mock_cloud.mock
    m.get(HEAT + "/software_configs/dup", status_code=404, json=HEAT_404)
    m.get(
        HEAT + "/software_configs",
        json={"software_configs": [{"id": "a", "name": "dup"}, {"id": "b", "name": "dup"}]},
    )
    with pytest.raises(exceptions.NoUniqueMatch) as err:
        client.software_configs.find_resource("dup")
    assert "software config" in str(err.value)


# -- commands ----------------------------------------------------------------


def test_config_list_command(cli, configs):
    code, out, err = cli(
        "software", "config", "list", "--limit", "5", "--marker", "m", "-f", "json"
    )
    assert code == 0, err
    assert json.loads(out) == [
        {
            "ID": CONFIG_ID,
            "Name": "a-config-we5zpvyu7b5o",
            "Group": "script",
            "Creation Time": "2015-01-31T15:12:36Z",
        }
    ]
    assert requests_to(configs, "GET", "/software_configs")[0].qs == {
        "limit": ["5"],
        "marker": ["m"],
    }


def test_config_show_command_by_name(cli, configs):
    code, out, err = cli("software", "config", "show", "a-config-we5zpvyu7b5o", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    sample = load_sample("software-configs", "config-show-response.json")["software_config"]
    assert list(shown) == [
        "id",
        "name",
        "group",
        "config",
        "inputs",
        "outputs",
        "options",
        "creation_time",
    ]
    assert shown["inputs"] == sample["inputs"]
    assert shown["config"] == sample["config"]


def test_config_show_config_only_prints_the_raw_config(cli, configs):
    sample = load_sample("software-configs", "config-show-response.json")["software_config"]
    code, out, err = cli("software", "config", "show", CONFIG_ID, "--config-only")
    assert code == 0, err
    assert out == sample["config"] + "\n"
    code, out, err = cli("software", "config", "show", CONFIG_ID, "--config-only", "-f", "json")
    assert json.loads(out) == {"config": sample["config"]}


def test_config_only_writes_to_the_app_stdout(app_run, configs, capsys):
    sample = load_sample("software-configs", "config-show-response.json")["software_config"]
    code, out, err = app_run("software", "config", "show", CONFIG_ID, "--config-only")
    assert (code, out, err) == (0, sample["config"] + "\n", "")
    assert capsys.readouterr() == ("", "")


def test_config_show_not_found(cli, configs):
    code, out, err = cli("software", "config", "show", "nosuch")
    assert code == 1
    assert "No software config with a name or ID of 'nosuch'" in err


@pytest.fixture
def created(mock_cloud):
    response = load_sample("software-configs", "config-create-response.json")
    mock_cloud.mock.post(HEAT + "/software_configs", json=response)
    return mock_cloud.mock


def test_config_create_from_files(cli, created, tmp_path):
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi > $heat_outputs_path.result\n")
    definition = tmp_path / "def.yaml"
    definition.write_text(
        "inputs:\n- name: foo\n  default: bar\n- name: n\n  type: Number\n"
        "outputs:\n- name: result\n- name: err\n  error_output: true\n"
        "options:\n  debug: true\n"
    )
    code, out, err = cli(
        "software",
        "config",
        "create",
        "cfg",
        "--config-file",
        str(script),
        "--definition-file",
        str(definition),
        "--group",
        "script",
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out)["id"] == "ddee7aca-aa32-4335-8265-d436b20db4f1"
    sent = requests_to(created, "POST", "/software_configs")[0].json()
    assert sent == {
        "name": "cfg",
        "group": "script",
        "config": "#!/bin/sh\necho hi > $heat_outputs_path.result\n",
        "inputs": [{"name": "foo", "default": "bar"}, {"name": "n", "type": "Number"}],
        "outputs": [{"name": "result"}, {"name": "err", "error_output": True}],
        "options": {"debug": True},
    }


def test_config_create_json_definition_and_defaults(cli, created, tmp_path):
    definition = tmp_path / "def.json"
    definition.write_text(json.dumps({"outputs": [{"name": "x"}]}))
    code, out, err = cli(
        "software", "config", "create", "cfg", "--definition-file", str(definition)
    )
    assert code == 0, err
    sent = requests_to(created, "POST", "/software_configs")[0].json()
    assert sent == {
        "name": "cfg",
        "group": "Heat::Ungrouped",
        "config": "",
        "inputs": [],
        "outputs": [{"name": "x"}],
        "options": {},
    }


@pytest.mark.parametrize(
    "text, message",
    [
        ("[1, 2]", "must hold a mapping"),
        ("inputs: {name: x}", "'inputs' must be a list of mappings"),
        ("outputs: [{type: String}]", "'outputs' must be a list of mappings"),
        ("options: [1]", "'options' must be a mapping"),
        ("input: []", "unknown key(s) input"),
        ("inputs: [", "not valid YAML or JSON"),
    ],
)
def test_config_create_rejects_bad_definitions(cli, created, tmp_path, text, message):
    definition = tmp_path / "def.yaml"
    definition.write_text(text)
    code, out, err = cli(
        "software", "config", "create", "cfg", "--definition-file", str(definition)
    )
    assert code == 2
    assert message in err
    assert not requests_to(created, "POST", "/software_configs")


def test_config_create_missing_file(cli, created, tmp_path):
    code, out, err = cli(
        "software", "config", "create", "cfg", "--config-file", str(tmp_path / "nope.sh")
    )
    assert code == 2
    assert "--config-file: cannot read" in err


def test_config_delete_reports_failures(cli, configs):
    configs.delete(HEAT + "/software_configs/" + CONFIG_ID, status_code=204)
    code, out, err = cli("software", "config", "delete", CONFIG_ID, "nosuch")
    assert code == 1
    assert err.startswith("Failed to delete software config nosuch: ")
    assert "(HTTP 404)" in err and len(err.strip().splitlines()) == 1
    assert requests_to(configs, "DELETE", CONFIG_ID)


def test_config_delete_by_name(cli, configs):
    configs.delete(HEAT + "/software_configs/" + CONFIG_ID, status_code=204)
    code, out, err = cli("software", "config", "delete", "a-config-we5zpvyu7b5o")
    assert code == 0, err
    assert out == ""
