"""os-services, os-hypervisors and os-availability-zone."""

import pytest

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
