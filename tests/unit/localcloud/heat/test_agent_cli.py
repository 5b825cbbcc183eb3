"""occli-localcloud --heat-simulated-agent / --heat-agent-rules: the
settings reach Config and the background cloud's command line."""

from occli.localcloud import cli
from occli.localcloud.cloud import Config


def test_agent_options_map_to_config_and_reach_the_background_cloud(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = cli.build_parser().parse_args(
        [
            "start",
            "--data-dir",
            str(tmp_path / "lc"),
            "--heat-simulated-agent",
            "--heat-agent-rules",
            "rules.yaml",
        ]
    )
    config = cli._config(args)
    assert config.heat_simulated_agent is True
    # absolute: the background cloud runs in its data directory
    assert config.heat_agent_rules == str(tmp_path / "rules.yaml")
    argv = cli._child_argv(args)
    assert "--heat-simulated-agent" in argv
    assert argv[argv.index("--heat-agent-rules") + 1] == str(tmp_path / "rules.yaml")
    child = cli._config(cli.build_parser().parse_args(argv[3:]))
    assert (child.heat_simulated_agent, child.heat_agent_rules) == (True, config.heat_agent_rules)


def test_the_agent_is_off_by_default(tmp_path):
    args = cli.build_parser().parse_args(["serve", "--data-dir", str(tmp_path)])
    config = cli._config(args)
    assert config.heat_simulated_agent is False and config.heat_agent_rules is None
    assert Config(data_dir="x").heat_simulated_agent is False
    argv = cli._child_argv(args)
    assert "--heat-simulated-agent" not in argv and "--heat-agent-rules" not in argv


def test_with_no_opt_in_and_the_switch_off_no_agent_polls(tmp_path):
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud

    for settings, runs in (
        ({"heat_agent_opt_in": False}, False),
        ({}, True),
        ({"heat_agent_opt_in": False, "heat_simulated_agent": True}, True),
    ):
        cloud = LocalCloud(Config(data_dir=str(tmp_path / str(len(settings))), **settings))
        try:
            engine = cloud.orchestration.engine
            engine.ensure_agent()
            assert (engine.scheduler.busy() > 0) is runs, settings
        finally:
            cloud.close()
