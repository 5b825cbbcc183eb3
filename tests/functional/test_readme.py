"""The README's SDK example runs as written against a fresh local cloud."""

import os
import pathlib
import re

from tests.functional.harness import start_localcloud

README = pathlib.Path(__file__).resolve().parents[2] / "README.rst"


def sdk_example():
    text = README.read_text()
    block = re.search(r"\.\. code-block:: python\n\n((?:    .*\n|\n)+)", text)
    assert block, "README has no python code block"
    return "\n".join(line[4:] for line in block.group(1).splitlines())


def test_readme_sdk_example_runs(tmp_path, monkeypatch, capsys):
    cloud = start_localcloud()
    try:
        for key in list(os.environ):
            if key.startswith("OS_"):
                monkeypatch.delenv(key)
        monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", cloud.clouds_yaml)
        monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
        exec(compile(sdk_example(), str(README), "exec"), {})  # noqa: S102
        out = capsys.readouterr().out
        assert re.search(r"^\S+ vm1 (BUILD|ACTIVE)$", out, re.M), out
    finally:
        cloud.stop()


def networks_tour():
    """The README's networks-and-volumes shell block, as written."""
    text = README.read_text()
    block = re.search(r"Networks, volumes and floating IPs:[^:]*::\n\n((?:    .*\n|\n)+)", text)
    assert block, "README has no networks-and-volumes tour"
    return "\n".join(line[4:] for line in block.group(1).splitlines())


def test_readme_networks_and_volumes_tour_runs(tmp_path):
    """Boot on the private network, attach a new volume, give it a
    floating IP from public: the README's commands with the real CLI."""
    import subprocess
    import sys

    script = networks_tour()
    assert "--network private" in script and "server add volume" in script
    bindir = os.path.dirname(sys.executable)
    cloud = start_localcloud()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        env.update(OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, OCCLI_CACHE_DIR=str(tmp_path / "c"))
        proc = subprocess.run(
            ["bash", "-e", "-c", script.replace(".venv/bin/", bindir + "/")],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert "private" in proc.stdout and "public" in proc.stdout
        shown = proc.stdout.split("| addresses")[-1]
        assert re.search(r"private=10\.0\.0\.\d+, 172\.24\.4\.\d+", shown), proc.stdout
        assert "/dev/vdb" in shown
    finally:
        cloud.stop()
