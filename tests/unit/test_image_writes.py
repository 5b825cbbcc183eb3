"""Image writes: ``image create/save/set/unset/delete`` and the manager's
create, upload, data, update and delete, on Glance's api-ref samples
(tests/fixtures/image/)."""

import copy
import hashlib
import json
import os

import pytest

from occli import exceptions
from occli.v2.image import image_data
from occli.v2.image.image_data import CHUNK_SIZE

from .fakes import IMAGE
from .fakes import load_fixture
from .fakes import requests_to

CREATED = load_fixture("image", "image-create-response.json")
SHOWN = load_fixture("image", "image-show-response.json")
NEW_ID = CREATED["id"]
URL = IMAGE + "/v2/images/" + NEW_ID
DATA = os.urandom(3 * CHUNK_SIZE + 123)  # several chunks and a partial one


def _consume(body):
    """The bytes requests would send of a streamed body (a file-like object
    with a length, or an iterator of chunks)."""
    if hasattr(body, "read"):
        return b"".join(iter(lambda: body.read(65536), b""))
    return b"".join(body)


@pytest.fixture
def glance(mock_cloud):
    """A Glance that takes an image (POST), its data (PUT …/file, read as
    it would be sent) and answers it active."""
    m = mock_cloud.mock
    received: dict[str, object] = {}

    def upload(request, context):
        received["headers"] = dict(request.headers)
        received["body_type"] = type(request.body)
        received["data"] = _consume(request.body)
        context.status_code = 204
        return b""

    active = dict(copy.deepcopy(SHOWN), id=NEW_ID, name="Ubuntu")
    m.post(IMAGE + "/v2/images", status_code=201, json=CREATED)
    m.put(URL + "/file", content=upload)
    m.get(URL, json=active)
    m.received = received
    return m


def test_create_uploads_the_file_in_chunks_with_its_length(cli, glance, tmp_path):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    code, out, err = cli(
        "image",
        "create",
        "--file",
        str(path),
        "--disk-format",
        "raw",
        "--property",
        "os_distro=ubuntu",
        "--tag",
        "base",
        "--private",
        "--protected",
        "--min-disk",
        "1",
        "--min-ram",
        "512",
        "Ubuntu",
        "-f",
        "json",
    )
    assert code == 0, err
    assert err == ""  # no progress when stderr is not a terminal
    (post,) = requests_to(glance, "POST", "/v2/images")
    assert post.json() == {
        "name": "Ubuntu",
        "disk_format": "raw",
        "container_format": "bare",
        "visibility": "private",
        "protected": True,
        "min_disk": 1,
        "min_ram": 512,
        "tags": ["base"],
        "os_distro": "ubuntu",
    }
    received = glance.received
    assert received["data"] == DATA
    assert received["body_type"] is not bytes  # streamed, not read into memory
    assert received["headers"]["Content-Type"] == "application/octet-stream"
    assert received["headers"]["Content-Length"] == str(len(DATA))
    assert json.loads(out)["status"] == "active"
    assert json.loads(out)["id"] == NEW_ID


def test_create_reads_a_piped_stdin_chunked(cli, glance, tmp_path, monkeypatch):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    with open(path) as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        code, out, err = cli("image", "create", "Ubuntu")
    assert code == 0, err
    assert glance.received["data"] == DATA
    assert glance.received["headers"].get("Transfer-Encoding") == "chunked"
    assert "Content-Length" not in glance.received["headers"]
    assert requests_to(glance, "POST", "/v2/images")[0].json()["disk_format"] == "raw"


def test_create_with_dev_null_stdin_uploads_nothing(cli, glance, monkeypatch):
    with open(os.devnull) as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        code, out, err = cli("image", "create", "Ubuntu")
    assert code == 0, err
    assert len(requests_to(glance, "POST", "/v2/images")) == 1
    assert requests_to(glance, "PUT", "/file") == []


