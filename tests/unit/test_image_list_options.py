"""``image list``'s OSC options (openstackclient/image/v2/image.py
ListImage): the query each sends to Glance, what is done here (--property,
--sort) and the usage errors (exit 2, naming the option)."""

import json
from urllib.parse import parse_qs
from urllib.parse import urlsplit

import pytest

from .fakes import AUTH_URL
from .fakes import IMAGE
from .fakes import load_fixture
from .fakes import requests_to

SHOWN = load_fixture("image", "image-show-response.json")
IMAGES = IMAGE + "/v2/images"
PROJECT = "5ef70662f8b34079a6eddb8da9d75fe8"


def _image(name, image_id, **fields):
    return dict(SHOWN, name=name, id=image_id, **fields)


# Glance's order (newest first), not the names'
LISTED = [
    _image("cirros", "c1", size=30, os_distro="cirros", tags=["test", "small"]),
    _image("alpine", "a1", size=200, os_distro="alpine"),
    _image("Ubuntu", "u1", size=100, os_distro="ubuntu", hw_disk_bus=""),
]


@pytest.fixture
def glance(mock_cloud):
    m = mock_cloud.mock
    m.get(IMAGES, json={"images": LISTED, "schema": "/v2/schemas/images"})
    return m


def _queries(glance):
    """The query of every ``GET /v2/images`` list, parsed."""
    return [
        parse_qs(urlsplit(r.url).query, keep_blank_values=True)
        for r in requests_to(glance, "GET", "/v2/images")
        if urlsplit(r.url).path.endswith("/v2/images")
    ]


def _names(out):
    return [row["Name"] for row in json.loads(out)]


@pytest.mark.parametrize(
    ("flag", "visibility"),
    [
        ("--public", "public"),
        ("--private", "private"),
        ("--community", "community"),
        ("--shared", "shared"),
        ("--all", "all"),
    ],
)
def test_visibility_flags_send_glance_visibility(cli, glance, flag, visibility):
    code, out, err = cli("image", "list", flag, "-f", "json")
    assert code == 0, err
    assert _queries(glance) == [{"visibility": [visibility]}]


def test_shared_with_member_status_and_the_other_filters(cli, glance):
    code, out, err = cli(
        "image",
        "list",
        "--shared",
        "--member-status",
        "Pending",
        "--name",
        "cirros",
        "--status",
        "active",
        "--tag",
        "test",
        "--tag",
        "small",
        "--hidden",
        "-f",
        "json",
    )
    assert code == 0, err
    assert _queries(glance) == [
        {
            "visibility": ["shared"],
            "member_status": ["pending"],
            "name": ["cirros"],
            "status": ["active"],
            "tag": ["test", "small"],
            "os_hidden": ["true"],
        }
    ]


def test_no_option_sends_no_filter_and_sorts_by_name(cli, glance):
    code, out, err = cli("image", "list", "-f", "json")
    assert code == 0, err
    assert _queries(glance) == [{}]
    # OSC's default --sort name:asc, compared as text
    assert _names(out) == ["Ubuntu", "alpine", "cirros"]
    assert list(json.loads(out)[0]) == ["ID", "Name", "Status"]


def test_sort_keys_and_directions_are_applied_here(cli, glance):
    code, out, err = cli("image", "list", "--sort", "size:desc", "-f", "json")
    assert code == 0, err
    # sizes compared as text, as OSC does: "30" > "200" > "100"
    assert _names(out) == ["cirros", "alpine", "Ubuntu"]
    assert _queries(glance) == [{}]
    code, out, err = cli("image", "list", "--sort", "status,name:desc", "-f", "json")
    assert code == 0, err
    assert _names(out) == ["cirros", "alpine", "Ubuntu"]


def test_property_is_compared_here(cli, glance):
    code, out, err = cli("image", "list", "--property", "os_distro=alpine", "-f", "json")
    assert code == 0, err
    assert _names(out) == ["alpine"]
    assert _queries(glance) == [{}]
    # an empty property never matches (OSC's simple_filter)
    code, out, err = cli("image", "list", "--property", "hw_disk_bus=", "-f", "json")
    assert code == 0, err
    assert _names(out) == []


