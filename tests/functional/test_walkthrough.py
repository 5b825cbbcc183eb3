"""``make demo``'s walkthrough (examples/walkthrough.sh) runs clean against a
fresh local cloud, so the demo cannot rot unnoticed."""

import os
import pathlib
import subprocess
import sys

from tests.functional.harness import start_localcloud

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def test_walkthrough_runs_to_the_end(tmp_path):
    cloud = start_localcloud(tmp_path / "cloud")
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        env.update(
            OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml,
            OCCLI_CACHE_DIR=str(tmp_path / "cache"),
            PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        )
        proc = subprocess.run(
            ["bash", str(EXAMPLES / "walkthrough.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        cloud.stop()
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("Walkthrough finished.")
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "unexpected success" not in proc.stderr
