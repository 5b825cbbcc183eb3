"""occli-localcloud --heat-plugin-dir / --heat-environment-dir, and the
cloud's engine loading what they name."""

from occli.localcloud import cli
from occli.localcloud.cloud import Config
from tests.unit.localcloud.heat import harness
from tests.unit.localcloud.heat.test_plugins import ENV_DIR
from tests.unit.localcloud.heat.test_plugins import PLUGINS


def test_options_map_to_config_and_reach_the_background_cloud(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = cli.build_parser().parse_args(
        [
            "start",
            "--data-dir",
            str(tmp_path / "lc"),
            "--heat-plugin-dir",
            "plugins",
            "--heat-plugin-dir",
            "/opt/heat/plugins",
            "--heat-environment-dir",
            "env.d",
        ]
    )
    config = cli._config(args)
    # relative directories are made absolute: the background cloud runs in
    # its data directory
    assert config.heat_plugin_dirs == [str(tmp_path / "plugins"), "/opt/heat/plugins"]
    assert config.heat_environment_dir == str(tmp_path / "env.d")
    argv = cli._child_argv(args)
    dirs = [argv[i + 1] for i, a in enumerate(argv) if a == "--heat-plugin-dir"]
    assert dirs == [str(tmp_path / "plugins"), "/opt/heat/plugins"]
    assert argv[argv.index("--heat-environment-dir") + 1] == str(tmp_path / "env.d")
    child = cli.build_parser().parse_args(argv[3:])
    assert cli._config(child).heat_plugin_dirs == config.heat_plugin_dirs


def test_defaults_add_nothing(tmp_path):
    args = cli.build_parser().parse_args(["serve", "--data-dir", str(tmp_path)])
    config = cli._config(args)
    assert config.heat_plugin_dirs == [] and config.heat_environment_dir is None
    assert Config(data_dir="x").heat_plugin_dirs == []
    argv = cli._child_argv(args)
    assert "--heat-plugin-dir" not in argv and "--heat-environment-dir" not in argv


def test_the_engine_loads_the_configured_plugins_and_environment():
    fixture = harness.start(heat_plugin_dirs=[PLUGINS], heat_environment_dir=ENV_DIR)
    try:
        env = fixture.cloud.orchestration.engine.global_env
        assert "Test::Plugin::Thing" in env.get_types()
        assert env.find_class("Test::Env::Alias") is env.find_class("Test::Plugin::Thing")
    finally:
        fixture.stop()
