"""occli's output of the commands it shares with python-openstackclient
has OSC's columns, in OSC's order, with values of OSC's shapes.

tests/fixtures/osc/outputs-osc.json holds what OSC 10.5 printed against a
fresh local cloud after the recorder's SETUP (record_outputs.py, which
needs OSC; this test does not): here a fresh local cloud gets the same
SETUP from occli, each command runs in-process with ``-f json`` (and
``-f value -c …``) and its column names, their order and the type of
each value (lists and dicts element by element) must be OSC's. Ids and
times are placeholders on both sides.
"""

import json
import os
import pathlib
import shlex
import sys

import pytest

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "osc"
RECORDING = json.loads((FIXTURE / "outputs-osc.json").read_text())
sys.path.insert(0, str(FIXTURE))
import record_outputs  # noqa: E402

#: commands whose output still differs from OSC's, and why (strict
#: xfails: one that starts to match fails until it is taken off)
KNOWN = {
    "volume show contract-volume": "read at 3.0: no consumes_quota, volume_type_id, …",
    "port show contract-port": "Neutron's raw keys (binding:vnic_type, …)",
    "quota show": "occli's resource names, no injected-file rows",
}
#: ``-f value`` outputs that still differ, and why
KNOWN_VALUES: dict[str, str] = {}


@pytest.fixture(scope="module")
def occli_run(tmp_path_factory):
    """Run ``occli --os-cloud CLOUD WORDS…`` in-process against a fresh
    local cloud after the recorder's SETUP: ``(exit, stdout, stderr)``."""
    from occli import shell
    from occli import testing

    cloud = testing.start_local_cloud()
    patch = pytest.MonkeyPatch()
    for key in list(os.environ):
        if key.startswith("OS_"):
            patch.delenv(key)
    for key in ("OS_CLIENT_CONFIG_FILE", "OS_CLIENT_SECURE_FILE", "OCCLI_CACHE_DIR"):
        patch.setenv(key, cloud.environ()[key])
    patch.setenv("OCCLI_LOCALCLOUD_DIR", cloud.data_dir)

    def run(who, words):
        import contextlib
        import io

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = shell.main(["--os-cloud", who, *words])
        return code, out.getvalue(), err.getvalue()

    pubkey = tmp_path_factory.mktemp("contract") / "contract.pub"
    pubkey.write_text(RECORDING["pubkey"] + "\n")
    try:
        for who, command in RECORDING["setup"]:
            code, _, err = run(who, shlex.split(command.format(pubkey=pubkey)))
            assert code == 0, (command, err)
        yield run
    finally:
        patch.undo()
        cloud.stop()


def shape(value):
    """The type names of ``value``, lists and dicts element by element."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


def _columns(output):
    """(column names in order, shapes) of a show's object or a list's rows."""
    if isinstance(output, list):
        return [list(row) for row in output], [shape(row) for row in output]
    return list(output), shape(output)


def _entries(known):
    return [
        pytest.param(
            entry,
            id=entry["command"],
            marks=(
                [pytest.mark.xfail(reason=known[entry["command"]], strict=True)]
                if entry["command"] in known
                else []
            ),
        )
        for entry in RECORDING["commands"]
    ]


def test_the_recording_covers_the_issues_commands():
    commands = [entry["command"].split(" contract")[0] for entry in RECORDING["commands"]]
    assert len(commands) >= 19
    for words in ("server show", "server list --long", "aggregate list", "quota show"):
        assert words in commands


@pytest.mark.parametrize("entry", _entries(KNOWN))
def test_json_columns_order_and_shapes_are_oscs(entry, occli_run):
    code, out, err = occli_run(entry["cloud"], record_outputs.argv(entry["command"], "json"))
    assert code == 0, err
    mine = record_outputs.placeholders(json.loads(out))
    names, shapes = _columns(mine)
    osc_names, osc_shapes = _columns(entry["osc"])
    assert names == osc_names
    assert shapes == osc_shapes


@pytest.mark.parametrize(
    "entry", [e for e in _entries(KNOWN_VALUES) if "osc_value" in e.values[0]]
)
def test_value_text_is_oscs(entry, occli_run):
    columns = entry["osc_value"]["columns"]
    words = record_outputs.argv(entry["command"], "value", columns)
    code, out, err = occli_run(entry["cloud"], words)
    assert code == 0, err
    # the same text: a dict or list cell as its Python repr, as OSC prints it
    assert record_outputs.placeholders(out) == entry["osc_value"]["text"]


def test_server_show_still_takes_novas_keys_in_c(occli_run):
    words = ["server", "show", "contract-server", "-f", "json"]
    code, out, err = occli_run("local", words)
    assert code == 0, err
    shown = json.loads(out)
    assert "tenant_id" not in shown and "metadata" not in shown
    code, out, err = occli_run("local", [*words, "-c", "tenant_id", "-c", "metadata"])
    assert code == 0, err
    assert json.loads(out) == {"tenant_id": shown["project_id"], "metadata": {}}


def test_keypair_show_still_takes_novas_deleted_in_c(occli_run):
    words = ["keypair", "show", "contract-key", "-f", "json", "-c", "deleted", "-c", "id"]
    code, out, err = occli_run("local", words)
    assert code == 0, err
    assert json.loads(out) == {"deleted": False, "id": "contract-key"}


def test_image_show_still_takes_a_propertys_name_in_c(occli_run):
    words = ["image", "show", "cirros-0.6.2-x86_64-disk", "-f", "json", "-c", "os_distro"]
    code, out, err = occli_run("local", [*words, "-c", "name"])
    assert code == 0, err
    assert json.loads(out) == {"os_distro": "cirros", "name": "cirros-0.6.2-x86_64-disk"}


def test_volume_show_still_takes_cinders_keys_in_c(occli_run):
    words = ["volume", "show", "contract-volume", "-f", "json", "-c", "volume_type"]
    code, out, err = occli_run("local", [*words, "-c", "metadata", "-c", "type"])
    assert code == 0, err
    shown = json.loads(out)
    assert shown == {"type": shown["volume_type"], "volume_type": "__DEFAULT__", "metadata": {}}


def test_network_show_still_takes_neutrons_keys_in_c(occli_run):
    words = ["network", "show", "contract-net", "-f", "json", "-c", "tenant_id"]
    code, out, err = occli_run("local", [*words, "-c", "vlan_transparent", "-c", "project_id"])
    assert code == 0, err
    shown = json.loads(out)
    assert shown["tenant_id"] == shown["project_id"] and shown["vlan_transparent"] is False
