"""Microversion parsing, negotiation and gating."""

import pytest

from occli import api_versions
from occli import exceptions
from occli.api_versions import APIVersion


def test_parse_and_compare():
    assert APIVersion("2.10") > APIVersion("2.9")
    assert APIVersion("2.latest") > APIVersion("2.1000")
    assert APIVersion("latest").is_latest
    assert str(APIVersion("2.47")) == "2.47"
    with pytest.raises(exceptions.UnsupportedVersion):
        APIVersion("two")


def test_negotiate_takes_highest_common():
    assert api_versions.negotiate(None, "2.1", "2.104") == APIVersion(api_versions.MAX_VERSION)
    assert api_versions.negotiate(None, "2.1", "2.60") == APIVersion("2.60")
    assert api_versions.negotiate("latest", "2.1", "2.60") == APIVersion("2.60")


def test_negotiate_pinned_must_fit_both_ranges():
    assert api_versions.negotiate("2.56", "2.1", "2.104") == APIVersion("2.56")
    with pytest.raises(exceptions.UnsupportedVersion, match="server"):
        api_versions.negotiate("2.70", "2.1", "2.60")
    with pytest.raises(exceptions.UnsupportedVersion, match="occli"):
        api_versions.negotiate("2.200", "2.1", "2.300")


def test_negotiate_no_overlap():
    with pytest.raises(exceptions.UnsupportedVersion, match="in common"):
        api_versions.negotiate(None, "3.1", "3.5")


def test_require_names_the_version():
    api_versions.require("2.19", "2.19", what="description")
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        api_versions.require("2.18", "2.19", what="description")
    assert "2.19 or later" in str(err.value)
    assert "2.18" in str(err.value)
    with pytest.raises(exceptions.UnsupportedVersion, match="between 2.1 and 2.56"):
        api_versions.require("2.57", "2.1", "2.56", what="personality files")


def test_require_advice_depends_on_a_pinned_version():
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        api_versions.require("2.60", "2.1", "2.56", what="files", pinned=True)
    assert "change --os-compute-api-version" in str(err.value)
    assert "pin a version" not in str(err.value)
