"""Differential fidelity suite: the local cloud against the real Keystone +
Nova on 127.0.0.1 (``../shared/realcloud``, started with
``ONLY="keystone nova"``), and against the real Neutron, Cinder and Glance
(``test_live_*.py``, whose ``REAL_SERVICE`` names the port each needs).
Run it with ``make fidelity``.

Opt-in: when Keystone on 127.0.0.1:5000 (or Nova on :8774, or a module's
``REAL_SERVICE``) does not answer within about a second, every test that
needs it is skipped at collection, before any fixture runs, so ``make
test`` neither depends on the real cloud nor pays for it.

The session makes a member user and project in the real Keystone, and
deletes them, with every server, flavor, keypair and aggregate it made
there, at the end.
"""

import pathlib
import socket
import urllib.error
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
    except urllib.error.HTTPError as error:  # Cinder's version list: 300
        return error.code < 500
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


def service_reason(name, url):
    """``None`` when Keystone and the real service at ``url`` (a module's
    ``REAL_SERVICE``: name and URL) answer, else why its tests are skipped."""
    if url not in _reachable:
        reason = None
        if not _answers(KEYSTONE, 0.5):
            reason = "real Keystone on 127.0.0.1:5000 does not answer (make fidelity needs it)"
        elif not _answers(url, 0.5):
            reason = "real %s on %s does not answer (make fidelity needs it)" % (name, url)
        _reachable[url] = reason
    return _reachable[url]


def pytest_collection_modifyitems(config, items):
    ours = [i for i in items if HERE in pathlib.Path(str(i.path)).resolve().parents]
    for item in ours:
        service = getattr(item.module, "REAL_SERVICE", None)
        reason = service_reason(*service) if service else real_cloud_reason()
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))


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
