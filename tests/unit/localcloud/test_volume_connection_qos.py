"""The QoS specs in a volume's connection info in the local Cinder
(cinder/volume/manager.py ``_parse_connection_options``): the type's
``front-end`` and ``both`` specs are handed to Nova, ``back-end`` ones
are not, and ``<option>_per_gb`` becomes ``<option>`` for the size."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")

CONNECTOR = {"initiator": "iqn.1993-08.org.debian:01:cad181614cec", "host": "compute-1"}


def typed_volume(cinder, consumer, size=1, **specs):
    """A volume of a new type whose QoS specs are ``specs`` for ``consumer``."""
    body = {"qos_specs": dict(specs, name="qos-" + consumer, consumer=consumer)}
    made = cinder.post("/qos-specs", body, user="admin")
    assert made.status == 200, made.body
    vtype = cinder.post("/types", {"volume_type": {"name": "t-" + consumer}}, user="admin")
    assert vtype.status == 200, vtype.body
    type_id = vtype.json()["volume_type"]["id"]
    path = "/qos-specs/%s/associate?vol_type_id=%s" % (made.json()["qos_specs"]["id"], type_id)
    assert cinder.get(path, user="admin").status == 202
    return cinder.create(volume_type="t-" + consumer, size=size)["id"]


def initialize(cinder, volume_id):
    body = {"os-initialize_connection": {"connector": CONNECTOR}}
    result = cinder.post("/volumes/%s/action" % volume_id, body)
    assert result.status == 200, result.body
    return result.json()["connection_info"]["data"]


def attachment_info(cinder, volume_id):
    body = {"attachment": {"volume_uuid": volume_id, "connector": CONNECTOR}}
    result = cinder.post("/attachments", body)
    assert result.status == 200, result.body
    return result.json()["attachment"]["connection_info"]


@pytest.mark.parametrize("consumer", ["front-end", "both"])
def test_front_end_specs_reach_the_connection(cinder, consumer):
    volume = typed_volume(cinder, consumer, total_iops_sec="500", read_bytes_sec="1024")
    expected = {"total_iops_sec": "500", "read_bytes_sec": "1024"}
    assert initialize(cinder, volume)["qos_specs"] == expected
    assert attachment_info(cinder, volume)["qos_specs"] == expected


def test_back_end_specs_stay_with_the_driver(cinder):
    volume = typed_volume(cinder, "back-end", total_iops_sec="500")
    assert initialize(cinder, volume)["qos_specs"] is None
    assert attachment_info(cinder, volume)["qos_specs"] is None
    plain = cinder.create()["id"]
    assert initialize(cinder, plain)["qos_specs"] is None


def test_per_gb_specs_scale_with_the_size(cinder):
    volume = typed_volume(
        cinder,
        "front-end",
        size=10,
        read_iops_sec_per_gb="30",
        read_iops_sec_per_gb_min="100",
        write_iops_sec_per_gb="5",
        write_iops_sec_per_gb_min="100",
        total_bytes_sec_per_gb="1000",
        total_bytes_sec_max="4000",
    )
    # 30 x 10 above its minimum; 5 x 10 raised to it; 1000 x 10 capped
    assert initialize(cinder, volume)["qos_specs"] == {
        "read_iops_sec": 300,
        "write_iops_sec": 100,
        "total_bytes_sec": 4000,
    }
