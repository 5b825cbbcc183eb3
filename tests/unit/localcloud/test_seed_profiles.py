"""The seed profile (``Config.seed``): ``occli-localcloud start --seed``
hands it to the serving child and its Config; an unknown profile is
refused; occli.testing keeps one template per profile, so a default and
a devstack cloud of one process each seed their own."""

import pytest

from occli.localcloud import cli
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.testing import start_local_cloud


def test_start_hands_the_profile_to_the_child(tmp_path):
    args = cli.build_parser().parse_args(
        ["start", "--data-dir", str(tmp_path), "--seed", "devstack"]
    )
    argv = cli._child_argv(args)
    assert argv[argv.index("--seed") + 1] == "devstack"
    assert cli._config(args).seed == "devstack"
    assert cli.build_parser().parse_args(["serve"]).seed == "default"


def test_an_unknown_profile_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["serve", "--seed", "packstack"])
    with pytest.raises(ValueError, match="unknown seed profile packstack"):
        LocalCloud(Config(data_dir=str(tmp_path / "data"), seed="packstack"))


def _seeded(fixture):
    with fixture.cloud.store.read() as db:
        flavors = {r["name"] for r in db.execute("SELECT name FROM compute_flavors")}
        nets = {r["name"] for r in db.execute("SELECT name FROM network_networks")}
    return flavors, nets


def test_each_profile_has_its_own_template():
    with (
        start_local_cloud(["compute"]) as default,
        start_local_cloud(["compute"], seed="devstack") as devstack,
    ):
        default_flavors, default_nets = _seeded(default)
        devstack_flavors, devstack_nets = _seeded(devstack)
    assert "m1.nano" in devstack_flavors and "m1.nano" not in default_flavors
    assert (default_nets, devstack_nets) == (
        {"private", "public"},
        {"private", "public", "shared"},
    )
