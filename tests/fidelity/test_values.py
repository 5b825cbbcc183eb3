"""Whole answers compared value by value (``exact``: all but the VOLATILE
keys of differential.py), where both clouds hold the same things."""

import pytest

from tests.fidelity.test_servers import SHOWN  # noqa: F401 - the server fixture's module
from tests.fidelity.test_servers import boot
from tests.fidelity.test_servers import wait
from tests.fidelity.test_versions import VERSIONS


@pytest.mark.parametrize("version", (*VERSIONS, "2.55", "2.61", "2.75"))
def test_flavor(pair, flavor, version):
    pair.check("GET", "/flavors/{flavor}", version=version, exact=True)


@pytest.fixture(scope="module")
def exact_server(pair, flavor):
    boot(pair, "exact", "fid-exact-" + pair.real.ids["member_project"][:6])
    wait(pair, "ACTIVE", key="exact")


@pytest.mark.parametrize("version", (*VERSIONS, "2.3", "2.16", "2.26", "2.63", "2.73"))
def test_server(pair, exact_server, version):
    pair.check("GET", "/servers/{exact}", version=version, exact=True)


def test_server_progress(pair, exact_server):
    pair.check("GET", "/servers/{exact}", version="2.47", values=("server.progress",))


@pytest.mark.parametrize("version", ("2.1", "2.57"))
@pytest.mark.parametrize("user", ("member",))
def test_limits(pair, version, user):
    pair.check("GET", "/limits", version=version, user=user, exact=True)


@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_defaults(pair, version):
    pair.check("GET", "/os-quota-sets/{member_project}/defaults", version=version, exact=True)


def test_versions(pair):
    pair.check("GET", "@/", exact=True)
    pair.check("GET", "@/v2.1/", exact=True)


def test_compute_service(pair):
    pair.check("GET", "/os-services?binary=nova-compute", version="2.53", exact=True)


def test_zones(pair):
    pair.check("GET", "/os-availability-zone", version="2.1", exact=True)


@pytest.mark.parametrize(
    "action,undo,status",
    (
        ({"os-stop": None}, {"os-start": None}, "SHUTOFF"),
        ({"pause": None}, {"unpause": None}, "PAUSED"),
        ({"suspend": None}, {"resume": None}, "SUSPENDED"),
        ({"lock": {"locked_reason": "fid"}}, {"unlock": None}, "ACTIVE"),
    ),
    ids=("stopped", "paused", "suspended", "locked"),
)
def test_server_after_action(pair, exact_server, action, undo, status):
    # the rig's fake virt driver does nothing on pause and suspend: its
    # power state stays RUNNING (1); libvirt's, which the local cloud plays,
    # is PAUSED (3) and, after suspend's managed save, SHUTDOWN (4)
    # (test_compute_realcloud_fidelity.py test_power_state_of_libvirt_*)
    power = ("OS-EXT-STS:power_state",) if status in ("PAUSED", "SUSPENDED") else ()
    pair.check("POST", "/servers/{exact}/action", action, version="2.73")
    try:
        wait(pair, status, key="exact", timeout=30)
        pair.check("GET", "/servers/{exact}", version="2.73", exact=True,
                   ignore=tuple("server." + p for p in power))  # fmt: skip
        pair.check("GET", "/servers/detail?name=fid-exact-", version="2.73", exact=True,
                   ignore=tuple("servers." + p for p in power))  # fmt: skip
    finally:
        # back to ACTIVE in both clouds whatever happened, for the next case
        pair.both("POST", "/servers/{exact}/action", undo, version="2.73")
        wait(pair, "ACTIVE", key="exact", timeout=30)


def test_server_metadata_and_update(pair, exact_server):
    pair.check("PUT", "/servers/{exact}/metadata", {"metadata": {"k": "v"}}, version="2.73")
    pair.check("PUT", "/servers/{exact}", {"server": {"description": "fid"}}, version="2.73",
               exact=True)  # fmt: skip
    pair.check("GET", "/servers/{exact}", version="2.73", exact=True)


def test_aggregate(pair):
    body = {"aggregate": {"name": "fid-exact-agg-" + pair.real.ids["member_project"][:6],
                          "availability_zone": "fid-exact-az"}}  # fmt: skip
    real, local = pair.check("POST", "/os-aggregates", body, version="2.41", exact=True)
    pair.real.created.append(("aggregate", real.body["aggregate"]["id"]))
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["exact_agg"] = answer.body["aggregate"]["id"]
    meta = {"set_metadata": {"metadata": {"a": "1"}}}
    pair.check("POST", "/os-aggregates/{exact_agg}/action", meta, version="2.41", exact=True)
    pair.check("GET", "/os-aggregates/{exact_agg}", version="2.41", exact=True)
    pair.check("GET", "/os-aggregates/{exact_agg}", version="2.1", exact=True)
    pair.check("DELETE", "/os-aggregates/{exact_agg}", version="2.41", exact=True)