def test_upload_reports_progress_per_chunk(client, glance):
    import io

    seen: list[int] = []
    client.images.upload(NEW_ID, io.BytesIO(DATA), size=len(DATA), progress=seen.append)
    assert glance.received["data"] == DATA
    assert seen[-1] == len(DATA) and len(seen) == 4
    assert seen == sorted(seen)


@pytest.mark.parametrize(
    "argv, text",
    [
        (["--public", "--private"], "argument --private: not allowed with argument --public"),
        (["--protected", "--unprotected"], "not allowed with argument --protected"),
        (["--property", "size=1"], "--property: Attribute 'size' is read-only."),
        (["--property", "name=x"], "--property: 'name' is an image attribute"),
        (["--min-disk", "-1"], "argument --min-disk: '-1' must be 0 or more"),
        (["--disk-format", "exe"], "argument --disk-format: invalid choice: 'exe'"),
        (["--file", "/nonexistent/disk.img"], "--file: cannot read /nonexistent/disk.img"),
    ],
)
def test_create_usage_errors_exit_2_before_any_image_request(cli, glance, argv, text):
    code, out, err = cli("image", "create", *argv, "Ubuntu")
    assert code == 2
    assert text in err
    assert requests_to(glance, "POST", "/v2/images") == []


def _served(glance, data, md5=None, **image):
    info = dict(copy.deepcopy(SHOWN), id=NEW_ID, **image)
    glance.get(URL, json=info)
    headers = {"Content-Type": "application/octet-stream", "Content-Length": str(len(data))}
    if md5 is not None:
        headers["Content-MD5"] = md5
    glance.get(URL + "/file", content=data, headers=headers)


@pytest.fixture
def out_dir(tmp_path):
    path = tmp_path / "out"
    path.mkdir()
    return path


def test_save_writes_the_verified_data(cli, glance, out_dir):
    _served(
        glance,
        DATA,
        md5=hashlib.md5(DATA).hexdigest(),
        checksum=hashlib.md5(DATA).hexdigest(),
        os_hash_value=hashlib.sha512(DATA).hexdigest(),
    )
    target = out_dir / "saved.img"
    code, out, err = cli("image", "save", "--file", str(target), NEW_ID)
    assert code == 0, err
    assert target.read_bytes() == DATA
    assert os.listdir(out_dir) == ["saved.img"]


@pytest.mark.parametrize("corrupt", ["md5", "sha512"])
def test_save_refuses_data_that_does_not_match(cli, glance, out_dir, corrupt):
    # the multihash is checked where the image has one, else the MD5
    # (openstacksdk's image/_download.py)
    good_md5 = hashlib.md5(DATA).hexdigest()
    _served(
        glance,
        DATA,
        md5=("0" * 32 if corrupt == "md5" else good_md5),
        checksum=good_md5,
        os_hash_value=("0" * 128 if corrupt == "sha512" else None),
        os_hash_algo=("sha512" if corrupt == "sha512" else None),
    )
    target = out_dir / "saved.img"
    code, out, err = cli("image", "save", "--file", str(target), NEW_ID)
    assert code == 1
    assert "The %s of the data downloaded for image %s is" % (corrupt, NEW_ID) in err
    assert "the data is corrupt" in err
    assert os.listdir(out_dir) == []  # neither the file nor its partial copy


def test_save_checks_the_multihash_alone_as_openstacksdk(cli, glance, out_dir, monkeypatch):
    hashed = []
    digests = image_data.Digests

    def recording(names):
        hashed.append(list(names))
        return digests(names)

    monkeypatch.setattr(image_data, "Digests", recording)
    # a wrong Content-MD5 beside the right multihash: saved, one pass
    _served(
        glance,
        DATA,
        md5="0" * 32,
        checksum="0" * 32,
        os_hash_value=hashlib.sha512(DATA).hexdigest(),
    )
    target = out_dir / "saved.img"
    code, out, err = cli("image", "save", "--file", str(target), NEW_ID)
    assert code == 0, err
    assert target.read_bytes() == DATA
    assert hashed == [["sha512"]]


