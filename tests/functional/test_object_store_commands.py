"""``occli container …``, ``object …`` and ``object store account …``
against the local Swift: OSC's columns, bytes round-tripped with their
ETag, names with unicode and slashes, listings paged with markers,
properties, recursive delete, and ``container save`` refusing names that
would be written outside the current directory."""

import hashlib
import os
import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


@pytest.fixture
def container(occli):
    """A new container, deleted with what is left in it after the test."""
    name = "c-" + uuid.uuid4().hex[:8]
    (created,) = as_json(occli("container", "create", name, "-f", "json"))
    assert created["container"] == name
    assert created["account"].startswith("AUTH_") and created["x-trans-id"]
    yield name
    occli("container", "delete", "--recursive", name)


def _upload(occli, container, path, *extra):
    (row,) = as_json(occli("object", "create", *extra, container, str(path), "-f", "json"))
    return row


def test_create_then_save_round_trips_the_bytes_with_their_etag(occli, container, tmp_path):
    data = os.urandom(200 * 1024 + 9)  # several chunks and a partial one
    source = tmp_path / "blob.bin"
    source.write_bytes(data)
    name = "dir/näme with space.bin"
    row = _upload(occli, container, source, "--name", name)
    assert row == {"object": name, "container": container, "etag": hashlib.md5(data).hexdigest()}
    shown = as_json(occli("object", "show", container, name, "-f", "json"))
    assert shown["etag"] == row["etag"]
    assert shown["content-length"] == str(len(data))
    assert shown["object"] == name and shown["container"] == container
    target = tmp_path / "out" / "copy.bin"
    ok(occli("object", "save", "--file", str(target), container, name))
    assert target.read_bytes() == data
    listed = as_json(occli("object", "list", "--long", container, "-f", "json"))
    assert listed == [
        {
            "Name": name,
            "Bytes": len(data),
            "Hash": row["etag"],
            "Content Type": "application/octet-stream",
            "Last Modified": listed[0]["Last Modified"],
        }
    ]


def test_an_object_larger_than_the_answer_limit_is_shown_and_saved(occli, container, tmp_path):
    """The HEAD of ``object show`` declares the object's length, which no
    answer limit is about; the bytes themselves stream (``object save``)."""
    data = os.urandom((2 << 20) + 1)
    source = tmp_path / "big.bin"
    source.write_bytes(data)
    _upload(occli, container, source, "--name", "big.bin")
    shown = as_json(
        occli("--max-response-size", "1M", "object", "show", container, "big.bin", "-f", "json")
    )
    assert shown["content-length"] == str(len(data))
    target = tmp_path / "copy.bin"
    limit = ("--max-response-size", "1M")
    ok(occli(*limit, "object", "save", "--file", str(target), container, "big.bin"))
    assert target.read_bytes() == data


def test_save_to_stdout_writes_the_bytes(occli, container, tmp_path):
    source = tmp_path / "notes.txt"
    source.write_bytes("line one\nligne deux é\n".encode())
    _upload(occli, container, source, "--name", "notes.txt")
    assert ok(occli("object", "save", "--file", "-", container, "notes.txt")) == (
        "line one\nligne deux é\n"
    )


def test_swift_guesses_the_content_type_from_the_name(occli, container, tmp_path):
    source = tmp_path / "cat.jpg"
    source.write_bytes(b"\xff\xd8\xff")
    _upload(occli, container, source, "--name", "cat.jpg")
    shown = as_json(occli("object", "show", container, "cat.jpg", "-f", "json"))
    assert shown["content-type"] == "image/jpeg"


def test_listings_page_with_markers_and_roll_up_at_a_delimiter(occli, container, tmp_path):
    source = tmp_path / "f"
    source.write_bytes(b"x")
    names = ["a/1", "a/2", "b", "c/é"]
    for name in names:
        _upload(occli, container, source, "--name", name)

    def listed(*argv):
        return [
            r["Name"] for r in as_json(occli("object", "list", container, *argv, "-f", "json"))
        ]

    assert listed() == names
    assert listed("--limit", "1") == ["a/1"]
    assert listed("--limit", "1", "--all") == names  # one page a request, all of them
    assert listed("--marker", "a/2", "--end-marker", "c") == ["b"]
    assert listed("--prefix", "a/") == ["a/1", "a/2"]
    assert listed("--delimiter", "/") == ["a/", "b", "c/"]
    assert listed("--delimiter", "/", "--limit", "1", "--all") == ["a/", "b", "c/"]
    containers = as_json(occli("container", "list", "--prefix", container, "--long", "-f", "json"))
    assert containers == [{"Name": container, "Bytes": 4, "Count": 4}]