def test_keypair(pair):
    from tests.fidelity.test_keypairs import _public_key

    name = "fid-exact-kp-" + pair.real.ids["member_project"][:6]
    body = {"keypair": {"name": name, "public_key": _public_key()}}
    real, local = pair.check("POST", "/os-keypairs", body, version="2.10", exact=True,
                             values=("keypair.fingerprint", "keypair.public_key"))  # fmt: skip
    pair.real.created.append(("keypair", name))
    for version in ("2.1", "2.2", "2.10"):
        pair.check("GET", "/os-keypairs/" + name, version=version, exact=True,
                   values=("keypair.fingerprint",))  # fmt: skip
    pair.check("GET", "/os-keypairs", version="2.35", exact=True,
               keep=lambda ids, item: item["keypair"]["name"] == name)  # fmt: skip


@pytest.mark.parametrize("version", ("2.1", "2.57"))
def test_quota_set_after_update(pair, version):
    body = {"quota_set": {"key_pairs": 40, "metadata_items": 64}}
    pair.check("PUT", "/os-quota-sets/{member_project}", body, version=version, exact=True)
    pair.check("GET", "/os-quota-sets/{member_project}", version=version, exact=True)
    pair.check("DELETE", "/os-quota-sets/{member_project}", version=version)


def test_flavor_list_detail(pair, flavor):
    pair.check("GET", "/flavors/detail", version="2.75", exact=True,
               keep=lambda ids, item: item["name"] == ids["flavor_name"])  # fmt: skip


def test_server_with_options(pair, flavor):
    """A boot with a key, metadata, a description, access IPs and a config
    drive: the create answer and the server, value by value."""
    from tests.fidelity.test_keypairs import _public_key

    key = "fid-exact-key-" + pair.real.ids["member_project"][:6]
    keypair = {"keypair": {"name": key, "public_key": _public_key()}}
    pair.check("POST", "/os-keypairs", keypair, version="2.10")
    pair.real.created.append(("keypair", key))
    name = "fid-opts-" + pair.real.ids["member_project"][:6]

    def body(ids):
        return {"server": {
            "name": name, "flavorRef": ids["flavor"], "imageRef": ids["image"],
            "networks": "none", "key_name": key, "metadata": {"role": "fid"},
            "description": "fidelity", "accessIPv4": "192.0.2.7", "accessIPv6": "2001:db8::7",
            "config_drive": True, "OS-DCF:diskConfig": "AUTO",
        }}  # fmt: skip

    real, local = pair.check("POST", "/servers", body, version="2.79", exact=True)
    if real.status == 202:
        pair.real.created.append(("server", real.body["server"]["id"]))
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        cloud.ids["opts"] = answer.body["server"]["id"]
    wait(pair, "ACTIVE", key="opts")
    for version in ("2.1", "2.19", "2.79", "2.96"):
        pair.check("GET", "/servers/{opts}", version=version, exact=True)
    pair.check("DELETE", "/servers/{opts}", version="2.79")


def test_reservation_id(pair, flavor):
    def body(ids):
        return {"server": {
            "name": "fid-resv", "flavorRef": ids["flavor"], "imageRef": ids["image"],
            "networks": "none", "return_reservation_id": True,
        }}  # fmt: skip

    real, local = pair.check("POST", "/servers", body, version="2.47")
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        rid = answer.body["reservation_id"]
        found = cloud.request("GET", "/servers?reservation_id=" + rid, version="2.47").body
        for server in found["servers"]:
            if cloud.name == "real":
                cloud.created.append(("server", server["id"]))
        assert len(found["servers"]) == 1, (cloud.name, found)


@pytest.mark.parametrize("version", ("2.1", "2.55", "2.75"))
def test_flavor_create_update_delete(pair, version):
    ident = "fid-fl-%s-%s" % (version.replace(".", "-"), pair.real.ids["member_project"][:6])
    body = {"flavor": {"name": ident, "id": ident, "ram": 128, "vcpus": 2, "disk": 2, "swap": 16,
                       "OS-FLV-EXT-DATA:ephemeral": 1, "rxtx_factor": 2.0}}  # fmt: skip
    if version >= "2.55":
        body["flavor"]["description"] = "fid"
    real, _ = pair.check("POST", "/flavors", body, version=version, exact=True)
    if real.status == 200:
        pair.real.created.append(("flavor", ident))
    pair.check("GET", "/flavors/" + ident, version=version, exact=True)
    pair.check("PUT", "/flavors/" + ident, {"flavor": {"description": None}}, version=version,
               exact=True)  # fmt: skip
    pair.check("DELETE", "/flavors/" + ident, version=version, exact=True)