def test_save_of_an_image_without_data_fails(cli, glance, out_dir):
    glance.get(URL, json=dict(copy.deepcopy(CREATED)))
    glance.get(URL + "/file", status_code=204)
    code, out, err = cli("image", "save", "--file", str(out_dir / "x"), NEW_ID)
    assert code == 1
    assert "Image %s has no data." % NEW_ID in err
    assert os.listdir(out_dir) == []


def test_set_sends_one_json_patch(cli, glance):
    glance.get(URL, json=dict(copy.deepcopy(SHOWN), id=NEW_ID, tags=["fedora"]))
    glance.patch(URL, json=dict(copy.deepcopy(SHOWN), id=NEW_ID))
    code, out, err = cli(
        "image",
        "set",
        "--name",
        "Fedora 17",
        "--tag",
        "beefy",
        "--property",
        "os/distro=fedora",
        "--public",
        NEW_ID,
    )
    assert code == 0, err
    (patch,) = requests_to(glance, "PATCH", "/v2/images/")
    assert patch.headers["Content-Type"] == "application/openstack-images-v2.1-json-patch"
    sample = load_fixture("image", "image-update-request.json")
    assert patch.json() == [
        sample[0],
        {"op": "replace", "path": "/visibility", "value": "public"},
        sample[1],  # the tags the image had and the new one
        {"op": "add", "path": "/os~1distro", "value": "fedora"},
    ]


def test_set_with_nothing_to_set_is_a_usage_error(cli, glance):
    code, out, err = cli("image", "set", NEW_ID)
    assert code == 2
    assert "Nothing to change." in err
    assert [r for r in glance.request_history if "/v2/images" in r.url] == []


def test_unset_removes_what_is_there_and_counts_the_rest(cli, glance):
    image = dict(copy.deepcopy(SHOWN), id=NEW_ID, tags=["t", "kept"], os_distro="cirros")
    glance.get(URL, json=image)
    glance.patch(URL, json=dict(copy.deepcopy(SHOWN), id=NEW_ID))
    code, out, err = cli(
        "image",
        "unset",
        "--property",
        "os_distro",
        "--property",
        "nope",
        "--tag",
        "t",
        "--tag",
        "gone",
        NEW_ID,
    )
    assert code == 1
    (patch,) = requests_to(glance, "PATCH", "/v2/images/")
    assert patch.json() == [
        {"op": "replace", "path": "/tags", "value": ["kept"]},
        {"op": "remove", "path": "/os_distro"},
    ]
    assert "tag unset failed, 'gone' is a nonexistent tag" in err
    assert "property unset failed, 'nope' is a nonexistent property" in err
    assert "Failed to unset 1 of 2 tags. Failed to unset 1 of 2 properties." in err


def test_unset_of_an_attribute_is_refused_before_any_request(cli, glance):
    code, out, err = cli("image", "unset", "--property", "min_disk", NEW_ID)
    assert code == 2
    assert "--property: Property min_disk may not be removed." in err
    assert [r for r in glance.request_history if "/v2/images" in r.url] == []


def test_delete_goes_on_after_a_failure_and_counts_it(cli, glance):
    other = "7541b8be-c62b-46c3-b5a5-5bb5ce43ce01"
    glance.get(IMAGE + "/v2/images/" + other, json=dict(copy.deepcopy(SHOWN), id=other))
    glance.delete(URL, status_code=403, json={"message": "Image is protected"})
    glance.delete(IMAGE + "/v2/images/" + other, status_code=204)
    code, out, err = cli("image", "delete", NEW_ID, other)
    assert code == 1
    assert len(requests_to(glance, "DELETE", "/v2/images/")) == 2
    assert "Failed to delete image with name or ID '%s':" % NEW_ID in err
    assert "Failed to delete 1 of 2 images." in err