def test_properties_set_show_and_unset(occli, container, tmp_path):
    ok(occli("container", "set", "--property", "Color=blue", "--property", "size=L", container))
    shown = as_json(occli("container", "show", container, "-f", "json"))
    assert {k.lower(): v for k, v in shown["properties"].items()} == {"color": "blue", "size": "L"}
    assert shown["object_count"] == "0" and shown["container"] == container
    ok(occli("container", "unset", "--property", "Color", container))
    shown = as_json(occli("container", "show", container, "-f", "json"))
    assert {k.lower() for k in shown["properties"]} == {"size"}

    source = tmp_path / "o"
    source.write_bytes(b"o")
    _upload(occli, container, source, "--name", "o")
    ok(occli("object", "set", "--property", "owner=alice", container, "o"))
    assert as_json(occli("object", "show", container, "o", "-f", "json"))["properties"] == {
        "Owner": "alice"
    }
    ok(occli("object", "unset", "--property", "owner", container, "o"))
    assert "properties" not in as_json(occli("object", "show", container, "o", "-f", "json"))


def test_account_show_counts_and_properties(occli, container):
    key = "T" + uuid.uuid4().hex[:6]
    ok(occli("object", "store", "account", "set", "--property", "%s=v" % key))
    try:
        shown = as_json(occli("object", "store", "account", "show", "-f", "json"))
        assert shown["Account"].startswith("AUTH_")
        assert int(shown["Containers"]) >= 1
        assert {k.lower(): v for k, v in shown["properties"].items()}[key.lower()] == "v"
    finally:
        ok(occli("object", "store", "account", "unset", "--property", key))
    shown = as_json(occli("object", "store", "account", "show", "-f", "json"))
    assert key.lower() not in {k.lower() for k in shown.get("properties", {})}


def test_delete_a_full_container_needs_recursive(occli, tmp_path):
    name = "c-" + uuid.uuid4().hex[:8]
    ok(occli("container", "create", name))
    source = tmp_path / "f"
    source.write_bytes(b"f")
    _upload(occli, name, source, "--name", "f")
    code, out, err = occli("container", "delete", name)
    assert code == 1
    assert "Failed to delete container '%s':" % name in err and "(HTTP 409)" in err
    assert "Failed to delete 1 of 1 containers." in err
    ok(occli("container", "delete", "--recursive", name))
    code, out, err = occli("container", "show", name)
    assert code == 1 and "(HTTP 404)" in err
    assert len(err.strip().splitlines()) == 1


def test_container_save_refuses_names_escaping_the_directory(
    occli, container, tmp_path, monkeypatch
):
    source = tmp_path / "f"
    source.write_bytes(b"safe")
    for name in ("top.txt", "sub/dir/deep.txt", "/abs.txt"):
        _upload(occli, container, source, "--name", name)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    code, out, err = occli("container", "save", container)
    assert code == 1
    assert (work / "top.txt").read_bytes() == b"safe"
    assert (work / "sub" / "dir" / "deep.txt").read_bytes() == b"safe"
    assert "Failed to save object '/abs.txt': Refusing to save object" in err
    assert "Failed to save 1 of 3 objects." in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "occli-cache", "work"]
    assert sorted(p.name for p in work.iterdir()) == ["sub", "top.txt"]


def test_dot_segments_never_reach_another_resource(occli, container, tmp_path):
    """requests removes ``..`` from a URL: ``<c>/../x`` would be container x."""
    source = tmp_path / "f"
    source.write_bytes(b"f")
    code, out, err = occli("object", "create", "--name", "../escaped", container, str(source))
    assert code == 2 and "'.' or '..'" in err
    code, out, err = occli("container", "show", "escaped")
    assert code == 1 and "(HTTP 404)" in err


def test_usage_errors_exit_2_naming_the_option(occli, container, tmp_path):
    code, out, err = occli("container", "set", "--property", "novalue", container)
    assert code == 2 and "--property" in err
    code, out, err = occli("object", "set", container, "o")
    assert code == 2 and "--property" in err
    code, out, err = occli("object", "create", container, str(tmp_path / "missing"))
    assert code == 2 and "cannot read" in err
    code, out, err = occli("object", "create", "--name", "x", container, "a", "b")
    assert code == 2
    assert "Attempting to upload multiple objects and using --name is not permitted" in err
