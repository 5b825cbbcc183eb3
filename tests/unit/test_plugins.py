"""Plugins: entry points and plugin dirs, availability, conflicts, the index.

Third-party distributions are built for real: ``<name>-<version>.dist-info``
(METADATA, entry_points.txt) and their modules are written into a temporary
site directory put on ``sys.path`` (in-process) or ``PYTHONPATH``
(subprocess). The example plugin is used from its source tree
(examples/occli-plugin-hello) with a dist-info generated from its
pyproject.toml; nothing is pip-installed.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from occli import plugins

from .fakes import AUTH_URL
from .fakes import BASE
from .fakes import TOKEN
from .fakes import catalog
from .fakes import requests_to
from .fakes import token_body

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HELLO_SRC = os.path.join(ROOT, "examples", "occli-plugin-hello")
HELLO = BASE + "/hello/v1"
GREETINGS = {
    "greetings": [
        {"id": "g1", "message": "Hello", "language": "en"},
        {"id": "g2", "message": "Bonjour", "language": "fr"},
    ]
}

BROKEN = """
import occli_nosuch_dependency  # not installed

def do_broken_thing(client, args):
    '''Never registered.'''
"""

DUPLICATE = """
from occli import utils

@utils.no_client
def do_flavor_list(client, args):
    '''Would shadow the built-in.'''
    print("plugin flavor list")

@utils.no_client
def do_dup_ok(client, args):
    '''Registered: the name is free.'''
    print("dup ok")
"""

OPTIONAL = """
def available_command_mapping():
    try:
        import occli_nosuch_sdk  # noqa: F401
    except ImportError:
        return {}
    return {"optional run": do_optional_run}

def do_optional_run(client, args):
    '''Needs occli_nosuch_sdk.'''
"""

DIR_PLUGIN = """
from occli import base, utils

class WidgetManager(base.Manager):
    service_type = "widget"

def manager_mapping():
    return {"widgets": WidgetManager}

@utils.arg("--size", type=int, default=1)
@utils.no_client
def do_widget_make(client, args):
    '''Make a widget.'''
    print("widget of size %d" % args.size)
"""


def hello_entry_points():
    """The example's entry points, read from its pyproject.toml."""
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(HELLO_SRC, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["entry-points"]


def write_dist(site, name, version, entry_points, modules=None):
    """A distribution in ``site``: dist-info with entry points, plus modules."""
    info = site / ("%s-%s.dist-info" % (name.replace("-", "_"), version))
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: %s\nVersion: %s\n\nA test plugin.\n" % (name, version)
    )
    lines = []
    for group, eps in entry_points.items():
        lines.append("[%s]" % group)
        lines.extend("%s = %s" % item for item in eps.items())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for path, source in (modules or {}).items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(source))


