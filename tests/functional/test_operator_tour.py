"""The operator tour (examples/operator-tour.sh) runs clean against a fresh
local cloud, its expected failures included, so it cannot rot unnoticed."""

import os
import pathlib
import subprocess
import sys

from tests.functional.harness import start_localcloud

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def test_operator_tour_runs_to_the_end(tmp_path):
    cloud = start_localcloud(tmp_path / "cloud")
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        env.update(
            OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml,
            OCCLI_CACHE_DIR=str(tmp_path / "cache"),
            PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        )
        proc = subprocess.run(
            ["bash", str(EXAMPLES / "operator-tour.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        cloud.stop()
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("Operator tour finished.")
    assert "Traceback" not in output
    assert "unexpected success" not in proc.stderr
    # the quota part's refusals are nova's
    assert (
        "Quota exceeded for cores, instances: Requested 1, 1, but "
        "already used 2, 2 of 2, 2 cores, instances (HTTP 403)"
    ) in output
    assert "(removed in compute API 2.57)" in output
