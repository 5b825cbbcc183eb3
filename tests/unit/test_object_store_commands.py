"""The ``container``, ``object`` and ``object store account`` commands and
their ObjectStoreManager methods, on a mocked Swift: OSC's options and
columns, the URLs of names with unicode, spaces, slashes and dot segments,
listings paged with markers, the data streamed with its MD5 computed as
it goes and checked against the ETag answered, property checks, and one-line API errors."""

import hashlib
import json
import os

import pytest

from occli.v2.object_store.objects import CHUNK_SIZE

from .fakes import SWIFT
from .fakes import requests_to

DATA = os.urandom(2 * CHUNK_SIZE + 77)  # several chunks and a partial one
MD5 = hashlib.md5(DATA).hexdigest()


def _consume(body):
    """The bytes requests would send of a streamed body."""
    if hasattr(body, "read"):
        return b"".join(iter(lambda: body.read(65536), b""))
    return b"".join(body)


def _reads_body(request, context):
    """A PUT's answer once its body is read, as Swift reads it."""
    _consume(request.body)
    return b""


def _pages(mock, url, pages):
    """Answer the JSON listing at ``url`` page by page, after each marker."""

    def answer(request, context):
        marker = request.qs.get("marker", [None])[0]
        for after, page in pages:
            if after == marker:
                return page
        return []

    mock.get(url, json=answer)


