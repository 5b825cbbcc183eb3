"""POST /servers block device mappings: nova's API and compute checks."""

import pytest

from occli.localcloud.compute import block_devices
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault

VOLUME = "9d5e2fb8-0000-4000-8000-000000000001"
VOLUME2 = "9d5e2fb8-0000-4000-8000-000000000002"
SNAPSHOT = "9d5e2fb8-0000-4000-8000-0000000000a1"
MISSING = "5e0bd41f-0a47-4c7c-9f1d-7d7b5f3c2b11"
INVALID = "Block Device Mapping is Invalid: "


def image_local(uuid=CIRROS, boot_index=0):
    return {
        "uuid": uuid,
        "source_type": "image",
        "destination_type": "local",
        "boot_index": boot_index,
        "delete_on_termination": True,
    }


def image_volume(uuid=CIRROS, boot_index=0, **extra):
    bdm = {
        "uuid": uuid,
        "source_type": "image",
        "destination_type": "volume",
        "boot_index": boot_index,
    }
    bdm.update(extra)
    return bdm


def volume(uuid=VOLUME, boot_index=-1, **extra):
    bdm = {
        "uuid": uuid,
        "source_type": "volume",
        "destination_type": "volume",
        "boot_index": boot_index,
    }
    bdm.update(extra)
    return bdm


def blank_local(size=None, guest_format=None):
    bdm = {
        "source_type": "blank",
        "destination_type": "local",
        "boot_index": -1,
        "delete_on_termination": True,
    }
    if size is not None:
        bdm["volume_size"] = size
    if guest_format:
        bdm["guest_format"] = guest_format
    return bdm


def swap(size):
    return blank_local(size, "swap")


NO_IMAGE = object()


def create(nova, expect=202, version=None, **server):
    """``nova.create``; ``imageRef=NO_IMAGE`` leaves imageRef out."""
    server.setdefault("name", "vm")
    server.setdefault("flavorRef", "1")
    if server.setdefault("imageRef", CIRROS) is NO_IMAGE:
        del server["imageRef"]
    result = nova.post("/servers", {"server": server}, version=version)
    assert result.status == expect, result.body
    return result.json()["server"]["id"] if expect == 202 else result


def message(nova, **server):
    return fault(create(nova, expect=400, **server))[2]


@pytest.fixture
def disks_flavor(nova):
    """Flavor ``10``: 5 GB ephemeral, 512 MB swap (the seeded have none)."""
    with nova.cloud.store.transaction() as db:
        db.execute(
            "INSERT INTO compute_flavors (id, name, memory_mb, vcpus,"
            " root_gb, ephemeral_gb, swap) VALUES"
            " ('10', 'm1.disks', 512, 1, 1, 5, 512),"
            " ('11', 'm1.ephemeral', 512, 1, 1, 5, 0)"
        )
    return "10"


# -- swap (a) ------------------------------------------------------------------


def test_swap_larger_than_flavor(nova):
    # the seeded flavors have swap 0: `--swap 4096` is refused, as by nova
    assert (
        message(nova, block_device_mapping_v2=[image_local(), swap(4096)])
        == block_devices.SWAP_SIZE
        == ("Swap drive requested is larger than instance type allows.")
    )


def test_swap_within_flavor(nova, disks_flavor):
    create(nova, flavorRef=disks_flavor, block_device_mapping_v2=[image_local(), swap(512)])
    create(nova, flavorRef=disks_flavor, block_device_mapping_v2=[image_local(), swap(None)])
    assert (
        message(nova, flavorRef=disks_flavor, block_device_mapping_v2=[image_local(), swap(513)])
        == block_devices.SWAP_SIZE
    )


def test_more_than_one_swap(nova, disks_flavor):
    assert message(
        nova, flavorRef=disks_flavor, block_device_mapping_v2=[image_local(), swap(256), swap(256)]
    ) == (INVALID + "More than one swap drive requested.")


