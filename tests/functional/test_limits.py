"""``occli limits show`` against a fresh local cloud (occli.testing's
``local_cloud``) counts the project's servers."""

import json

from occli import shell


def test_limits_show_counts_servers(local_cloud, capsys):
    def limits():
        capsys.readouterr()
        assert shell.main(["limits", "show", "-f", "json"]) == 0
        return {r["Name"]: r["Value"] for r in json.loads(capsys.readouterr().out)}

    before = limits()["total_instances_used"]
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
    # OSC's names, and compute 2.1's limits as OSC reads them
    assert after["total_instances_used"] == before + 1
    assert after["max_server_meta"] == after["max_image_meta"] == 128
    assert shell.main(["server", "delete", "counted", "--wait"]) == 0
