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
    cloud = start_localcloud(tmp_path / "cloud")
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