def single_module(name, source):
    """``{"<name>.py": source}`` with a package-free module."""
    return {name + ".py": source}


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A temporary site dir on sys.path with the hello example "installed"."""
    site = tmp_path / "site"
    site.mkdir()
    write_dist(site, "occli-plugin-hello", "1.0", hello_entry_points())
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(HELLO_SRC)
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(plugins.PLUGIN_DIRS_ENV, raising=False)
    before = set(sys.modules)
    plugins.reset()
    yield site
    plugins.reset()
    for name in set(sys.modules) - before:
        if name.startswith(("occli_plugin", "plug_", "_occli_plugins")):
            del sys.modules[name]


def rebuild():
    """Forget the registry and the plugin modules, as a new process would."""
    import importlib

    importlib.invalidate_caches()
    plugins.reset()
    for name in list(sys.modules):
        if name.startswith(("occli_plugin", "plug_", "_occli_plugins")):
            del sys.modules[name]
    return plugins.registry()


def plugin_rows(cli):
    code, out, err = cli("plugin", "list", "-f", "json")
    assert code == 0, err
    return {row["Name"]: row for row in json.loads(out)}


@pytest.fixture
def hello_cloud(mock_cloud):
    """The mocked cloud with a ``hello`` service in the catalog."""
    body = token_body()
    body["token"]["catalog"] = catalog() + [
        {
            "id": "hello-id",
            "type": "hello",
            "name": "hello",
            "endpoints": [
                {
                    "id": "hello-" + i,
                    "interface": i,
                    "region": "RegionOne",
                    "region_id": "RegionOne",
                    "url": HELLO,
                }
                for i in ("public", "internal", "admin")
            ],
        }
    ]
    mock_cloud.mock.post(
        AUTH_URL + "/auth/tokens", status_code=201, json=body, headers={"X-Subject-Token": TOKEN}
    )
    mock_cloud.mock.get(HELLO + "/greetings", json=GREETINGS)
    mock_cloud.mock.get(HELLO + "/greetings/g1", json={"greeting": GREETINGS["greetings"][0]})
    return mock_cloud


# built-ins go through the same mechanism


def test_builtins_register_as_entry_point_plugins(site):
    registry = plugins.registry()
    flavors = registry.plugins[registry.commands["flavor list"]]
    assert (flavors.name, flavors.dist, flavors.status) == ("flavors", "occli", "loaded")
    assert flavors.builtin and "flavor show" in flavors.commands
    assert registry.command("plugin list").__name__ == "do_plugin_list"
    assert plugins.manager_class("flavors").__name__ == "FlavorManager"
    assert {"servers", "aggregates", "software_deployments"} <= set(plugins.manager_names())


def test_registry_is_built_once_per_process(site):
    assert plugins.registry() is plugins.registry()
    assert plugins.registry(()) is plugins.registry()


# the example plugin through the shell and the SDK


def test_hello_world_runs_through_the_shell(site, cli):
    code, out, err = cli("hello", "world", "--name", "Ada")
    assert (code, out, err) == (0, "Hello, Ada!\n", "")


def test_hello_list_and_show_use_the_hello_endpoint(site, cli, hello_cloud):
    code, out, err = cli("hello", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"ID": "g1", "Message": "Hello", "Language": "en"},
        {"ID": "g2", "Message": "Bonjour", "Language": "fr"},
    ]
    code, out, err = cli("hello", "show", "g1", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["message"] == "Hello"
    assert requests_to(hello_cloud.mock, "GET", HELLO + "/greetings")


def test_hello_manager_through_the_sdk(site, client, hello_cloud):
    greetings = list(client.hello.list())
    assert [g.message for g in greetings] == ["Hello", "Bonjour"]
    assert client.hello.api.service_type == "hello"
    assert "hello" in dir(client)
    sent = requests_to(hello_cloud.mock, "GET", "/greetings")[0]
    assert sent.url == HELLO + "/greetings"
    assert "OpenStack-API-Version" not in sent.headers


def test_plugin_list_shows_the_example(site, cli):
    code, out, err = cli("plugin", "list", "-f", "json")
    assert code == 0, err
    by_module = {row["Module"]: row for row in json.loads(out)}
    commands = by_module["occli_plugin_hello.commands"]
    assert commands["Name"] == "hello"
    assert commands["Source"] == "entry point: occli-plugin-hello 1.0"
    assert commands["Commands"] == [
        "hello create",
        "hello delete",
        "hello list",
        "hello show",
        "hello world",
    ]
    assert commands["Status"] == "loaded"
    managers = by_module["occli_plugin_hello.managers:manager_mapping"]
    assert (managers["Managers"], managers["Status"]) == (["hello"], "loaded")
    assert by_module["occli.v2.compute.commands.flavors"]["Source"] == ("entry point: occli 0.1.0")


# availability and conflicts


def test_missing_import_is_unavailable_and_the_rest_works(site, cli):
    write_dist(
        site,
        "occli-plugin-broken",
        "0.1",
        {plugins.COMMAND_GROUP: {"broken": "plug_broken"}},
        single_module("plug_broken", BROKEN),
    )
    row = plugin_rows(cli)["broken"]
    assert row["Status"] == (
        "unavailable: ModuleNotFoundError: No module named 'occli_nosuch_dependency'"
    )
    assert row["Commands"] == []
    assert cli("hello", "world")[:2] == (0, "Hello, world!\n")
    assert cli("broken", "thing")[0] == 2


def test_available_mapping_offering_nothing_is_unavailable(site, cli):
    write_dist(
        site,
        "occli-plugin-optional",
        "2.0",
        {plugins.COMMAND_GROUP: {"optional": "plug_optional"}},
        single_module("plug_optional", OPTIONAL),
    )
    row = plugin_rows(cli)["optional"]
    assert row["Status"] == ("unavailable: available_command_mapping() offers nothing")
    assert "optional run" not in plugins.registry().commands


def test_duplicate_command_is_a_conflict_and_builtin_wins(site, cli):
    write_dist(
        site,
        "occli-plugin-dup",
        "0.1",
        {plugins.COMMAND_GROUP: {"dup": "plug_dup"}},
        single_module("plug_dup", DUPLICATE),
    )
    row = plugin_rows(cli)["dup"]
    assert row["Status"] == ("conflict: 'flavor list' already provided by flavors (occli)")
    assert row["Commands"] == ["dup ok"]
    registry = plugins.registry()
    assert registry.command("flavor list").__module__ == ("occli.v2.compute.commands.flavors")
    assert cli("dup", "ok")[:2] == (0, "dup ok\n")


def test_earlier_plugin_wins_a_conflict_between_plugins(site):
    for dist in ("occli-plugin-aaa", "occli-plugin-zzz"):
        module = "plug_" + dist[-3:]
        write_dist(
            site,
            dist,
            "1.0",
            {plugins.COMMAND_GROUP: {module: module}},
            single_module(module, "def do_same_name(client, args):\n    '''Same.'''\n"),
        )
    registry = rebuild()
    assert registry.plugins[registry.commands["same name"]].name == "plug_aaa"
    zzz = next(p for p in registry.plugins if p.name == "plug_zzz")
    assert zzz.status == ("conflict: 'same name' already provided by plug_aaa (occli-plugin-aaa)")


def test_manager_name_conflict_keeps_the_builtin(site):
    write_dist(
        site,
        "occli-plugin-mgr",
        "1.0",
        {plugins.MANAGER_GROUP: {"mgr": "plug_mgr:manager_mapping"}},
        single_module(
            "plug_mgr",
            "def manager_mapping():\n"
            "    return {'servers': object,"
            " 'gadgets': 'plug_mgr:Gadgets'}\n"
            "class Gadgets:\n    pass\n",
        ),
    )
    registry = rebuild()
    mgr = next(p for p in registry.plugins if p.name == "mgr")
    assert mgr.status == ("conflict: 'servers' already provided by builtin (occli)")
    assert mgr.managers == ["gadgets"]
    assert plugins.manager_class("servers").__name__ == "ServerManager"
    assert plugins.manager_class("gadgets").__name__ == "Gadgets"


# plugin directories


def test_plugin_dir_option_loads_a_module(site, tmp_path, cli, client):
    plugin_dir = tmp_path / "dir"
    plugin_dir.mkdir()
    (plugin_dir / "widgets.py").write_text(DIR_PLUGIN)
    (plugin_dir / "_private.py").write_text("raise RuntimeError('skipped')\n")
    code, out, err = cli("--plugin-dir", str(plugin_dir), "widget", "make", "--size", "3")
    assert (code, out) == (0, "widget of size 3\n"), err
    code, out, err = cli("--plugin-dir", str(plugin_dir), "plugin", "list", "-f", "json")
    row = {r["Name"]: r for r in json.loads(out)}["widgets"]
    assert row["Source"] == "directory: %s" % plugin_dir
    assert (row["Commands"], row["Managers"], row["Status"]) == (
        ["widget make"],
        ["widgets"],
        "loaded",
    )
    assert "_private" not in out
    # the SDK in the same process sees the directory's managers too
    assert client.widgets.service_type == "widget"


def test_plugin_dirs_environment_variable(site, tmp_path, cli, monkeypatch):
    first, second = tmp_path / "one", tmp_path / "two"
    for directory in (first, second):
        directory.mkdir()
    (second / "widgets.py").write_text(DIR_PLUGIN)
    monkeypatch.setenv(plugins.PLUGIN_DIRS_ENV, os.pathsep.join([str(first), str(second)]))
    assert cli("widget", "make")[:2] == (0, "widget of size 1\n")


def test_plugin_dir_is_a_global_option(site, tmp_path, cli):
    plugin_dir = tmp_path / "dir"
    plugin_dir.mkdir()
    (plugin_dir / "widgets.py").write_text(DIR_PLUGIN)
    assert cli("--plugin-dir=%s" % plugin_dir, "widget", "make")[:2] == (0, "widget of size 1\n")
    plugins.reset()
    # after the command too, as every global option (but not after --)
    assert cli("widget", "make", "--plugin-dir", str(plugin_dir))[:2] == (0, "widget of size 1\n")
    plugins.reset()
    assert cli("widget", "make", "--", "--plugin-dir", str(plugin_dir))[0] == 2
    assert cli("--plugin-dir")[0] == 2


def test_missing_plugin_dir_is_reported(site, tmp_path, cli):
    code, out, err = cli(
        "--plugin-dir",
        str(tmp_path / "nowhere"),
        "plugin",
        "list",
        "--status",
        "unavailable",
        "-f",
        "json",
    )
    assert code == 0, err
    [row] = json.loads(out)
    assert row["Name"] == "nowhere"
    assert err.count("\n") == 1
    assert "plugin directory %s does not exist" % (tmp_path / "nowhere") in err
    assert row["Status"] == "unavailable: No such file or directory"


# the cached index


def test_index_is_used_and_imports_nothing(site, cli):
    assert not plugins.registry().from_index
    registry = rebuild()
    assert registry.from_index
    assert "hello world" in registry.commands
    assert "occli_plugin_hello.commands" not in sys.modules
    assert cli("plugin", "list")[0] == 0
    assert "occli_plugin_hello.commands" not in sys.modules
    assert cli("hello", "world")[0] == 0
    assert "occli_plugin_hello.commands" in sys.modules
    assert "occli_plugin_hello.managers" not in sys.modules


def test_index_is_rebuilt_when_a_plugin_module_changes(site, cli):
    write_dist(
        site,
        "occli-plugin-edit",
        "1.0",
        {plugins.COMMAND_GROUP: {"edit": "plug_edit"}},
        single_module("plug_edit", "def do_edit_one(client, args):\n    '''One.'''\n"),
    )
    assert "edit one" in plugins.registry().commands
    assert rebuild().from_index
    (site / "plug_edit.py").write_text(
        "def do_edit_one(client, args):\n    '''One.'''\n\n\n"
        "def do_edit_two(client, args):\n    '''Two.'''\n"
    )
    registry = rebuild()
    assert not registry.from_index
    assert {"edit one", "edit two"} <= set(registry.commands)


def test_index_is_rebuilt_when_a_plugin_dir_changes(site, tmp_path):
    plugin_dir = tmp_path / "dir"
    plugin_dir.mkdir()
    assert "widget make" not in plugins.registry([str(plugin_dir)]).commands
    (plugin_dir / "widgets.py").write_text(DIR_PLUGIN)
    plugins.reset()
    assert "widget make" in plugins.registry([str(plugin_dir)]).commands


def test_corrupt_index_is_a_miss(site, tmp_path):
    plugins.registry()
    [index] = (tmp_path / "cache" / "plugins").iterdir()
    index.write_text("{not json")
    registry = rebuild()
    assert not registry.from_index and "hello world" in registry.commands
    assert rebuild().from_index


def test_command_of_a_plugin_broken_after_indexing_fails_cleanly(site, cli, monkeypatch):
    rebuild()
    registry = rebuild()
    assert registry.from_index

    def fail(plugin):
        raise ImportError("gone")

    monkeypatch.setattr(plugins, "_load_target", fail)
    code, out, err = cli("hello", "show", "g1")
    assert code == 1
    assert (
        "Command 'hello show' of plugin hello (occli-plugin-hello) is "
        "unavailable: ImportError: gone" in err
    )


def test_a_warm_index_is_used_without_reading_entry_points(site, monkeypatch):
    rebuild()
    assert rebuild().from_index

    def fail(*args, **kwargs):
        raise AssertionError("the entry points were read")

    monkeypatch.setattr(plugins.importlib.metadata, "entry_points", fail)
    registry = rebuild()
    assert registry.from_index and "hello world" in registry.commands


def test_an_entry_point_added_in_place_rebuilds_the_index(site):
    write_dist(
        site,
        "occli-plugin-edit",
        "1.0",
        {plugins.COMMAND_GROUP: {"edit": "plug_edit"}},
        single_module("plug_edit", "def do_edit_one(client, args):\n    '''One.'''\n"),
    )
    assert "edit one" in rebuild().commands
    assert rebuild().from_index
    (site / "plug_edit2.py").write_text("def do_edit_two(client, args):\n    '''Two.'''\n")
    entry_points = site / "occli_plugin_edit-1.0.dist-info" / "entry_points.txt"
    entry_points.write_text(entry_points.read_text() + "edit2 = plug_edit2\n")
    registry = rebuild()
    assert not registry.from_index
    assert {"edit one", "edit two"} <= set(registry.commands)


def test_an_entry_point_edited_in_place_alone_rebuilds_the_index(site):
    write_dist(
        site,
        "occli-plugin-swap",
        "1.0",
        {plugins.COMMAND_GROUP: {"swap": "plug_swap_a"}},
        {
            "plug_swap_a.py": "def do_swap_a(client, args):\n    '''A.'''\n",
            "plug_swap_b.py": "def do_swap_b(client, args):\n    '''B.'''\n",
        },
    )
    assert "swap a" in rebuild().commands
    assert rebuild().from_index
    entry_points = site / "occli_plugin_swap-1.0.dist-info" / "entry_points.txt"
    before = os.stat(site).st_mtime_ns
    entry_points.write_text(entry_points.read_text().replace("plug_swap_a", "plug_swap_b"))
    assert os.stat(site).st_mtime_ns == before, "no directory of sys.path changed"
    registry = rebuild()
    assert not registry.from_index
    assert "swap b" in registry.commands and "swap a" not in registry.commands


def test_a_distribution_removed_rebuilds_the_index(site):
    write_dist(
        site,
        "occli-plugin-gone",
        "1.0",
        {plugins.COMMAND_GROUP: {"gone": "plug_gone"}},
        single_module("plug_gone", "def do_gone_cmd(client, args):\n    '''Gone.'''\n"),
    )
    assert "gone cmd" in rebuild().commands
    assert rebuild().from_index
    shutil.rmtree(site / "occli_plugin_gone-1.0.dist-info")
    registry = rebuild()
    assert not registry.from_index and "gone cmd" not in registry.commands


def test_a_warm_index_lists_no_directory_of_sys_path(site, monkeypatch):
    rebuild()
    assert rebuild().from_index

    def listing(*args, **kwargs):
        raise AssertionError("a directory was listed: %s" % (args,))

    monkeypatch.setattr(plugins.os, "scandir", listing)
    monkeypatch.setattr(plugins.os, "listdir", listing)
    registry = rebuild()
    assert registry.from_index and "hello world" in registry.commands


def test_a_distribution_installed_later_rebuilds_the_index(site):
    rebuild()
    assert rebuild().from_index
    write_dist(
        site,
        "occli-plugin-late",
        "1.0",
        {plugins.COMMAND_GROUP: {"late": "plug_late"}},
        single_module("plug_late", "def do_late_cmd(client, args):\n    '''Late.'''\n"),
    )
    registry = rebuild()
    assert not registry.from_index and "late cmd" in registry.commands


def test_the_index_keeps_each_command_summary(site):
    rebuild()
    registry = rebuild()
    assert registry.from_index
    assert registry.summary("hello world") == "Print a greeting (needs no cloud)"
    assert registry.summary("flavor list") == "List flavors"
    assert registry.dist_of("hello world") == "occli-plugin-hello"
    assert registry.dist_of("flavor list") is None


# help, completion


def test_help_lists_plugin_commands(site, cli):
    code, out, err = cli("--help")
    assert code == 0, err
    assert "hello world" in out and "Print a greeting" in out
    assert "--plugin-dir <dir>" in out


def test_help_names_the_distribution_of_plugin_commands(site, cli):
    rebuild()
    for argv in (("--help",), ("help",)):
        code, out, err = cli(*argv)
        assert code == 0, err
        lines = {
            line[2:].split("  ")[0].strip(): line
            for line in out.splitlines()
            if line.startswith("  ")
        }
        assert lines["hello world"].endswith("(occli-plugin-hello)")
        assert lines["flavor list"].endswith("  List flavors")
    code, out, err = cli("hello", "world", "--help")
    assert code == 0, err
    assert "This command is provided by the occli-plugin-hello plugin." in out
    code, out, err = cli("help", "flavor", "list")
    assert code == 0, err
    assert "provided by" not in out


def test_complete_includes_plugin_commands(site, cli):
    code, out, err = cli("complete")
    assert code == 0, err
    assert "hello" in out and "world" in out and "plugin" in out


# a real process: the second run imports only the module of the command run


def test_second_process_imports_only_the_module_it_runs(site, tmp_path):
    write_dist(
        site,
        "occli-plugin-other",
        "1.0",
        {plugins.COMMAND_GROUP: {"other": "plug_other"}},
        single_module("plug_other", "def do_other_cmd(client, args):\n    '''Other.'''\n"),
    )
    env = dict(
        os.environ,
        OCCLI_CACHE_DIR=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join([str(site), HELLO_SRC]),
    )
    script = (
        "import sys; from occli import plugins, shell; "
        "code = shell.main(['hello', 'world']); "
        "print(plugins.registry().from_index, sorted(m for m in sys.modules "
        "if m.startswith(('plug_', 'occli_plugin', 'occli.v2.commands.'))))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=str(tmp_path),
        ).stdout.splitlines()[-1]
        for _ in range(2)
    ]
    assert runs[0].startswith("False")  # the miss imports every plugin
    assert "plug_other" in runs[0]
    assert runs[1] == ("True ['occli_plugin_hello', 'occli_plugin_hello.commands']")


def test_interactive_shell_runs_plugin_commands(site, tmp_path):
    env = dict(
        os.environ,
        OCCLI_CACHE_DIR=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join([str(site), HELLO_SRC]),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "occli.program"],
        input="hello world --name repl\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(tmp_path),
    )
    assert "Hello, repl!" in proc.stdout, proc.stderr


# the index decides what is imported: it is private (issue 9)


EVIL = """
import pathlib
pathlib.Path(%r).write_text("imported")

