"""``volume service list/set``, ``volume host set``, ``volume backend pool
list`` and ``volume backend capability show`` in-process against
requests-mock: OSC's columns and the Cinder requests they make."""

import json

from .fakes import VOLUME

SERVICE = {
    "binary": "cinder-volume",
    "host": "localcloud@lvm",
    "zone": "nova",
    "status": "disabled",
    "state": "up",
    "updated_at": "2026-12-02T03:20:00.000000",
    "disabled_reason": "upgrade",
}


def test_service_list_with_filters_and_long(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/os-services", json={"services": [SERVICE]})
    code, out, err = cli(
        "volume", "service", "list", "--service", "cinder-volume", "--long", "-f", "json"
    )
    assert code == 0, err
    (row,) = json.loads(out)
    assert list(row) == [
        "Binary", "Host", "Zone", "Status", "State", "Updated At", "Disabled Reason",
    ]  # fmt: skip
    assert (row["Zone"], row["Disabled Reason"]) == ("nova", "upgrade")
    assert m.last_request.qs == {"binary": ["cinder-volume"]}


def test_service_set_disable_with_reason_then_enable(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(VOLUME + "/os-services/disable-log-reason", json={"disabled": True})
    m.put(VOLUME + "/os-services/enable", json={"disabled": False})
    code, _out, err = cli(
        "volume", "service", "set", "--disable", "--disable-reason", "upgrade",
        "localcloud@lvm", "cinder-volume",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "host": "localcloud@lvm",
        "binary": "cinder-volume",
        "disabled_reason": "upgrade",
    }
    code, _out, err = cli(
        "volume", "service", "set", "--enable", "localcloud@lvm", "cinder-volume"
    )
    assert code == 0, err
    assert m.last_request.path.endswith("/os-services/enable")


def test_service_set_refuses_a_reason_without_disable(cli, mock_cloud):
    code, _out, err = cli(
        "volume", "service", "set", "--disable-reason", "x", "localcloud@lvm", "cinder-volume"
    )
    assert code != 0
    assert "Cannot specify option --disable-reason without --disable specified." in err
    assert not mock_cloud.mock.request_history or all(
        "/os-services" not in r.path for r in mock_cloud.mock.request_history
    )


def test_host_set_freezes_and_thaws(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(VOLUME + "/os-services/freeze", status_code=200)
    m.put(VOLUME + "/os-services/thaw", status_code=200)
    assert cli("volume", "host", "set", "--disable", "localcloud@lvm")[0] == 0
    assert m.last_request.path.endswith("/os-services/freeze")
    assert m.last_request.json() == {"host": "localcloud@lvm"}
    assert cli("volume", "host", "set", "--enable", "localcloud@lvm")[0] == 0
    assert m.last_request.path.endswith("/os-services/thaw")


def test_backend_pool_list_long(cli, mock_cloud):
    m = mock_cloud.mock
    pool = {"name": "localcloud@lvm#lvm", "capabilities": {"storage_protocol": "iSCSI"}}
    m.get(VOLUME + "/scheduler-stats/get_pools", json={"pools": [pool]})
    code, out, err = cli("volume", "backend", "pool", "list", "--long", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["Name"] == pool["name"]
    assert row["Capabilities"] == {"storage_protocol": "iSCSI"}
    assert m.last_request.qs == {"detail": ["true"]}


def test_backend_capability_show(cli, mock_cloud):
    m = mock_cloud.mock
    body = {
        "namespace": "OS::Storage::Capabilities::localcloud@lvm",
        "properties": {"qos": {"title": "QoS", "description": "Enables QoS.", "type": "boolean"}},
    }
    m.get(VOLUME + "/capabilities/localcloud@lvm", json=body)
    code, out, err = cli("volume", "backend", "capability", "show", "localcloud@lvm", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Title": "QoS", "Key": "qos", "Type": "boolean", "Description": "Enables QoS."}
    ]


GROUP_TYPE_ID = "7270c56e-6354-4528-8e8b-f54dee2232c8"
GROUP_TYPE = {
    "id": GROUP_TYPE_ID,
    "name": "grp-gold",
    "description": None,
    "is_public": False,
    "group_specs": {"a": "1"},
}


def test_group_type_create_private_at_311(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(VOLUME + "/group_types", status_code=202, json={"group_type": GROUP_TYPE})
    code, out, err = cli(
        "volume", "group", "type", "create", "--private", "grp-gold", "-f", "json"
    )
    assert code == 0, err
    shown = json.loads(out)
    assert (shown["Is Public"], shown["Properties"]) == (False, {"a": "1"})
    assert m.last_request.json() == {
        "group_type": {"name": "grp-gold", "description": None, "is_public": False}
    }
    assert m.last_request.headers["OpenStack-API-Version"] == "volume 3.11"


def test_group_type_list_and_set_by_name(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/group_types", json={"group_types": [GROUP_TYPE]})
    m.get(VOLUME + "/group_types/" + GROUP_TYPE_ID, json={"group_type": GROUP_TYPE})
    m.put(VOLUME + "/group_types/" + GROUP_TYPE_ID, json={"group_type": GROUP_TYPE})
    m.post(VOLUME + "/group_types/%s/group_specs" % GROUP_TYPE_ID, status_code=202, json={})
    code, out, err = cli("volume", "group", "type", "list", "-f", "json")
    assert code == 0, err
    assert list(json.loads(out)[0]) == ["ID", "Name", "Is Public", "Group Specs"]
    code, _out, err = cli(
        "volume", "group", "type", "set", "--public", "--property", "b=2", "grp-gold"
    )
    assert code == 0, err
    writes = [r for r in m.request_history if r.method in ("PUT", "POST") and VOLUME in r.url]
    assert writes[0].json() == {"group_type": {"is_public": True}}
    assert writes[1].json() == {"group_specs": {"b": "2"}}


def test_group_type_unset_and_delete(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/group_types/" + GROUP_TYPE_ID, json={"group_type": GROUP_TYPE})
    m.delete(VOLUME + "/group_types/%s/group_specs/a" % GROUP_TYPE_ID, status_code=202)
    m.delete(VOLUME + "/group_types/" + GROUP_TYPE_ID, status_code=202)
    code, _out, err = cli("volume", "group", "type", "unset", "--property", "a", GROUP_TYPE_ID)
    assert code == 0, err
    assert any(r.path.endswith("/group_specs/a") for r in m.request_history)
    code, _out, err = cli("volume", "group", "type", "delete", GROUP_TYPE_ID)
    assert code == 0, err
    assert m.last_request.method == "DELETE"
