"""The catalog as data with the real CLI against a local Keystone and Glance
of their own (issue 21): an administrator disables an endpoint and
``catalog list`` no longer shows it (nor does the client find it), enables
it and it is back; services, endpoints and regions made and removed with
``service``/``endpoint``/``region`` commands; the refusals; OSC's
``catalog list`` seeing the same (opt-in: ``OCCLI_OSC`` names an
``openstack`` executable, or one is on the PATH)."""

import io
import json
import os
import shutil
import subprocess

import pytest

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="module")
def cloud():
    from occli.localcloud.identity.api.service import IdentityService
    from occli.localcloud.image.api.service import ImageService

    running = start_localcloud(services=[IdentityService, ImageService])
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, monkeypatch, tmp_path):
    """``occli(*argv, cloud="local-admin")`` → (exit code, stdout,
    stderr), without the token cache: each command gets a new token and
    the catalog as it is now."""
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache")

    def run(*argv, cloud="local-admin"):
        app = shell.OcCLI()
        app.stdout, app.stderr = io.StringIO(), io.StringIO()
        code = app.run(["--no-cache", "--os-cloud", cloud] + [str(a) for a in argv])
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run


def ok(result):
    code, out, err = result
    assert code == 0, err
    return out


def as_json(result):
    return json.loads(ok(result))


def image_interfaces(occli):
    listed = as_json(occli("catalog", "list", "-f", "json"))
    (image,) = [s for s in listed if s["Type"] == "image"]
    return sorted(e["interface"] for e in image["Endpoints"])


def test_a_disabled_endpoint_leaves_the_catalog_and_comes_back(cloud, occli):
    endpoints = as_json(
        occli("endpoint", "list", "--service", "image", "--interface", "public", "-f", "json")
    )
    assert [(e["Service Name"], e["Region"], e["Enabled"]) for e in endpoints] == [
        ("glance", "RegionOne", True)
    ]
    endpoint_id = endpoints[0]["ID"]
    assert image_interfaces(occli) == ["admin", "internal", "public"]
    assert ok(occli("endpoint", "set", "--disable", endpoint_id)) == ""
    assert image_interfaces(occli) == ["admin", "internal"]
    shown = as_json(occli("endpoint", "show", endpoint_id, "-f", "json"))
    assert (shown["enabled"], shown["service_type"]) == (False, "image")
    # the client finds Glance through the catalog's public endpoint
    code, out, err = occli("image", "list")
    assert code == 1
    ok(occli("endpoint", "set", "--enable", endpoint_id))
    assert image_interfaces(occli) == ["admin", "internal", "public"]
    assert "cirros" in ok(occli("image", "list", "-f", "value", "-c", "Name"))
    table = ok(occli("catalog", "show", "image"))
    assert "  public: %s/image" % cloud.url in table


def test_services_endpoints_and_regions_made_and_removed(cloud, occli):
    region = as_json(
        occli("region", "create", "--parent-region", "RegionOne", "RegionOne-East", "-f", "json")
    )
    assert region == {"region": "RegionOne-East", "description": "", "parent_region": "RegionOne"}
    service = as_json(
        occli("service", "create", "--name", "things", "--description", "T", "thing", "-f", "json")
    )
    assert (service["type"], service["name"], service["enabled"]) == ("thing", "things", True)
    endpoint = as_json(
        occli(
            "endpoint",
            "create",
            "--region",
            "RegionOne-East",
            "things",
            "public",
            "http://things.test/v1",
            "-f",
            "json",
        )
    )
    assert (endpoint["region"], endpoint["service_name"]) == ("RegionOne-East", "things")
    listed = as_json(occli("catalog", "list", "-f", "json"))
    (things,) = [s for s in listed if s["Type"] == "thing"]
    assert things["Endpoints"][0]["url"] == "http://things.test/v1"
    # the region has an endpoint: keystone refuses to delete it, or its parent
    for name in ("RegionOne-East", "RegionOne"):
        code, out, err = occli("region", "delete", name)
        assert code == 1
        assert (
            "Unable to delete region %s because it or its child regions have associated"
            " endpoints." % name
        ) in err
    code, out, err = occli("region", "set", "--parent-region", "RegionOne-East", "RegionOne")
    assert code == 1
    assert "The specified parent region RegionOne would create a circular region hierarchy." in err
    ok(occli("service", "delete", "things"))
    assert "thing" not in [s["Type"] for s in as_json(occli("catalog", "list", "-f", "json"))]
    ok(occli("region", "delete", "RegionOne-East"))
    regions = as_json(occli("region", "list", "-f", "json"))
    assert [r["Region"] for r in regions] == ["RegionOne"]
    code, out, err = occli("endpoint", "show", endpoint["id"])
    assert code == 1 and "Could not find endpoint: %s." % endpoint["id"] in err


def test_a_member_reads_regions_but_not_the_rest(occli):
    regions = as_json(occli("region", "list", "-f", "json", cloud="local"))
    assert "RegionOne" in [r["Region"] for r in regions]
    for argv in (("service", "list"), ("endpoint", "list"), ("region", "create", "Mine")):
        code, out, err = occli(*argv, cloud="local")
        assert code == 1
        assert "You are not authorized to perform the requested action" in err
    listed = as_json(occli("catalog", "list", "-f", "json", cloud="local"))
    assert {"identity", "image"} <= {s["Type"] for s in listed}


def _openstack():
    return os.environ.get("OCCLI_OSC") or shutil.which("openstack")


@pytest.mark.skipif(_openstack() is None, reason="no openstack CLI (set OCCLI_OSC)")
def test_osc_sees_the_catalog_change(cloud, occli):
    """The real OSC (its catalog, endpoint, service and region commands
    through openstacksdk) against the same rows."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    env.update(OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, OS_CLOUD="local-admin")

    def osc(*argv):
        command = [_openstack(), *argv, "-f", "json"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    (endpoint,) = osc("endpoint", "list", "--service", "glance", "--interface", "internal")
    assert endpoint["URL"] == "$(public_endpoint)s/image"
    ok(occli("endpoint", "set", "--disable", endpoint["ID"]))
    try:
        (image,) = [s for s in osc("catalog", "list") if s["Type"] == "image"]
        assert sorted(e["interface"] for e in image["Endpoints"]) == ["admin", "public"]
        shown = osc("endpoint", "show", endpoint["ID"])
        assert (shown["enabled"], shown["service_name"]) == (False, "glance")
    finally:
        ok(occli("endpoint", "set", "--enable", endpoint["ID"]))
    (image,) = [s for s in osc("catalog", "list") if s["Type"] == "image"]
    assert len(image["Endpoints"]) == 3
    assert [r["Region"] for r in osc("region", "list")] == ["RegionOne"]
