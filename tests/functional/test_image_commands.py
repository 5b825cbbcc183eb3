"""``occli image create/delete`` against the local Glance: the record
made with OSC's options, deletion, and the failure paths (usage errors
exit 2 before any request, a partial delete exit 1 with OSC's count)."""

import uuid

import pytest

from tests.functional.harness import as_json


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def test_create_without_data_is_queued_with_its_attributes(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    shown = as_json(
        occli(
            "image",
            "create",
            "--disk-format",
            "qcow2",
            "--property",
            "os_distro=cirros",
            "--tag",
            "test",
            "--min-disk",
            "1",
            "--min-ram",
            "64",
            "--private",
            name,
            "-f",
            "json",
        )
    )
    try:
        assert shown["name"] == name
        assert shown["status"] == "queued"
        assert shown["disk_format"] == "qcow2" and shown["container_format"] == "bare"
        assert shown["visibility"] == "private"
        assert (shown["min_disk"], shown["min_ram"]) == (1, 64)
        assert shown["properties"]["os_distro"] == "cirros"  # as OSC's
        assert shown["tags"] == ["test"]
    finally:
        code, out, err = occli("image", "delete", name)
    assert code == 0, err
    code, out, err = occli("image", "show", shown["id"])
    assert code == 1 and "No image with a name or ID of" in err


def test_delete_reports_each_failure_and_the_count(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", name, "-f", "json"))
    code, out, err = occli("image", "delete", "no-such-image-" + name, image["id"])
    assert code == 1
    assert "Failed to delete image with name or ID 'no-such-image-%s':" % name in err
    assert "Failed to delete 1 of 2 images." in err
    code, out, err = occli("image", "show", image["id"])
    assert code == 1  # the other one was deleted


def test_read_only_property_is_a_usage_error(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    code, out, err = occli("image", "create", "--property", "checksum=x", name)
    assert code == 2
    assert "--property: Attribute 'checksum' is read-only." in err
    listed = as_json(occli("image", "list", "--name", name, "-f", "json"))
    assert listed == []


def test_upload_then_save_round_trips_the_bytes(occli, tmp_path):
    import hashlib
    import os

    name = "img-" + uuid.uuid4().hex[:8]
    data = os.urandom(300 * 1024 + 7)  # several chunks and a partial one
    source = tmp_path / "disk.img"
    source.write_bytes(data)
    shown = as_json(occli("image", "create", "--file", source, name, "-f", "json"))
    try:
        assert shown["status"] == "active"
        assert shown["size"] == len(data)
        assert shown["checksum"] == hashlib.md5(data).hexdigest()
        assert shown["properties"]["os_hash_algo"] == "sha512"
        assert shown["properties"]["os_hash_value"] == hashlib.sha512(data).hexdigest()
        target = tmp_path / "saved.img"
        code, out, err = occli("image", "save", "--file", target, name)
        assert code == 0, err
        assert target.read_bytes() == data
    finally:
        code, out, err = occli("image", "delete", shown["id"])
    assert code == 0, err


def test_save_of_an_image_without_data_fails(occli, tmp_path):
    name = "img-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", name, "-f", "json"))
    try:
        code, out, err = occli("image", "save", "--file", tmp_path / "x", name)
        assert code == 1
        assert "Image %s has no data." % image["id"] in err
        assert not (tmp_path / "x").exists()
    finally:
        occli("image", "delete", image["id"])


def test_set_and_unset_change_the_image_in_place(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", "--tag", "a", name, "-f", "json"))
    try:
        code, out, err = occli(
            "image",
            "set",
            "--name",
            name + "-new",
            "--tag",
            "b",
            "--property",
            "os_distro=cirros",
            "--property",
            "hw_disk_bus=virtio",
            "--min-ram",
            "128",
            "--shared",
            image["id"],
        )
        assert code == 0, err
        shown = as_json(occli("image", "show", image["id"], "-f", "json"))
        assert shown["name"] == name + "-new"
        assert sorted(shown["tags"]) == ["a", "b"]
        properties = shown["properties"]
        assert (properties["os_distro"], properties["hw_disk_bus"]) == ("cirros", "virtio")
        assert (shown["min_ram"], shown["visibility"]) == (128, "shared")
        code, out, err = occli(
            "image", "unset", "--tag", "a", "--property", "os_distro", "--property", "nope",
            image["id"],
        )  # fmt: skip
        assert code == 1
        assert "property unset failed, 'nope' is a nonexistent property" in err
        assert "Failed to unset 1 of 2 properties." in err
        shown = as_json(occli("image", "show", image["id"], "-f", "json"))
        assert shown["tags"] == ["b"]
        properties = shown["properties"]
        assert "os_distro" not in properties and properties["hw_disk_bus"] == "virtio"
    finally:
        occli("image", "delete", image["id"])


def test_a_protected_image_is_not_deleted_until_unprotected(occli):
    name = "img-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", "--protected", name, "-f", "json"))
    try:
        assert image["protected"] is True
        code, out, err = occli("image", "delete", image["id"])
        assert code == 1
        assert "Failed to delete image with name or ID '%s':" % image["id"] in err
        assert "(HTTP 403)" in err
        assert "Failed to delete 1 of 1 images." in err
        assert as_json(occli("image", "show", image["id"], "-f", "json"))["id"] == image["id"]
    finally:
        code, out, err = occli("image", "set", "--unprotected", image["id"])
        assert code == 0, err
        code, out, err = occli("image", "delete", image["id"])
    assert code == 0, err