def test_container_create_sends_the_public_acl_and_policy(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(SWIFT + "/photos", status_code=201, headers={"X-Trans-Id": "tx123"})
    m.put(SWIFT + "/docs", status_code=202, headers={"X-Trans-Id": "tx456"})
    code, out, err = cli(
        "container", "create", "--public", "--storage-policy", "gold", "photos", "docs",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == [
        {"account": SWIFT.rsplit("/", 1)[1], "container": "photos", "x-trans-id": "tx123"},
        {"account": SWIFT.rsplit("/", 1)[1], "container": "docs", "x-trans-id": "tx456"},
    ]
    for put in requests_to(m, "PUT", SWIFT):
        assert put.headers["X-Container-Read"] == ".r:*,.rlistings"
        assert put.headers["X-Storage-Policy"] == "gold"


def test_container_list_all_follows_markers_page_after_page(cli, mock_cloud):
    m = mock_cloud.mock
    _pages(
        m,
        SWIFT,
        [
            (
                None,
                [{"name": "a", "count": 1, "bytes": 5}, {"name": "é b", "count": 0, "bytes": 0}],
            ),
            ("é b", [{"name": "z", "count": 2, "bytes": 9}]),
        ],
    )
    code, out, err = cli("container", "list", "--all", "--limit", "2", "--long", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Name": "a", "Bytes": 5, "Count": 1},
        {"Name": "é b", "Bytes": 0, "Count": 0},
        {"Name": "z", "Bytes": 9, "Count": 2},
    ]
    gets = requests_to(m, "GET", SWIFT)
    # the second page is short: the last (no empty page asked for after it)
    assert [g.qs.get("marker") for g in gets] == [None, ["é b"]]
    assert all(g.qs["limit"] == ["2"] and g.qs["format"] == ["json"] for g in gets)


def test_container_list_without_all_reads_one_page(cli, mock_cloud):
    m = mock_cloud.mock
    _pages(m, SWIFT, [(None, [{"name": "a"}]), ("a", [{"name": "b"}])])
    code, out, err = cli(
        "container", "list", "--prefix", "a", "--marker", "0", "--end-marker", "b", "-f", "json"
    )
    assert code == 0, err
    (get,) = requests_to(m, "GET", SWIFT)
    assert (get.qs["prefix"], get.qs["marker"], get.qs["end_marker"]) == (["a"], ["0"], ["b"])
    assert "limit" not in get.qs


def test_object_list_rolls_up_subdirs_and_pages_after_them(cli, mock_cloud):
    m = mock_cloud.mock
    url = SWIFT + "/my%20c"
    _pages(m, url, [(None, [{"subdir": "a/"}]), ("a/", [{"name": "b", "bytes": 1}])])
    code, out, err = cli(
        "object", "list", "--delimiter", "/", "--limit", "1", "--all", "my c", "-f", "json"
    )
    assert code == 0, err
    assert json.loads(out) == [{"Name": "a/"}, {"Name": "b"}]
    assert [g.qs.get("delimiter") for g in requests_to(m, "GET", url)] == [["/"]] * 3


@pytest.mark.parametrize(
    "name, path",
    [
        ("dir/sub/ünï code.txt", "/c/dir/sub/%C3%BCn%C3%AF%20code.txt"),
        ("a//b/", "/c/a//b/"),
        ("100%?#", "/c/100%25%3F%23"),
    ],
)
def test_names_are_quoted_in_urls(client, mock_cloud, name, path):
    m = mock_cloud.mock
    m.head(SWIFT + path, status_code=200, headers={"Content-Type": "text/plain"})
    assert client.object_store.show_object("c", name)["object"] == name
    (head,) = requests_to(m, "HEAD", SWIFT)
    assert head.url == SWIFT + path


@pytest.mark.parametrize(
    "container, name", [("c", "a/../b"), ("c", "./x"), ("c", ".."), ("..", "x")]
)
def test_dot_segments_are_refused_before_any_request(client, mock_cloud, container, name):
    """requests would remove them from the URL: ``c/../x`` is container x."""
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="'.' or '..'"):
        client.object_store.delete_object(container, name)
    assert requests_to(mock_cloud.mock, "DELETE", SWIFT) == []


def test_object_create_streams_the_file_with_its_etag(cli, mock_cloud, tmp_path):
    m = mock_cloud.mock
    received: dict = {}

    def put(request, context):
        received["type"] = type(request.body)
        received["data"] = data = _consume(request.body)
        received["headers"] = dict(request.headers)
        context.status_code = 201
        context.headers["Etag"] = hashlib.md5(data).hexdigest()
        return b""

    m.put(SWIFT + "/c/d%C3%A9j%C3%A0/blob.bin", content=put)
    source = tmp_path / "blob.bin"
    source.write_bytes(DATA)
    code, out, err = cli(
        "object", "create", "--name", "déjà/blob.bin", "c", str(source), "-f", "json"
    )
    assert code == 0, err
    assert err == ""  # no progress when stderr is not a terminal
    assert json.loads(out) == [{"object": "déjà/blob.bin", "container": "c", "etag": MD5}]
    assert received["data"] == DATA
    assert received["type"] is not bytes  # streamed, not read into memory
    # the MD5 is computed as the bytes go (no second pass to send it first),
    # then checked against Swift's answer
    assert "ETag" not in received["headers"]
    assert received["headers"]["Content-Length"] == str(len(DATA))
    assert "Content-Type" not in received["headers"]  # Swift guesses it from the name


def test_object_create_names_the_object_after_the_path_less_its_dot_parts(
    cli, mock_cloud, tmp_path, monkeypatch
):
    mock_cloud.mock.put(
        SWIFT + "/c/sub/f.txt", status_code=201, headers={"Etag": MD5}, content=_reads_body
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f.txt").write_bytes(DATA)
    code, out, err = cli("object", "create", "c", "./sub/./f.txt", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"object": "sub/f.txt", "container": "c", "etag": MD5}]


def test_object_create_refuses_an_etag_that_is_not_the_md5(cli, mock_cloud, tmp_path):
    mock_cloud.mock.put(
        SWIFT + "/c/o", status_code=201, headers={"Etag": "0" * 32}, content=_reads_body
    )
    source = tmp_path / "o"
    source.write_bytes(DATA)
    code, out, err = cli("object", "create", "--name", "o", "c", str(source))
    assert code == 1
    assert (
        "Swift stored object o with the ETag %s, not the MD5 %s of the bytes sent from %s: "
        "the object stored is corrupt (it has not been removed)." % ("0" * 32, MD5, source)
    ) in err


def test_object_create_reports_progress_per_chunk(client, mock_cloud, tmp_path):
    def put(request, context):
        context.headers["Etag"] = hashlib.md5(_consume(request.body)).hexdigest()
        return b""

    mock_cloud.mock.put(SWIFT + "/c/o", status_code=201, content=put)
    source = tmp_path / "o"
    source.write_bytes(DATA)
    seen = []
    client.object_store.create_object("c", str(source), "o", progress=lambda *a: seen.append(a))
    assert seen[-1] == (len(DATA), len(DATA))
    assert len(seen) >= 3 and [s for s, _ in seen] == sorted(s for s, _ in seen)


@pytest.mark.parametrize(
    "argv, code, text",
    [
        (["--name", "x", "c", "a", "b"], 2, "using --name is not permitted"),
        (["c", "/no/such/file"], 2, "cannot read /no/such/file: No such file or directory"),
        (["c", "d"], 2, "<filename>: d is not a regular file."),
        (["c", "."], 2, "an object name is not empty and has no '.' or '..' part"),
        (["a/b", "f"], 2, "container: a container name is not empty, '.' or '..' and has no '/'"),
    ],
)
def test_object_create_checks_before_any_request(
    cli, mock_cloud, tmp_path, monkeypatch, argv, code, text
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_bytes(b"f")
    (tmp_path / "d").mkdir()
    got, out, err = cli("object", "create", *argv)
    assert got == code
    assert text in err
    assert requests_to(mock_cloud.mock, "PUT", SWIFT) == []


def test_object_save_checks_the_etag_and_leaves_no_file(cli, mock_cloud, tmp_path):
    m = mock_cloud.mock
    m.get(SWIFT + "/c/o", content=DATA, headers={"Etag": '"%s"' % MD5})
    target = tmp_path / "sub" / "o.bin"
    code, out, err = cli("object", "save", "--file", str(target), "c", "o")
    assert code == 0, err
    assert target.read_bytes() == DATA
    m.get(SWIFT + "/c/bad", content=DATA, headers={"Etag": "f" * 32})
    code, out, err = cli("object", "save", "--file", str(tmp_path / "bad"), "c", "bad")
    assert code == 1
    assert "The MD5 of the data downloaded for object bad is %s, not its ETag" % MD5 in err
    assert sorted(os.listdir(tmp_path)) == ["cache", "sub"]  # no partial file left


def test_object_save_skips_the_check_of_a_large_object(cli, mock_cloud, tmp_path):
    mock_cloud.mock.get(
        SWIFT + "/c/big", content=DATA, headers={"Etag": '"abc"', "X-Object-Manifest": "c/seg/"}
    )
    code, out, err = cli("object", "save", "--file", str(tmp_path / "big"), "c", "big")
    assert code == 0, err
    assert (tmp_path / "big").read_bytes() == DATA


def test_object_save_without_file_refuses_a_name_outside_the_directory(
    cli, mock_cloud, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("object", "save", "c", "../up")
    assert code == 1
    assert "Refusing to save object '../up'" in err
    assert requests_to(mock_cloud.mock, "GET", SWIFT) == []


def test_container_save_writes_each_object_and_refuses_escaping_names(
    cli, mock_cloud, tmp_path, monkeypatch
):
    m = mock_cloud.mock
    names = ["top", "sub/deep", "../out", "/abs", "a/../../up"]
    _pages(m, SWIFT + "/c", [(None, [{"name": n} for n in names])])
    m.get(SWIFT + "/c/top", content=b"top", headers={"Etag": hashlib.md5(b"top").hexdigest()})
    m.get(SWIFT + "/c/sub/deep", content=b"deep")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    code, out, err = cli("container", "save", "c")
    assert code == 1
    assert (work / "top").read_bytes() == b"top"
    assert (work / "sub" / "deep").read_bytes() == b"deep"
    for name in ("../out", "/abs", "a/../../up"):
        assert "Failed to save object '%s': Refusing to save object" % name in err
    assert "Failed to save 3 of 5 objects." in err
    assert sorted(os.listdir(tmp_path)) == ["cache", "work"]
    assert len(requests_to(m, "GET", SWIFT + "/c/")) == 2  # the refused ones are not read


def test_local_path_refuses_a_symbolic_link_leading_out(tmp_path):
    from occli import exceptions
    from occli.v2.object_store import objects

    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(tmp_path)
    assert objects.local_path(str(root), "a/b.txt") == str(root / "a" / "b.txt")
    for name in ("link/x", "../x", "/x", "a/../../x", "dir/", "a\0b"):
        with pytest.raises(exceptions.CommandError, match="Refusing to save object"):
            objects.local_path(str(root), name)


def test_show_commands_give_oscs_fields(cli, mock_cloud):
    m = mock_cloud.mock
    m.head(
        SWIFT + "/c",
        status_code=204,
        headers={
            "X-Container-Object-Count": "2",
            "X-Container-Bytes-Used": "10",
            "X-Storage-Policy": "Policy-0",
            "X-Container-Read": ".r:*",
            "X-Container-Meta-Color": "blue",
        },
    )
    code, out, err = cli("container", "show", "c", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == {
        "account": SWIFT.rsplit("/", 1)[1],
        "container": "c",
        "object_count": "2",
        "bytes_used": "10",
        "storage_policy": "Policy-0",
        "read_acl": ".r:*",
        "properties": {"Color": "blue"},
    }
    m.head(
        SWIFT,
        status_code=204,
        headers={
            "X-Account-Container-Count": "1",
            "X-Account-Object-Count": "2",
            "X-Account-Bytes-Used": "10",
            "X-Account-Meta-Team": "web",
        },
    )
    code, out, err = cli("object", "store", "account", "show", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == {
        "Account": SWIFT.rsplit("/", 1)[1],
        "Bytes": "10",
        "Containers": "1",
        "Objects": "2",
        "properties": {"Team": "web"},
    }


@pytest.mark.parametrize(
    "argv, url, sent",
    [
        (["container", "set", "--property", "a=1", "--property", "b=", "c"], "/c",
         {"X-Container-Meta-a": "1", "X-Container-Meta-b": ""}),
        (["container", "unset", "--property", "a", "c"], "/c", {"X-Remove-Container-Meta-a": "x"}),
        (["object", "set", "--property", "k=v", "c", "o/p"], "/c/o/p", {"X-Object-Meta-k": "v"}),
        (["object", "unset", "--property", "k", "c", "o"], "/c/o",
         {"X-Remove-Object-Meta-k": "x"}),
        (["object", "store", "account", "set", "--property", "t=w"], "",
         {"X-Account-Meta-t": "w"}),
        (["object", "store", "account", "unset", "--property", "t"], "",
         {"X-Remove-Account-Meta-t": "x"}),
    ],
)  # fmt: skip
def test_properties_are_one_post_of_meta_headers(cli, mock_cloud, argv, url, sent):
    m = mock_cloud.mock
    m.post(SWIFT + url, status_code=204)
    code, out, err = cli(*argv)
    assert code == 0, err
    (post,) = requests_to(m, "POST", SWIFT)
    assert post.url == SWIFT + url
    assert {k: v for k, v in post.headers.items() if "-Meta-" in k} == sent


@pytest.mark.parametrize(
    "argv, text",
    [
        (["container", "set", "c"], "the following arguments are required: --property"),
        (["container", "set", "--property", "novalue", "c"], "--property expects KEY=VALUE"),
        (["object", "set", "--property", "k=é", "c", "o"],
         "--property: Cannot set property k to non-ascii value"),
        (["object", "store", "account", "set", "--property", "a b=1"],
         "--property: 'a b' is not a valid property key"),
        (["container", "unset", "--property", "a:b", "c"],
         "--property: 'a:b' is not a valid property key"),
        (["container", "list", "--limit", "-1"], "argument --limit"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2_naming_the_option(cli, mock_cloud, argv, text):
    code, out, err = cli(*argv)
    assert code == 2
    assert text in err
    assert len(err.strip().splitlines()) == 1 or "usage:" in err
    assert requests_to(mock_cloud.mock, "POST", SWIFT) == []


def test_container_delete_recursive_deletes_each_object_first(cli, mock_cloud):
    m = mock_cloud.mock
    url = SWIFT + "/c"
    _pages(m, url, [(None, [{"name": "a/x"}, {"name": "b"}])])
    m.delete(url + "/a/x", status_code=204)
    m.delete(url + "/b", status_code=204)
    m.delete(url, status_code=204)
    code, out, err = cli("container", "delete", "-r", "c")
    assert code == 0, err
    deletes = [r.url for r in m.request_history if r.method == "DELETE"]
    assert deletes == [url + "/a/x", url + "/b", url]


def test_api_errors_are_one_line_with_status_and_request_id(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(
        SWIFT + "/full",
        status_code=409,
        text="<html><h1>Conflict</h1><p>There was a conflict when trying to complete "
        "your request.</p></html>",
        headers={"X-Openstack-Request-Id": "tx-conflict"},
    )
    m.delete(SWIFT + "/empty", status_code=204)
    code, out, err = cli("container", "delete", "full", "empty")
    assert code == 1
    lines = err.strip().splitlines()
    assert lines == [
        "Failed to delete container 'full': Conflict There was a conflict when trying to "
        "complete your request. (HTTP 409) (Request-ID: tx-conflict)",
        "Failed to delete 1 of 2 containers.",
    ]
    m.head(SWIFT + "/gone/o", status_code=404, headers={"X-Openstack-Request-Id": "tx-404"})
    code, out, err = cli("object", "show", "gone", "o")
    assert code == 1
    assert err.strip().endswith("(HTTP 404) (Request-ID: tx-404)")
    assert len(err.strip().splitlines()) == 1


def test_listing_a_missing_container_is_one_line(cli, mock_cloud):
    mock_cloud.mock.get(
        SWIFT + "/gone",
        status_code=404,
        text="<html><h1>Not Found</h1><p>The resource could not be found.</p></html>",
        headers={"X-Openstack-Request-Id": "tx-gone"},
    )
    code, out, err = cli("object", "list", "gone")
    assert code == 1
    assert err == ("Not Found The resource could not be found. (HTTP 404) (Request-ID: tx-gone)\n")


class _Terminal:
    """A stderr that says it is a terminal."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_is_drawn_on_a_terminal_only(mock_cloud, cli, tmp_path):
    import io

    from occli import shell

    def put(request, context):
        context.headers["Etag"] = hashlib.md5(_consume(request.body)).hexdigest()
        return b""

    mock_cloud.mock.put(SWIFT + "/c/o", status_code=201, content=put)
    mock_cloud.mock.get(
        SWIFT + "/c/o", content=DATA, headers={"Etag": MD5, "Content-Length": str(len(DATA))}
    )
    source = tmp_path / "o"
    source.write_bytes(DATA)
    for argv, label in (
        (["object", "create", "--name", "o", "c", str(source)], "Uploading o"),
        (["object", "save", "--file", str(tmp_path / "copy"), "c", "o"], "Downloading o"),
    ):
        app = shell.OcCLI()
        app.stdout, app.stderr = io.StringIO(), _Terminal()
        assert app.run(argv) == 0
        drawn = app.stderr.text.split("\r")[1:]
        assert len(drawn) >= 3, app.stderr.text
        assert drawn[-1].startswith("%s: 100%% (2.0 MiB of 2.0 MiB)" % label)
        assert app.stderr.text.endswith("\n")
    assert (tmp_path / "copy").read_bytes() == DATA
