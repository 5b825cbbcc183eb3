"""Differential fidelity suite: the local cloud against the real Keystone +
Nova on 127.0.0.1 (``../shared/realcloud``, started with
``ONLY="keystone nova"``). Run it with ``make fidelity``.

Opt-in: when Keystone on 127.0.0.1:5000 (or Nova on :8774) does not answer
within about a second, every test here is skipped at collection, before any
fixture runs, so ``make test`` neither depends on the real cloud nor pays
for it.

The session makes a member user and project in the real Keystone, and
deletes them, with every server, flavor, keypair and aggregate it made
there, at the end.
"""

import pathlib
import socket
import urllib.request

import pytest

from tests.fidelity.clouds import KEYSTONE
from tests.fidelity.clouds import NOVA
from tests.fidelity.clouds import LocalCloud
from tests.fidelity.clouds import RealCloud
from tests.fidelity.differential import Pair

HERE = pathlib.Path(__file__).resolve().parent
_reachable = {}


def _answers(url, timeout):
    host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status < 500
    except OSError:
        return False


def real_cloud_reason():
    """``None`` when the real cloud answers, else why the suite is skipped."""
    if "reason" not in _reachable:
        reason = None
        if not _answers(KEYSTONE, 0.5):
            reason = "real Keystone on 127.0.0.1:5000 does not answer (make fidelity needs it)"
        elif not _answers(NOVA + "/", 0.5):
            reason = "real Nova on 127.0.0.1:8774 does not answer (make fidelity needs it)"
        _reachable["reason"] = reason
    return _reachable["reason"]


def pytest_collection_modifyitems(config, items):
    ours = [i for i in items if HERE in pathlib.Path(str(i.path)).resolve().parents]
    if ours and real_cloud_reason():
        skip = pytest.mark.skip(reason=real_cloud_reason())
        for item in ours:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def pair(tmp_path_factory):
    real = RealCloud()
    local = None
    try:
        local = LocalCloud(tmp_path_factory.mktemp("fidelity") / "data")
        yield Pair(real, local)
    finally:
        leftovers = real.cleanup()
        if local is not None:
            local.cleanup()
    assert not leftovers, "left in the real cloud: %s" % leftovers


@pytest.fixture(scope="session")
def flavor(pair):
    """A flavor made the same way in both clouds (``ids["flavor"]``)."""
    body = {"flavor": {"name": "fid-flavor-" + pair.real.ids["member_project"][:8],
                       "ram": 64, "vcpus": 1, "disk": 1}}  # fmt: skip
    for cloud in pair.clouds:
        resp = cloud.request("POST", "/flavors", body, version="2.1")
        assert resp.status == 200, resp
        cloud.ids["flavor"] = resp.body["flavor"]["id"]
        cloud.ids["flavor_name"] = body["flavor"]["name"]
        if cloud.name == "real":
            cloud.created.append(("flavor", cloud.ids["flavor"]))
    return body["flavor"]["name"]