# -- ephemeral (b) -------------------------------------------------------------


def test_ephemeral_larger_than_flavor(nova):
    assert (
        message(nova, block_device_mapping_v2=[image_local(), blank_local(5)])
        == block_devices.EPHEMERAL_SIZE
        == (
            "Ephemeral disks requested are larger than the instance type "
            "allows. If no size is given in one block device mapping, flavor "
            "ephemeral size will be used."
        )
    )


def test_ephemeral_total_against_flavor(nova, disks_flavor):
    create(
        nova,
        flavorRef="11",
        block_device_mapping_v2=[image_local(), blank_local(2), blank_local(3, "ext4")],
    )
    # flavor 10 adds its swap disk: a fourth local device
    assert message(
        nova,
        flavorRef=disks_flavor,
        block_device_mapping_v2=[image_local(), blank_local(2), blank_local(3, "ext4")],
    ) == (INVALID + "You specified more local devices than the limit allows")
    assert message(
        nova,
        flavorRef=disks_flavor,
        block_device_mapping_v2=[image_local(), blank_local(3), blank_local(3)],
    ) == (block_devices.EPHEMERAL_SIZE)
    # no size: the flavor's 5 GB each
    assert message(
        nova,
        flavorRef=disks_flavor,
        block_device_mapping_v2=[image_local(), blank_local(), blank_local(1)],
    ) == (block_devices.EPHEMERAL_SIZE)


def test_local_device_limit(nova, disks_flavor):
    assert message(
        nova,
        flavorRef=disks_flavor,
        block_device_mapping_v2=[image_local(), blank_local(1), blank_local(1), swap(1)],
    ) == (INVALID + "You specified more local devices than the limit allows")


# -- boot sequence (c) ---------------------------------------------------------


@pytest.mark.parametrize(
    "bdms",
    [
        [image_local(), volume(boot_index=0)],
        [image_local(), volume(boot_index=2)],
        [volume(boot_index=1)],
        [volume(boot_index=-1)],
        [volume(boot_index=None)],
    ],
)
def test_boot_sequence(nova, bdms):
    assert message(nova, block_device_mapping_v2=bdms) == (block_devices.BOOT_SEQUENCE)


def test_boot_sequence_imageref_needs_its_boot_disk(nova):
    # nova adds no image disk to BDMv2 requests: clients do (bug 1433609)
    assert message(nova, block_device_mapping_v2=[volume()]) == (block_devices.BOOT_SEQUENCE)


def test_boot_sequence_contiguous_indexes_accepted(nova):
    create(
        nova,
        block_device_mapping_v2=[
            image_local(),
            volume(boot_index="1"),
            volume(VOLUME2, boot_index=2),
        ],
    )


# -- source/destination combinations (d) --------------------------------------


@pytest.mark.parametrize(
    "server,text",
    [
        (
            {"block_device_mapping_v2": [image_local(boot_index=1)]},
            "Mapping image to local is not supported.",
        ),
        (
            {"block_device_mapping_v2": [image_local(boot_index=None)]},
            "Mapping image to local is not supported.",
        ),
        (
            {"imageRef": NO_IMAGE, "block_device_mapping_v2": [image_local()]},
            "Mapping image to local is not supported.",
        ),
        (
            {"block_device_mapping_v2": [image_local(), dict(blank_local(1), uuid=VOLUME)]},
            "Invalid device UUID.",
        ),
        (
            {
                "block_device_mapping_v2": [
                    image_local(),
                    {"source_type": "volume", "destination_type": "volume"},
                ]
            },
            "Missing device UUID.",
        ),
        (
            {
                "block_device_mapping_v2": [
                    image_local(),
                    {"uuid": VOLUME, "destination_type": "volume"},
                ]
            },
            "Some fields are invalid.",
        ),
        (
            {"block_device_mapping_v2": [image_local(), {"destination_type": "volume"}]},
            "Missing device UUID.",
        ),
        (
            {"block_device_mapping_v2": [image_local(), volume(device_name="/dev/v db")]},
            "Device name contains spaces.",
        ),
        (
            {"block_device_mapping_v2": [image_local(), volume(device_name="")]},
            "Device name empty or too long.",
        ),
        (
            {"imageRef": "", "block_device_mapping": [{"device_name": "vda"}]},
            "Unrecognized legacy format.",
        ),
    ],
)
def test_invalid_format(nova, server, text):
    assert message(nova, **server) == INVALID + text