def test_delete_of_images_that_exist_succeeds(cli, glance):
    glance.delete(URL, status_code=204)
    code, out, err = cli("image", "delete", NEW_ID)
    assert code == 0, err
    assert len(requests_to(glance, "DELETE", URL)) == 1


def test_manager_checks(client):
    with pytest.raises(exceptions.ValidationError, match="visibility must be one of"):
        client.images.create("x", visibility="everyone")
    with pytest.raises(exceptions.ValidationError, match="min_ram must be an integer"):
        client.images.check_update(min_ram=-1)
    with pytest.raises(exceptions.ValidationError, match="tags must be non-empty"):
        client.images.check_update(tags=[""])
    assert client.images.check_update(remove=["a~b"]) == [{"op": "remove", "path": "/a~0b"}]


def test_save_without_file_writes_standard_output(cli, glance):
    data = b"image bytes\n" * 1000
    _served(glance, data, md5=hashlib.md5(data).hexdigest(), os_hash_algo=None)
    code, out, err = cli("image", "save", NEW_ID)
    assert code == 0, err
    assert out == data.decode()


class _CutShort:
    """A body that ends with a broken connection after its first read."""

    closed = False

    def __init__(self):
        self.reads = 0

    def read(self, *args, **kwargs):
        import http.client

        self.reads += 1
        if self.reads > 1:
            raise http.client.IncompleteRead(b"", 10)
        return b"x" * 10

    def close(self):
        pass


def test_save_of_a_download_cut_short_fails_and_leaves_no_file(cli, glance, out_dir):
    glance.get(URL, json=dict(copy.deepcopy(SHOWN), id=NEW_ID))
    glance.get(URL + "/file", body=_CutShort(), headers={"Content-Length": "100"})
    code, out, err = cli("image", "save", "--file", str(out_dir / "x"), NEW_ID)
    assert code == 1
    assert "The download of image %s ended early" % NEW_ID in err
    assert os.listdir(out_dir) == []


class _Terminal:
    def __init__(self, tty):
        self.tty = tty
        self.text = ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_is_drawn_on_a_terminal_only(client, glance):
    import argparse
    import io

    from occli.v2.image.commands import images as image_commands

    script = argparse.Namespace(_stderr=_Terminal(False))
    assert image_commands._progress(script, "Uploading x", len(DATA)) is None
    terminal = argparse.Namespace(_stderr=_Terminal(True))
    progress = image_commands._progress(terminal, "Uploading x", len(DATA))
    client.images.upload(NEW_ID, io.BytesIO(DATA), size=len(DATA), progress=progress)
    drawn = terminal._stderr.text.split("\r")[1:]
    assert len(drawn) == 4
    assert drawn[0].startswith("Uploading x: 33% (1.0 MiB of 3.0 MiB)")
    assert drawn[-1].startswith("Uploading x: 100% ")


def test_a_failed_upload_deletes_the_new_image(cli, glance, tmp_path):
    path = tmp_path / "disk.img"
    path.write_bytes(DATA)
    glance.put(
        URL + "/file",
        status_code=413,
        json={"title": "Request Entity Too Large", "message": "Image exceeds the storage quota"},
    )
    glance.delete(URL, status_code=204)
    code, out, err = cli("image", "create", "--file", str(path), "Ubuntu")
    assert code == 1
    assert "(HTTP 413)" in err
    assert len(requests_to(glance, "DELETE", URL)) == 1


def test_unset_of_only_missing_tags_sends_no_patch(cli, glance):
    glance.get(URL, json=dict(copy.deepcopy(SHOWN), id=NEW_ID, tags=["t"]))
    code, out, err = cli("image", "unset", "--tag", "gone", NEW_ID)
    assert code == 1
    assert "Failed to unset 1 of 1 tags." in err
    assert requests_to(glance, "PATCH", "/v2/images/") == []
