"""``occli limits show`` against a fresh local cloud (occli.testing's
``local_cloud``) counts the project's servers."""

import json

from occli import shell


def test_limits_show_counts_servers(local_cloud, capsys):
    def limits():
        capsys.readouterr()
        assert shell.main(["limits", "show", "-f", "json"]) == 0
        return {r["Name"]: r["Value"] for r in json.loads(capsys.readouterr().out)}

    before = limits()["totalInstancesUsed"]
    assert before == 0
    assert (
        shell.main(
            [
                "server",
                "create",
                "counted",
                "--image",
                "cirros-0.6.2-x86_64-disk",
                "--flavor",
                "m1.tiny",
                "--nic",
                "none",
                "--wait",
            ]
        )
        == 0
    )
    after = limits()
    assert after["totalInstancesUsed"] == before + 1
    assert after["maxServerMeta"] == 128
    assert shell.main(["server", "delete", "counted", "--wait"]) == 0
