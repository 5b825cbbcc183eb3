"""The SDK's Client: built-in managers are its own attributes; the CLI's
plugin machinery is used only for a name that is none of them."""

import json
import os
import pathlib
import subprocess
import sys

from occli import client as client_module
from occli.v2 import manager_mapping

SDK_ONLY = r"""
import json, os, sys
import requests_mock
from tests.unit import fakes
with requests_mock.Mocker() as m:
    fakes.install(m)
    m.get(fakes.COMPUTE + "/servers/detail", json={"servers": [{"id": "s1"}]})
    from keystoneauth1 import session
    from occli.client import Client
    client = Client(session=session.Session(auth=fakes.password_auth()))
    ids = [s.id for s in client.servers.list()]
cache = os.environ["OCCLI_CACHE_DIR"]
print(json.dumps({"ids": ids, "plugins": "occli.plugins" in sys.modules,
                  "cache": os.path.exists(cache)}))
"""


def test_sdk_use_never_builds_the_plugin_registry(tmp_path):
    env = {
        "OCCLI_CACHE_DIR": str(tmp_path / "cache"),
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [sys.executable, "-c", SDK_ONLY],
        env=env,
        capture_output=True,
        text=True,
        cwd=str(pathlib.Path(__file__).parents[2]),
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result == {"ids": ["s1"], "plugins": False, "cache": False}
    assert os.listdir(tmp_path) == []


def test_builtin_managers_are_attributes_created_once(client):
    servers = client.servers
    assert type(servers).__name__ == "ServerManager"
    assert client.servers is servers is client.manager("servers")
    assert client.object_store.service_type == "object-store"


def test_the_registry_sees_the_same_builtin_managers():
    builtins = client_module.Client.builtin_managers()
    assert manager_mapping() == builtins
    assert builtins["servers"] == "occli.v2.compute.servers:ServerManager"
    import importlib

    from occli import base

    for name, path in builtins.items():
        module, _, cls = path.partition(":")
        manager = getattr(importlib.import_module(module), cls)
        assert issubclass(manager, base.Manager), name
        assert manager.service_type, name


def test_service_root_appends_the_version_a_catalog_url_lacks(client, monkeypatch):
    endpoints = {
        "network": "http://cloud/network/",
        "block-storage": "http://cloud/volume/v3/p1",
        "identity": "http://cloud/keystone/v3.14",
    }
    for service_type, url in endpoints.items():
        monkeypatch.setattr(client.adapter(service_type), "get_endpoint", lambda url=url: url)
    assert client.service_root("network", "v2.0") == "http://cloud/network/v2.0"
    assert client.service_root("block-storage", "v3") == "http://cloud/volume/v3/p1"
    assert client.service_root("identity", "v3") == "http://cloud/keystone/v3.14"
    # found once per client
    monkeypatch.setattr(client.adapter("network"), "get_endpoint", lambda: "http://elsewhere")
    assert client.service_root("network", "v2.0") == "http://cloud/network/v2.0"
