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
    ident = "fid-tmp-" + pair.real.ids["member_project"][:6]  # unique per session
    body = {"flavor": {"name": ident, "ram": 64, "vcpus": 1, "disk": 1, "id": ident}}
    real, local = pair.check("POST", "/flavors", body, version="2.75", values=("flavor.id",))
    if real.status == 200:
        pair.real.created.append(("flavor", ident))
    pair.check("DELETE", "/flavors/" + ident, version="2.75")
    pair.check("GET", "/flavors/" + ident, version="2.75")


@pytest.mark.parametrize(
    "query",
    (
        "limit=x",
        "limit=-1",
        "marker=fid-no-such-flavor",
        "minRam=x",
        "minDisk=-1",
        "is_public=maybe",
        "sort_key=bogus",
        "sort_dir=sideways",
        "is_public=none&minRam=64&minDisk=1",
    ),
)
@pytest.mark.parametrize("version", ("2.1", "2.75"))
def test_list_queries(pair, flavor, query, version):
    pair.check("GET", "/flavors/detail?" + query, version=version, keep=_ours)


def test_list_as_member(pair, flavor):
    pair.check("GET", "/flavors/detail", version="2.75", user="member", keep=_ours)


def test_extra_specs(pair, flavor):
    path = "/flavors/{flavor}/os-extra_specs"
    pair.check("POST", path, {"extra_specs": {"hw:cpu_policy": "shared", "fid:k": "v"}},
               version="2.86", values=("extra_specs",))  # fmt: skip
    pair.check("GET", path, version="2.86", values=("extra_specs",))
    pair.check("GET", path + "/fid:k", version="2.86", values=("fid:k",))
    pair.check("GET", path + "/fid:k", version="2.86", user="member")
    pair.check("PUT", path + "/fid:k", {"fid:k": "w"}, version="2.86", values=("fid:k",))
    pair.check("PUT", path + "/fid:k", {"fid:other": "w"}, version="2.86")
    pair.check("POST", path, {"extra_specs": {"hw:cpu_policy": "sideways"}}, version="2.86")
    pair.check("POST", path, {"extra_specs": {"hw:nope": "1"}}, version="2.86")
    pair.check("POST", path, {"extra_specs": {"hw:nope": "1"}}, version="2.85")
    pair.check("DELETE", path + "/fid:k", version="2.86")
    pair.check("DELETE", path + "/fid:k", version="2.86")
    pair.check("GET", "/flavors/{flavor}", version="2.61", values=("flavor.extra_specs",))


def test_flavor_access(pair, flavor):
    priv = "fid-priv-" + pair.real.ids["member_project"][:6]  # unique per session
    body = {"flavor": {"name": priv, "ram": 64, "vcpus": 1, "disk": 1,
                       "id": priv, "os-flavor-access:is_public": False}}  # fmt: skip
    real, local = pair.check("POST", "/flavors", body, version="2.1")
    if real.status == 200:
        pair.real.created.append(("flavor", priv))
    pair.check("GET", "/flavors/" + priv, version="2.1", user="member")
    pair.check("GET", "/flavors/%s/os-flavor-access" % priv, version="2.1")
    add = lambda ids: {"addTenantAccess": {"tenant": ids["member_project"]}}  # noqa: E731
    pair.check("POST", "/flavors/%s/action" % priv, add, version="2.1")
    pair.check("POST", "/flavors/%s/action" % priv, add, version="2.1")
    pair.check("GET", "/flavors/" + priv, version="2.1", user="member")
    pair.check("GET", "/flavors/%s/os-flavor-access" % priv, version="2.1", user="member")
    remove = lambda ids: {"removeTenantAccess": {"tenant": ids["member_project"]}}  # noqa: E731
    pair.check("POST", "/flavors/%s/action" % priv, remove, version="2.1")
    pair.check("POST", "/flavors/%s/action" % priv, remove, version="2.1")
    pair.check("GET", "/flavors/{flavor}/os-flavor-access", version="2.1")
    pair.check("DELETE", "/flavors/" + priv, version="2.1")


def test_extra_specs_as_member(pair, flavor):
    path = "/flavors/{flavor}/os-extra_specs"
    pair.check("POST", path, {"extra_specs": {"fid:k": "v"}}, version="2.86", user="member")
    pair.check("GET", path, version="2.86", user="member")
    pair.check("DELETE", path + "/fid:k", version="2.86", user="member")
    pair.check("GET", "/flavors/{flavor}/os-flavor-access", version="2.1", user="member")