def do_hello_world(client, args):
    '''Not the real one.'''
"""


def index_file(tmp_path):
    [index] = (tmp_path / "cache" / "plugins").iterdir()
    return index


def tamper(index, evil):
    """Point the index's ``hello world`` at the module file ``evil``."""
    data = json.loads(index.read_text())
    position = data["commands"]["hello world"]
    data["plugins"][position].update(source=plugins.DIRECTORY, target=str(evil), files={})
    return json.dumps(data)


def test_index_is_written_privately(site, tmp_path):
    old_umask = os.umask(0o022)
    try:
        plugins.registry()
    finally:
        os.umask(old_umask)
    index = index_file(tmp_path)
    assert oct(os.stat(index.parent).st_mode & 0o777) == oct(0o700)
    assert oct(os.stat(index).st_mode & 0o777) == oct(0o600)
    assert rebuild().from_index


def test_index_temporary_file_name_is_not_predictable(site, tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    path = plugins._index_path(())
    os.makedirs(os.path.dirname(path), mode=0o700)
    planted = "%s.%d.tmp" % (path, os.getpid())
    os.symlink(victim, planted)
    plugins.registry()
    assert victim.read_text() == "untouched"
    assert rebuild().from_index


@pytest.mark.parametrize("how", ["group-writable", "world-readable", "foreign", "symlink"])
def test_tampered_index_is_ignored_and_rebuilt(site, tmp_path, cli, monkeypatch, how):
    plugins.registry()
    index = index_file(tmp_path)
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.py"
    evil.write_text(EVIL % str(marker))
    crafted = tamper(index, evil)
    if how == "symlink":
        elsewhere = tmp_path / "crafted.json"
        elsewhere.write_text(crafted)
        os.chmod(elsewhere, 0o600)
        index.unlink()
        index.symlink_to(elsewhere)
    else:
        index.write_text(crafted)
        os.chmod(index, 0o620 if how == "group-writable" else 0o604)
    if how == "foreign":
        os.chmod(index, 0o600)
        inode = os.stat(index).st_ino
        from occli import private_files

        real = private_files._owned
        monkeypatch.setattr(private_files, "_owned", lambda st: st.st_ino != inode and real(st))
    assert not rebuild().from_index
    assert cli("hello", "world")[:2] == (0, "Hello, world!\n")
    assert not marker.exists()
    assert not index.is_symlink()
    assert oct(os.stat(index).st_mode & 0o777) == oct(0o600)
    assert rebuild().from_index


def test_plugins_directory_others_control_is_not_used(site, tmp_path, cli, caplog):
    plugins.registry()
    index = index_file(tmp_path)
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.py"
    evil.write_text(EVIL % str(marker))
    index.write_text(tamper(index, evil))
    os.chmod(index.parent, 0o777)
    for _ in range(2):
        assert not rebuild().from_index
    assert cli("hello", "world")[:2] == (0, "Hello, world!\n")
    assert not marker.exists()
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "Not using the plugin index: %s is writable by other users." % index.parent
    ]
    assert oct(os.stat(index.parent).st_mode & 0o777) == oct(0o777)


