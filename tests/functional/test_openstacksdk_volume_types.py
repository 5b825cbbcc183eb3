"""openstacksdk's volume type and QoS calls (``conn.block_storage``)
against the local Cinder as the admin: a private type with project access,
extra specs, and QoS specs associated with it; another client than occli,
so the local cloud's answers are checked against what openstacksdk
expects."""

import uuid

import pytest

pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)


@pytest.fixture
def admin(occli_env):
    import openstack

    return openstack.connect(cloud="local-admin")


def test_private_type_access_specs_and_qos(admin, occli_env):
    alt = occli_env.client("local-alt").session.get_project_id()
    storage = admin.block_storage
    name = "sdk-type-%s" % uuid.uuid4().hex[:8]
    vtype = storage.create_type(name=name, description="sdk", is_public=False)
    qos = None
    try:
        assert (vtype.name, vtype.is_public) == (name, False)
        storage.add_type_access(vtype, alt)
        access = storage.get_type_access(vtype)
        assert [a["project_id"] for a in access] == [alt]
        storage.update_type_extra_specs(vtype, tier="gold")
        assert storage.get_type(vtype.id).extra_specs == {"tier": "gold"}
        storage.delete_type_extra_specs(vtype, ["tier"])
        assert storage.get_type(vtype.id).extra_specs == {}
        assert name in [t.name for t in storage.types(is_public=False)]
        qos = storage.create_qos_spec(name=name, consumer="back-end", read_iops_sec="100")
        assert (qos.consumer, qos.specs) == ("back-end", {"read_iops_sec": "100"})
        storage.associate_qos_spec(qos, vtype.id)
        assert [a.name for a in storage.qos_spec_associations(qos)] == [name]
        storage.disassociate_all_qos_spec(qos)
        storage.remove_type_access(vtype, alt)
        assert storage.get_type_access(vtype) == []
    finally:
        if qos is not None:
            storage.delete_qos_spec(qos, force=True)
        storage.delete_type(vtype)
    assert storage.find_type(vtype.id) is None
