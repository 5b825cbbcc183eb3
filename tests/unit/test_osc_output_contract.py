"""occli's output of the commands it shares with python-openstackclient
has OSC's columns, in OSC's order, with values of OSC's shapes.

tests/fixtures/osc/outputs-osc.json holds what OSC 10.5 printed against a
fresh local cloud after the recorder's SETUP (record_outputs.py, which
needs OSC; this test does not): here a fresh local cloud gets the same
SETUP from occli, each command runs in-process with ``-f json`` (and
``-f value -c …``) and its column names, their order and the type of
each value (lists and dicts element by element) must be OSC's; the text
of the few commands recorded in table, csv and shell as well must be
OSC's, cell by cell in a table. Ids and times are placeholders on both
sides.
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
KNOWN: dict[str, str] = {}
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

    files = record_outputs.setup_files(tmp_path_factory.mktemp("contract"))
    try:
        for who, command in RECORDING["setup"]:
            code, _, err = run(who, shlex.split(command.format(**files)))
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


#: the commands occli shares with OSC that print resources (issue 22)
SHARED = (
    "server show",
    "server list",
    "server list --long",
    "server list --all-projects",
    "server event list",
    "server group show",
    "server group list",
    "image show",
    "image list",
    "image list --long",
    "volume show",
    "volume list",
    "volume snapshot show",
    "volume snapshot list",
    "volume backup show",
    "volume type show",
    "volume type list",
    "aggregate show",
    "aggregate list",
    "aggregate list --long",
    "hypervisor show",
    "hypervisor list",
    "compute service list",
    "usage show",
    "flavor show",
    "flavor list",
    "flavor list --long",
    "keypair show",
    "keypair list",
    "network show",
    "network list",
    "network list --long",
    "subnet show",
    "subnet list",
    "port show",
    "port list",
    "router show",
    "router list",
    "security group show",
    "security group list",
    "security group rule list",
    "floating ip show",
    "floating ip list",
    "quota show",
    "limits show --absolute",
    "availability zone list",
    "project show",
    "project list",
    "user list",
    "role list",
    "endpoint list",
    "service list",
    "stack show",
    "stack list",
    "container list",
    "object list",
)


def _words(command):
    """A recorded command's words less the resource it names."""
    words = [w for w in command.split() if not w.startswith(("contract", "172.", "host1"))]
    return " ".join(w for w in words if w not in ("demo", "__DEFAULT__", "m1.tiny", CIRROS))


CIRROS = "cirros-0.6.2-x86_64-disk"


def test_the_recording_covers_the_issues_commands():
    commands = [_words(entry["command"]) for entry in RECORDING["commands"]]
    assert sorted(commands) == sorted(SHARED)


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


#: table, csv and shell texts that still differ from OSC's, and why
KNOWN_TEXTS: dict[str, str] = {}


def _texts(known):
    """(entry, format) of each recorded OSC text, strict xfails for known."""
    return [
        pytest.param(
            entry,
            fmt,
            id="%s -f %s" % (entry["command"], fmt),
            marks=(
                [pytest.mark.xfail(reason=known[entry["command"]], strict=True)]
                if entry["command"] in known
                else []
            ),
        )
        for entry in RECORDING["commands"]
        for fmt in record_outputs.TEXT_FORMATS.get(entry["command"], ())
        if "osc_" + fmt in entry
    ]


def table_cells(text):
    """A table's lines as lists of stripped cells, rules left out: the
    widths of columns holding ids are those of the placeholders."""
    return [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in text.splitlines()
        if line.startswith("|")
    ]


def test_the_recording_has_table_csv_and_shell_texts():
    recorded = {(e.values[0]["command"], e.values[1]) for e in _texts({})}
    assert {("server show contract-server", "shell"), ("server list --long", "csv")} <= recorded
    assert len([fmt for _, fmt in recorded if fmt == "table"]) >= 6


@pytest.mark.parametrize("entry,fmt", _texts(KNOWN_TEXTS))
def test_table_csv_and_shell_text_is_oscs(entry, fmt, occli_run):
    code, out, err = occli_run(entry["cloud"], record_outputs.argv(entry["command"], fmt))
    assert code == 0, err
    mine, oscs = record_outputs.placeholders(out), entry["osc_" + fmt]
    if fmt == "table":
        assert table_cells(mine) == table_cells(oscs)
    else:
        assert mine.splitlines() == oscs.splitlines()


def test_port_show_still_takes_neutrons_keys_in_c(occli_run):
    words = ["port", "show", "contract-port", "-f", "json", "-c", "binding:vnic_type"]
    code, out, err = occli_run("local", [*words, "-c", "security_groups", "-c", "tenant_id"])
    assert code == 0, err
    shown = json.loads(out)
    assert shown["binding:vnic_type"] == "normal" and len(shown["security_groups"]) == 1
    code, out, err = occli_run("local", ["port", "show", "contract-port", "-f", "json"])
    assert json.loads(out)["security_group_ids"] == shown["security_groups"]
    assert json.loads(out)["project_id"] == shown["tenant_id"]


def test_volume_snapshot_show_still_takes_cinders_metadata_in_c(occli_run):
    words = ["volume", "snapshot", "show", "contract-snapshot", "-f", "json", "-c", "metadata"]
    code, out, err = occli_run("local", [*words, "-c", "properties"])
    assert code == 0, err
    assert json.loads(out) == {"properties": {}, "metadata": {}}


def test_volume_snapshot_show_takes_the_keys_osc_leaves_out_in_c(occli_run):
    project = "os-extended-snapshot-attributes:project_id"
    words = ["volume", "snapshot", "show", "contract-snapshot", "-f", "json", "-c", project]
    code, out, err = occli_run("local", [*words, "-c", project, "-c", "name"])
    assert code == 0, err
    shown = json.loads(out)
    assert list(shown) == ["name", project] and len(shown[project]) == 32
    code, out, _ = occli_run(
        "local", ["volume", "snapshot", "show", "contract-snapshot", "-f", "json"]
    )
    assert project not in json.loads(out)


def test_floating_ip_show_still_takes_neutrons_tenant_id_in_c(occli_run):
    words = ["floating", "ip", "show", "172.24.4.77", "-f", "json", "-c", "tenant_id"]
    code, out, err = occli_run("local-admin", [*words, "-c", "project_id", "-c", "name"])
    assert code == 0, err
    shown = json.loads(out)
    assert shown["tenant_id"] == shown["project_id"] and shown["name"] == "172.24.4.77"


def test_quota_show_names_and_orders_the_limits_as_osc(occli_run):
    # the same rows and values: the injected-file limits of compute API
    # 2.56, where openstacksdk reads them, and OSC's null rows of
    # openstacksdk's fields that are no limits (project_id, check_limit,
    # Octavia's, nova-network's fixed_ips)
    entry = next(e for e in RECORDING["commands"] if e["command"] == "quota show")
    code, out, err = occli_run("local", ["quota", "show", "-f", "json"])
    assert code == 0, err
    assert json.loads(out) == entry["osc"]


def test_limits_show_absolute_names_the_limits_as_osc(occli_run):
    entry = next(e for e in RECORDING["commands"] if e["command"] == "limits show --absolute")
    # read at compute API 2.1 as openstacksdk does: Nova's image meta,
    # personality and nova-network limits too, and the same values
    code, out, err = occli_run("local", ["limits", "show", "--absolute", "-f", "json"])
    assert code == 0, err
    assert json.loads(out) == entry["osc"]
