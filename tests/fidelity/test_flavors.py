"""Flavors: list, detail, show, create/delete errors, member refusals."""

import pytest

from tests.fidelity.test_versions import VERSIONS


def _ours(ids, item):
    return item.get("name") == ids["flavor_name"]


@pytest.mark.parametrize("version", VERSIONS)
def test_list(pair, flavor, version):
    pair.check("GET", "/flavors", version=version, keep=_ours)


@pytest.mark.parametrize("version", VERSIONS)
def test_detail(pair, flavor, version):
    pair.check("GET", "/flavors/detail", version=version, keep=_ours, values=("flavors.0.ram",))


@pytest.mark.parametrize("version", VERSIONS)
def test_show(pair, flavor, version):
    pair.check(
        "GET",
        "/flavors/{flavor}",
        version=version,
        values=("flavor.name", "flavor.ram", "flavor.vcpus", "flavor.disk", "flavor.swap"),
    )


@pytest.mark.parametrize("version", ("2.1", "2.55", "2.61", "2.75"))
def test_show_as_member(pair, flavor, version):
    pair.check("GET", "/flavors/{flavor}", version=version, user="member")


def test_show_missing(pair):
    pair.check("GET", "/flavors/no-such-flavor", version="2.47")


def test_create_duplicate_name(pair, flavor):
    body = {"flavor": {"name": flavor, "ram": 64, "vcpus": 1, "disk": 1}}
    pair.check("POST", "/flavors", body, version="2.1")


def test_create_duplicate_id(pair, flavor):
    pair.check(
        "POST",
        "/flavors",
        lambda ids: {
            "flavor": {"name": "fid-other", "ram": 64, "vcpus": 1, "disk": 1, "id": ids["flavor"]}
        },  # fmt: skip
        version="2.1",
    )


@pytest.mark.parametrize(
    "body",
    (
        {},
        {"flavor": {}},
        {"flavor": {"name": "fid-x", "ram": 0, "vcpus": 1, "disk": 1}},
        {"flavor": {"name": "fid-x", "ram": 64, "vcpus": "one", "disk": 1}},
        {"flavor": {"name": "fid-x", "ram": 64, "vcpus": 1, "disk": -1}},
        {"flavor": {"name": "", "ram": 64, "vcpus": 1, "disk": 1}},
        {"flavor": {"name": "fid-x", "ram": 64, "vcpus": 1, "disk": 1, "bogus": 1}},
        {"flavor": {"name": "fid-x", "ram": 64, "vcpus": 1, "disk": 1, "rxtx_factor": 0}},
        {"flavor": {"name": "fid-x", "ram": 64, "vcpus": 1, "disk": 1, "swap": "x"}},
    ),
    ids=(
        "empty",
        "no-keys",
        "ram0",
        "vcpus-str",
        "disk-neg",
        "name-empty",
        "extra",
        "rxtx0",
        "swap-str",
    ),  # fmt: skip
)
@pytest.mark.parametrize("version", ("2.1", "2.55"))
def test_create_bad_body(pair, body, version):
    pair.check("POST", "/flavors", body, version=version)


def test_create_as_member(pair):
    body = {"flavor": {"name": "fid-member", "ram": 64, "vcpus": 1, "disk": 1}}
    pair.check("POST", "/flavors", body, version="2.1", user="member")


def test_delete_as_member(pair, flavor):
    pair.check("DELETE", "/flavors/{flavor}", version="2.1", user="member")


def test_delete_missing(pair):
    pair.check("DELETE", "/flavors/no-such-flavor", version="2.1")


def test_update_description_before_2_55(pair, flavor):
    body = {"flavor": {"description": "x"}}
    pair.check("PUT", "/flavors/{flavor}", body, version="2.54")


def test_create_delete(pair):
    """A flavor made and deleted again: the create answer and the delete."""
    body = {"flavor": {"name": "fid-tmp", "ram": 64, "vcpus": 1, "disk": 1, "id": "fid-tmp"}}
    real, local = pair.check("POST", "/flavors", body, version="2.75", values=("flavor.id",))
    if real.status == 200:
        pair.real.created.append(("flavor", "fid-tmp"))
    pair.check("DELETE", "/flavors/fid-tmp", version="2.75")
    pair.check("GET", "/flavors/fid-tmp", version="2.75")