# a plugin raising a BaseException at import is just broken (issue 9)


RAISERS = {
    "SystemExit": ("raise SystemExit(3)", "SystemExit: 3"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt('no')", "KeyboardInterrupt: no"),
    "BaseException": ("raise BaseException('gone')", "BaseException: gone"),
    "GeneratorExit": ("raise GeneratorExit()", "GeneratorExit: "),
}


@pytest.mark.parametrize("statement,status", RAISERS.values(), ids=RAISERS.keys())
def test_plugin_raising_at_import_is_unavailable(site, cli, statement, status):
    write_dist(
        site,
        "occli-plugin-exits",
        "0.1",
        {plugins.COMMAND_GROUP: {"exits": "plug_exits"}},
        single_module("plug_exits", statement + "\n"),
    )
    code, out, err = cli("--help")
    assert code == 0, err
    assert "hello world" in out
    row = plugin_rows(cli)["exits"]
    assert row["Status"] == "unavailable: " + status
    assert cli("hello", "world")[:2] == (0, "Hello, world!\n")
    assert rebuild().from_index  # recorded as unavailable, not retried


def test_plugin_broken_with_system_exit_after_indexing(site, cli, monkeypatch):
    rebuild()
    assert rebuild().from_index

    def exits(plugin):
        raise SystemExit("bye")

    monkeypatch.setattr(plugins, "_load_target", exits)
    code, out, err = cli("--help")
    assert code == 0, err
    assert "hello world" in out
    code, out, err = cli("hello", "show", "g1")
    assert code == 1
    assert (
        "Command 'hello show' of plugin hello (occli-plugin-hello) is "
        "unavailable: SystemExit: bye" in err
    )
    assert cli("flavor", "--help")[0] == 0


def test_manager_module_raising_at_import_fails_the_lookup_only(site, tmp_path, client):
    plugin_dir = tmp_path / "dir"
    plugin_dir.mkdir()
    (plugin_dir / "gadgets.py").write_text(
        "def manager_mapping():\n    return {'gadgets': 'plug_gadget_impl:GadgetManager'}\n"
    )
    (site / "plug_gadget_impl.py").write_text("raise SystemExit(4)\n")
    plugins.registry([str(plugin_dir)])
    with pytest.raises(plugins.PluginFailed, match="SystemExit: 4"):
        client.manager("gadgets")


@pytest.fixture
def sigint():
    """Set SIGINT's disposition for one test; the inherited one (Python's
    default handler, or SIG_IGN under ``nohup`` or a background job) is put
    back after."""
    import signal

    inherited = signal.getsignal(signal.SIGINT)
    yield lambda handler: signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGINT, inherited)