def test_image_to_local_is_only_the_imageref_disk(nova):
    create(nova, block_device_mapping_v2=[image_local()])
    # imageRef "" counts as given (nova checks "is not None")
    server = nova.show(create(nova, imageRef="", block_device_mapping_v2=[image_local()]))
    assert server["image"] == ""


def test_mixed_syntaxes(nova):
    assert message(
        nova,
        block_device_mapping=[{"volume_id": VOLUME, "device_name": "vdb"}],
        block_device_mapping_v2=[image_local()],
    ) == ("Using different block_device_mapping syntaxes is not allowed in the same request.")


def test_volume_on_root_device_name_with_image(nova):
    assert message(
        nova, block_device_mapping_v2=[image_local(), volume(device_name="/dev/vda")]
    ) == ("The volume cannot be assigned the same device name as the root device vda")


def test_volume_source_with_several_instances(nova):
    assert message(nova, max_count=2, block_device_mapping_v2=[image_local(), volume()]) == (
        "Cannot attach one or more volumes to multiple instances"
    )
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "m",
                "flavorRef": "1",
                "imageRef": "",
                "max_count": 2,
                "block_device_mapping_v2": [image_volume(volume_size=1)],
            }
        },
    )
    assert result.status == 202, result.body


# -- volume sizes (e) ------------------------------------------------------------


def test_image_to_volume_needs_size(nova):
    for size in (None, 0):
        extra = {} if size is None else {"volume_size": size}
        assert (
            message(nova, imageRef=NO_IMAGE, block_device_mapping_v2=[image_volume(**extra)])
            == block_devices.IMAGE_VOLUME_SIZE
            == ("Images with destination_type 'volume' need to have a non-zero size specified")
        )


def test_blank_to_volume_needs_size(nova):
    blank = {"source_type": "blank", "destination_type": "volume", "boot_index": 1}
    assert message(nova, block_device_mapping_v2=[image_local(), blank]) == (
        "Blank volumes (source: 'blank', dest: 'volume') need to have non-zero size"
    )
    create(nova, block_device_mapping_v2=[image_local(), dict(blank, volume_size=1)])


def test_volume_smaller_than_image_min_disk(nova):
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE images SET min_disk = 3 WHERE id = ?", (CIRROS,))
    assert message(
        nova, imageRef=NO_IMAGE, block_device_mapping_v2=[image_volume(volume_size=2)]
    ) == (
        "Volume is smaller than the minimum size specified in image "
        "metadata. Volume size is 2147483648 bytes, minimum size is "
        "3221225472 bytes."
    )
    create(nova, imageRef=NO_IMAGE, block_device_mapping_v2=[image_volume(volume_size=3)])


# -- images (f) ---------------------------------------------------------------


def test_unknown_boot_image(nova):
    assert message(
        nova, imageRef=NO_IMAGE, block_device_mapping_v2=[image_volume(MISSING, volume_size=1)]
    ) == (INVALID + "failed to get image %s." % MISSING)


def test_unknown_image_of_other_mapping(nova):
    assert message(
        nova,
        block_device_mapping_v2=[
            image_local(),
            image_volume(MISSING, boot_index=1, volume_size=1),
        ],
    ) == (INVALID + "failed to get image %s." % MISSING)
    assert message(nova, block_device_mapping_v2=[image_local(MISSING)]) == (
        INVALID + "failed to get image %s." % MISSING
    )


