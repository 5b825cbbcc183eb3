"""The microversions the audit (test_volume_microversions.py) once listed
as gaps, each served as Cinder 29 serves it: the volume list's
``glance_metadata`` (3.4), like (3.34) and time comparison (3.60) filters,
and the rest below."""

import urllib.parse

import pytest

from tests.unit.localcloud.volume_harness import CIRROS
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")


def names(cinder, query, user="demo", version="3.60"):
    result = cinder.get("/volumes/detail?" + query, user=user, version=version)
    assert result.status == 200, result.body
    return sorted(v["name"] for v in result.json()["volumes"])


def quoted(value):
    return urllib.parse.quote(str(value))


# -- 3.4: glance_metadata ----------------------------------------------------------


def test_glance_metadata_filter_from_3_4(cinder):
    cinder.create(name="blank")
    cinder.create(name="cirros", imageRef=CIRROS)
    wanted = quoted({"image_id": CIRROS})
    assert names(cinder, "glance_metadata=" + wanted, version="3.4") == ["cirros"]
    # before 3.4 Cinder drops the filter
    assert names(cinder, "glance_metadata=" + wanted, version="3.3") == ["blank", "cirros"]
    # a value that is no dict: Cinder's query finds nothing
    assert names(cinder, "glance_metadata=cirros", version="3.4") == []
    other = quoted({"image_id": "another"})
    assert names(cinder, "glance_metadata=" + other, version="3.4") == []


def test_glance_metadata_is_an_admins_filter_from_3_34(cinder):
    cinder.create(name="cirros", imageRef=CIRROS)
    wanted = quoted({"image_id": CIRROS})
    refused = cinder.get("/volumes?glance_metadata=" + wanted, version="3.34")
    assert refused.status == 400
    assert message(refused) == "Invalid filters glance_metadata are found in query options."
    query = "all_tenants=1&glance_metadata=" + wanted
    assert names(cinder, query, user="admin", version="3.34") == ["cirros"]


# -- 3.34: like filters ----------------------------------------------------------


def test_like_filters_from_3_34(cinder):
    for name in ("alpha-data", "beta-DATA", "gamma"):
        cinder.create(name=name)
    assert names(cinder, "name~=data", version="3.34") == ["alpha-data", "beta-DATA"]
    assert names(cinder, "name~=a_p", version="3.34") == ["alpha-data"]
    assert names(cinder, "name~=zeta", version="3.34") == []
    # before 3.34 a like key is no filter (ignored, as any unknown one)
    assert names(cinder, "name~=data", version="3.33") == ["alpha-data", "beta-DATA", "gamma"]


def test_a_like_key_of_an_unconfigured_filter_is_400(cinder):
    refused = cinder.get("/volumes?description~=x", version="3.34")
    assert refused.status == 400
    assert message(refused) == "Invalid filters description~ are found in query options."


# -- 3.60: time comparisons --------------------------------------------------------


def test_created_at_comparisons(cinder):
    first = cinder.create(name="first")
    second = cinder.create(name="second")
    at = quoted(cinder.show(second["id"])["created_at"])
    before = quoted(cinder.show(first["id"])["created_at"])
    assert names(cinder, "created_at=gte:" + at) == ["second"]
    assert names(cinder, "created_at=lt:" + at) == ["first"]
    assert names(cinder, "created_at=eq:" + before) == ["first"]
    assert names(cinder, "created_at=gt:2000-01-01T00:00:00Z") == ["first", "second"]
    # Cinder joins the comparisons with OR
    assert names(cinder, "created_at=lt:2000-01-01T00:00:00,gte:" + at) == ["second"]


def test_updated_at_comparisons(cinder):
    volume = cinder.create(name="touched")
    cinder.create(name="untouched")
    cinder.show(volume["id"])
    result = cinder.put("/volumes/" + volume["id"], {"volume": {"description": "d"}})
    assert result.status == 200, result.body
    at = quoted(cinder.show(volume["id"])["updated_at"])
    assert names(cinder, "updated_at=gte:" + at) == ["touched"]
    assert names(cinder, "updated_at=lt:" + at) == ["untouched"]
    assert names(cinder, "updated_at=neq:" + at) == ["untouched"]


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("created_at=after:2026-01-01T00:00:00", "Invalid after operator"),
        ("created_at=2026", "Invalid 2026 operator"),
        ("updated_at=gt:yesterday", "Invalid yesterday value"),
        ("created_at=gt", "Invalid gt value"),
    ],
)
def test_a_bad_time_comparison_is_400(cinder, query, text):
    refused = cinder.get("/volumes?" + query, version="3.60")
    assert refused.status == 400
    assert message(refused) == text


def test_time_filters_are_ignored_before_the_configured_filters(cinder):
    cinder.create(name="v")
    assert names(cinder, "created_at=gt:2999-01-01T00:00:00", version="3.30") == ["v"]
    assert names(cinder, "created_at=gt:2999-01-01T00:00:00", version="3.31") == []
