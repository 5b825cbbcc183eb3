"""Running a local cloud for functional tests and the CLI against it.

The clouds are the project's own test plugin's: :func:`start_localcloud` is
:func:`occli.testing.start_local_cloud` (a migrated, seeded template copied
per cloud, a free loopback port, a private data dir removed at ``stop()``).
The fixtures of conftest.py use it; a test that needs a cloud of its own
(other settings or services) calls it itself.
"""

import json
import os
import pathlib
import subprocess
import sys

from occli import testing
from occli.localcloud.cloud import Config


def start_localcloud(services=None, **settings):
    """A fresh local cloud (an :class:`occli.testing.CloudFixture`: ``url``,
    ``auth_url``, ``data_dir``, ``clouds_yaml``, ``cloud``, ``faults``,
    ``stop()``); ``services`` and ``settings`` as for
    :func:`occli.testing.start_local_cloud`. It serves with the local
    cloud's own number of threads, as ``occli-localcloud`` does: these
    clouds take the concurrency tests."""
    settings.setdefault("threads", Config.threads)
    return testing.start_local_cloud(services, **settings)


def point_client_at(running, monkeypatch, cache_dir, cloud=None):
    """Environment for occli against ``running``: its clouds.yaml, no other
    ``OS_*`` variables, a private token cache, and ``OS_CLOUD`` if given."""
    for key in list(os.environ):
        if key.startswith("OS_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", running.clouds_yaml)
    if cloud:
        monkeypatch.setenv("OS_CLOUD", cloud)
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(cache_dir))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", running.data_dir)


def ok(result):
    """stdout of a ``run_occli`` result that must have exited 0."""
    code, out, err = result
    assert code == 0, err
    return out


def as_json(result):
    return json.loads(ok(result))


IMAGE = "cirros-0.6.2-x86_64-disk"


def boot_servers(run_occli, prefix, count, *extra):
    """Boot ``count`` servers ``<prefix>-1…`` (m1.tiny, no network) and
    wait until they are ACTIVE; ``extra``: more ``server create`` options."""
    ok(
        run_occli(
            "server", "create", prefix, "--image", IMAGE, "--flavor", "m1.tiny",
            "--nic", "none", "--min", str(count), "--max", str(count),
            "--wait", "--wait-interval", "0.1", *extra,
        )
    )  # fmt: skip


EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def run_example(script, tmp_path):
    """Run ``examples/<script>`` against a fresh local cloud, as a user
    would with the cloud's clouds.yaml: the finished process."""
    return run_examples([script], tmp_path)[0]


def run_examples(scripts, tmp_path):
    """Run ``examples/<script>`` for each of ``scripts`` in turn against one
    fresh local cloud: the finished processes."""
    cloud = start_localcloud()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        env.update(
            OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml,
            OCCLI_CACHE_DIR=str(tmp_path / "cache"),
            PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        )
        return [
            subprocess.run(
                ["bash", str(EXAMPLES / script)],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            for script in scripts
        ]
    finally:
        cloud.stop()
