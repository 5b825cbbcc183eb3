"""Version documents and microversion negotiation, both clouds."""

import pytest

from tests.fidelity.differential import known

VERSIONS = ("2.1", "2.47", "2.79", "2.96")


def test_root_version_document(pair):
    pair.check("GET", "@/", values=("versions.0.id", "versions.1.id", "versions.1.min_version"))


def test_v21_version_document(pair):
    pair.check("GET", "@/v2.1/", values=("version.id", "version.min_version"))


@pytest.mark.parametrize("version", (*VERSIONS, "latest", None))
def test_microversion_headers(pair, flavor, version):
    # at "latest" each cloud answers its own maximum ({max}): nova 34's
    # 2.102 dropped two flavor keys the local cloud (2.96) still shows
    ignore = ("flavor.OS-FLV-DISABLED:disabled", "flavor.rxtx_factor")
    pair.check("GET", "/flavors/{flavor}", version=version, ignore=ignore * (version == "latest"))


@pytest.mark.parametrize("version", ("2.200", "3.0", "2.0"))
def test_unsupported_microversion_406(pair, version):
    pair.check("GET", "/flavors", version=version)


@pytest.mark.parametrize("version", ("2.x", "two", "2.1.1", "2."))
def test_malformed_microversion_400(pair, version):
    pair.check("GET", "/flavors", version=version)


def test_legacy_header_only(pair, flavor):
    """Only X-OpenStack-Nova-API-Version (novaclient's old header)."""
    pair.check("GET", "/flavors/{flavor}", headers={"X-OpenStack-Nova-API-Version": "2.47"})


def test_v2_version_document(pair):
    pair.check("GET", "@/v2/", values=("version.id", "version.status"))


def test_v21_version_document_with_token(pair):
    pair.check("GET", "", version="2.47", values=("version.id",))


@pytest.mark.parametrize("method", ("GET", "POST"))
def test_paths_outside_the_apis(pair, method):
    pair.check(method, "@/no-such-root", exact=True)


@pytest.mark.parametrize("method", ("PATCH", "GET"))
def test_unrouted_api_path_without_token(pair, method):
    pair.check(method, "@/v2.1/no-such-collection", exact=True)


@known("nova serves its version documents for any method; the local cloud's are GET only")
def test_version_document_by_post(pair):
    pair.check("POST", "@/", exact=True)