@pytest.mark.parametrize("disposition", ["SIG_IGN", "SIG_DFL"])
def test_plugin_raising_keyboard_interrupt_with_sigint_off_is_unavailable(
    site, cli, sigint, disposition
):
    import signal

    sigint(getattr(signal, disposition))  # no Ctrl-C can raise one
    write_dist(
        site,
        "occli-plugin-exits",
        "0.1",
        {plugins.COMMAND_GROUP: {"exits": "plug_exits"}},
        single_module("plug_exits", "raise KeyboardInterrupt('no')\n"),
    )
    code, out, err = cli("--help")
    assert code == 0, err
    assert plugin_rows(cli)["exits"]["Status"] == "unavailable: KeyboardInterrupt: no"
    assert signal.getsignal(signal.SIGINT) is getattr(signal, disposition)


def test_real_ctrl_c_while_importing_a_plugin_still_interrupts(site, cli, sigint):
    import signal

    sigint(signal.default_int_handler)  # as at a terminal
    write_dist(
        site,
        "occli-plugin-slow",
        "0.1",
        {plugins.COMMAND_GROUP: {"slow": "plug_slow"}},
        single_module(
            "plug_slow",
            """
                   import os, signal
                   os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C
                   for _ in range(10 ** 6):
                       pass
                   """,
        ),
    )
    code, out, err = cli("plugin", "list")
    assert code == 130
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
