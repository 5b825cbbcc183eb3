"""os-services, os-hypervisors and os-availability-zone."""

import pytest

from tests.fidelity.differential import known
from tests.fidelity.test_versions import VERSIONS

# only nova-compute services are compared: the real rig runs conductor and
# scheduler on its host, the local cloud has its own control services
COMPUTE = "/os-services?binary=nova-compute"


@pytest.mark.parametrize("version", (*VERSIONS, "2.11", "2.53", "2.69"))
def test_services(pair, version):
    pair.check("GET", COMPUTE, version=version, values=("services.0.zone", "services.0.state"))


def test_services_as_member(pair):
    pair.check("GET", "/os-services", version="2.53", user="member")


def test_service_delete_missing(pair):
    pair.check("DELETE", "/os-services/00000000-0000-0000-0000-000000000000", version="2.53")


def test_service_update_bad_body(pair):
    body = {"status": "sideways"}
    pair.check("PUT", "/os-services/00000000-0000-0000-0000-000000000000", body, version="2.53")


@pytest.mark.parametrize("version", (*VERSIONS, "2.28", "2.33", "2.53", "2.88"))
def test_hypervisors_list(pair, version):
    pair.check("GET", "/os-hypervisors", version=version,
               values=("hypervisors.0.state", "hypervisors.0.status"))  # fmt: skip


@pytest.mark.parametrize("version", (*VERSIONS, "2.28", "2.53", "2.88"))
def test_hypervisors_detail(pair, version):
    # hypervisor_version: the fake driver reports 1000, libvirt an int too
    pair.check("GET", "/os-hypervisors/detail", version=version)


@pytest.mark.parametrize("version", ("2.53", "2.75", "2.88", "2.96"))
def test_hypervisor_show_by_uuid(pair, version):
    for cloud in pair.clouds:
        listed = cloud.request("GET", "/os-hypervisors", version="2.53").body
        cloud.ids["hypervisor"] = listed["hypervisors"][0]["id"]
    pair.check("GET", "/os-hypervisors/{hypervisor}", version=version)


def test_hypervisor_show_int_id_after_2_53(pair):
    pair.check("GET", "/os-hypervisors/1", version="2.53")


def test_hypervisor_show_missing(pair):
    pair.check("GET", "/os-hypervisors/00000000-0000-0000-0000-000000000000", version="2.53")


def test_hypervisors_as_member(pair):
    pair.check("GET", "/os-hypervisors", version="2.53", user="member")


@pytest.mark.parametrize("version", ("2.1", "2.53"))
def test_hypervisor_search_missing(pair, version):
    path = "/os-hypervisors?hypervisor_hostname_pattern=fid-nothing"
    if version == "2.1":
        path = "/os-hypervisors/fid-nothing/search"
    pair.check("GET", path, version=version)


@pytest.mark.parametrize("user", ("admin", "member"))
def test_availability_zones(pair, user):
    pair.check("GET", "/os-availability-zone", version="2.1", user=user,
               values=("availabilityZoneInfo.0.zoneName",))  # fmt: skip


def test_availability_zones_detail_as_member(pair):
    pair.check("GET", "/os-availability-zone/detail", version="2.1", user="member")


@pytest.mark.parametrize(
    "query",
    (
        "limit=x",
        "limit=1",
        "marker=00000000-0000-0000-0000-000000000000",
        "with_servers=maybe",
        "hypervisor_hostname_pattern=fid-nothing&with_servers=true",
        "bogus=1",
    ),
)
@pytest.mark.parametrize("version", ("2.33", "2.53", "2.75"))
def test_hypervisors_queries(pair, query, version):
    pair.check("GET", "/os-hypervisors?" + query, version=version)


@pytest.mark.parametrize("version", ("2.1", "2.87"))
def test_hypervisor_statistics(pair, version):
    pair.check("GET", "/os-hypervisors/statistics", version=version)


RIG_UPTIME = known(
    "rig: the fake virt driver has no uptime (501); the local cloud plays a libvirt host"
)


@pytest.mark.parametrize(
    "version",
    (pytest.param("2.1", marks=RIG_UPTIME), pytest.param("2.53", marks=RIG_UPTIME), "2.88"),
)
def test_hypervisor_uptime(pair, version):
    for cloud in pair.clouds:
        listed = cloud.request("GET", "/os-hypervisors", version="2.53").body
        cloud.ids["hypervisor"] = listed["hypervisors"][0]["id"]
        cloud.ids["hypervisor_seq"] = cloud.request("GET", "/os-hypervisors", version="2.1").body[
            "hypervisors"
        ][0]["id"]
    path = "/os-hypervisors/{hypervisor_seq}/uptime"
    if version >= "2.53":
        path = "/os-hypervisors/{hypervisor}/uptime"
    pair.check("GET", path, version=version)


def test_availability_zones_detail_as_admin(pair):
    # the compute host's zone entry only: control services differ in name
    pair.check("GET", "/os-availability-zone/detail", version="2.1",
               keep=lambda ids, zone: zone["zoneName"] == "nova")  # fmt: skip


def test_services_filters(pair):
    pair.check("GET", "/os-services?binary=nova-compute&host={host}", version="2.53",
               values=("services.0.host", "services.0.binary"))  # fmt: skip
    pair.check("GET", "/os-services?binary=nova-nothing", version="2.53", values=("services",))


def test_service_update_errors(pair):
    for cloud in pair.clouds:
        listed = cloud.request("GET", COMPUTE, version="2.53").body
        cloud.ids["service"] = listed["services"][0]["id"]
    path = "/os-services/{service}"
    pair.check("PUT", path, {"status": "sideways"}, version="2.53")
    pair.check("PUT", path, {"forced_down": "maybe"}, version="2.53")
    pair.check("PUT", path, {"disabled_reason": "x"}, version="2.53")
    pair.check("PUT", path, {}, version="2.53")
    pair.check("PUT", path, {"status": "enabled"}, version="2.53", user="member")
    pair.check("PUT", "/os-services/disable", {"host": "{host}", "binary": "nova-compute"},
               version="2.53")  # fmt: skip
    pair.check("PUT", "/os-services/enable", {"host": "fid-none", "binary": "nova-compute"},
               version="2.1")  # fmt: skip