def test_limit_counts_the_images_a_property_keeps(cli, mock_cloud):
    m = mock_cloud.mock
    page1 = [_image("one", "1", os_distro="x"), _image("two", "2")]
    page2 = [_image("three", "3", os_distro="x"), _image("four", "4", os_distro="x")]
    m.get(IMAGES, json={"images": page1, "next": "/v2/images?marker=2"})
    m.get(IMAGES + "?marker=2", json={"images": page2})
    code, out, err = cli(
        "image", "list", "--property", "os_distro=x", "--limit", "2", "-f", "json"
    )
    assert code == 0, err
    assert sorted(_names(out)) == ["one", "three"]
    # no limit sent: the pages are read until two images were kept
    assert [q.get("limit") for q in _queries(m)] == [None, None]


def test_limit_and_marker_by_name(cli, glance):
    glance.get(IMAGES + "/cirros", status_code=404, json={})
    glance.get(IMAGES + "?name=cirros", json={"images": [LISTED[0]]})
    code, out, err = cli("image", "list", "--marker", "cirros", "--limit", "2", "-f", "json")
    assert code == 0, err
    assert _queries(glance)[-1] == {"marker": ["c1"], "limit": ["2"]}


def test_project_resolved_to_owner(cli, glance):
    glance.get(AUTH_URL + "/projects/demo", status_code=404, json={"error": {"code": 404}})
    glance.get(
        AUTH_URL + "/projects?name=demo",
        json={"projects": [{"id": PROJECT, "name": "demo", "domain_id": "default"}]},
    )
    code, out, err = cli("image", "list", "--project", "demo", "-f", "json")
    assert code == 0, err
    assert _queries(glance) == [{"owner": [PROJECT]}]


def test_long_has_osc_columns(cli, glance):
    code, out, err = cli("image", "list", "--long", "-f", "json")
    assert code == 0, err
    row = json.loads(out)[-1]
    assert list(row) == [
        "ID",
        "Name",
        "Disk Format",
        "Container Format",
        "Size",
        "Checksum",
        "Status",
        "Visibility",
        "Protected",
        "Project",
        "Hash Algorithm",
        "Hash Value",
        "Tags",
    ]
    assert row["Project"] == SHOWN["owner"]
    assert row["Hash Value"] == SHOWN["os_hash_value"]
    assert row["Tags"] == ["test", "small"]
    assert row["Protected"] is False


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--public", "--private"], "--private"),
        (["--shared", "--all"], "--all"),
        (["--member-status", "maybe"], "--member-status"),
        (["--sort", "name:up"], "--sort"),
        (["--sort", ":asc"], "--sort"),
        (["--property", "novalue"], "--property"),
        (["--limit", "-2"], "--limit"),
    ],
)
def test_usage_errors_exit_2_naming_the_option(cli, glance, argv, named):
    code, out, err = cli("image", "list", *argv)
    assert code == 2
    assert named in err
    assert _queries(glance) == []


def test_sort_direction_error_has_osc_text(cli, glance):
    code, out, err = cli("image", "list", "--sort", "name:up")
    assert code == 2
    assert "'up' is not a valid sort direction for sort key name, use 'asc' or 'desc'" in err


def test_empty_tag_is_refused_before_any_request(cli, glance):
    code, out, err = cli("image", "list", "--tag", "")
    assert code == 2
    assert "--tag" in err
    assert _queries(glance) == []


def test_manager_refuses_what_glance_would(client, glance):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="visibility"):
        client.images.list(visibility="everyone")
    with pytest.raises(exceptions.ValidationError, match="member_status"):
        client.images.list(member_status="maybe")
    assert _queries(glance) == []
    found = client.images.list(tags=["test"], owner=PROJECT, properties={"os_distro": "cirros"})
    assert [i.id for i in found] == ["c1"]
    assert _queries(glance) == [{"tag": ["test"], "owner": [PROJECT]}]