def test_unknown_imageref_is_still_can_not_find(nova):
    assert (
        message(nova, imageRef=MISSING, block_device_mapping_v2=[image_local(MISSING)])
        == "Can not find requested image"
    )


# -- happy paths and volumes ------------------------------------------------------


def test_boot_from_image_volume(nova):
    for image_ref in (NO_IMAGE, ""):
        server = nova.show(
            create(
                nova,
                imageRef=image_ref,
                version="2.3",
                block_device_mapping_v2=[
                    image_volume(volume_size="1", delete_on_termination="true")
                ],
            ),
            version="2.3",
        )
        assert server["image"] == ""
        (attached,) = server["os-extended-volumes:volumes_attached"]
        assert attached["delete_on_termination"] is True
        assert attached["id"] not in (CIRROS, VOLUME)


def test_volume_sources_are_opaque_ids(nova):
    server = nova.show(
        create(
            nova,
            imageRef=NO_IMAGE,
            version="2.3",
            block_device_mapping_v2=[
                volume(boot_index=0),
                {
                    "uuid": SNAPSHOT,
                    "source_type": "snapshot",
                    "destination_type": "volume",
                    "boot_index": 1,
                    "delete_on_termination": True,
                },
                {
                    "source_type": "blank",
                    "destination_type": "volume",
                    "volume_size": 1,
                    "boot_index": -1,
                },
            ],
        ),
        version="2.3",
    )
    attached = server["os-extended-volumes:volumes_attached"]
    assert server["image"] == ""
    assert attached[0] == {"id": VOLUME, "delete_on_termination": False}
    assert [a["delete_on_termination"] for a in attached] == [False, True, False]
    assert len({a["id"] for a in attached}) == 3
    assert SNAPSHOT not in {a["id"] for a in attached}


def test_image_server_with_data_volume_keeps_its_image(nova):
    server = nova.show(
        create(nova, block_device_mapping_v2=[image_local(), volume(device_name="vdb")])
    )
    assert server["image"]["id"] == CIRROS
    assert server["os-extended-volumes:volumes_attached"] == [{"id": VOLUME}]


def test_flavor_disks_without_mappings(nova, disks_flavor):
    create(nova, flavorRef=disks_flavor)
    create(nova, flavorRef=disks_flavor, block_device_mapping_v2=[image_local(), blank_local(5)])


# -- legacy block_device_mapping ----------------------------------------------


def test_legacy_boot_volume_must_be_vda(nova):
    create(
        nova,
        imageRef=NO_IMAGE,
        block_device_mapping=[{"volume_id": VOLUME, "device_name": "/dev/vda"}],
    )
    assert message(
        nova, imageRef=NO_IMAGE, block_device_mapping=[{"volume_id": VOLUME, "device_name": "vdb"}]
    ) == (block_devices.BOOT_SEQUENCE)


def test_legacy_with_image_and_swap(nova, disks_flavor):
    server = nova.show(
        create(
            nova,
            block_device_mapping=[
                {"snapshot_id": SNAPSHOT, "device_name": "vdb", "delete_on_termination": "1"}
            ],
        )
    )
    assert server["image"]["id"] == CIRROS
    assert len(server["os-extended-volumes:volumes_attached"]) == 1
    assert (
        message(
            nova,
            block_device_mapping=[
                {"virtual_name": "swap", "device_name": "vdc", "volume_size": 1024}
            ],
        )
        == block_devices.SWAP_SIZE
    )
    assert (
        message(
            nova,
            block_device_mapping=[
                {"virtual_name": "ephemeral0", "device_name": "vdc", "volume_size": 1}
            ],
        )
        == block_devices.EPHEMERAL_SIZE
    )
    create(
        nova,
        flavorRef=disks_flavor,
        block_device_mapping=[{"virtual_name": "swap", "device_name": "vdc", "volume_size": 512}],
    )
