"""A volume view's ``multiattach`` in the local Cinder: true for a volume
of a type whose extra specs say ``multiattach: <is> True``
(cinder/volume/flows/api/create_volume.py, cinder/api/v3/views/volumes.py),
in the create answer, show, the detailed list and after a retype."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")


def make_type(cinder, name, **specs):
    body = {"volume_type": {"name": name, "extra_specs": specs}}
    result = cinder.post("/types", body, user="admin")
    assert result.status == 200, result.body
    return result.json()["volume_type"]


def test_a_multiattach_type_makes_multiattach_volumes(cinder):
    make_type(cinder, "multi", multiattach="<is> True")
    make_type(cinder, "single", multiattach="False")
    multi = cinder.create(volume_type="multi")
    assert multi["multiattach"] is True
    single = cinder.create(volume_type="single")["id"]
    plain = cinder.create()["id"]
    assert cinder.show(multi["id"])["multiattach"] is True
    assert cinder.show(single)["multiattach"] is False
    listed = cinder.get("/volumes/detail").json()["volumes"]
    assert {v["id"]: v["multiattach"] for v in listed} == {
        multi["id"]: True,
        single: False,
        plain: False,
    }


def test_a_retype_to_a_multiattach_type_changes_the_view(cinder):
    make_type(cinder, "multi", multiattach="<is> True")
    volume = cinder.create()["id"]
    assert cinder.show(volume)["multiattach"] is False
    result = cinder.post("/volumes/%s/action" % volume, {"os-retype": {"new_type": "multi"}})
    assert result.status == 202, result.body
    assert cinder.show(volume)["multiattach"] is True
