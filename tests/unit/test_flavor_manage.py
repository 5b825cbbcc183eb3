"""Flavor-manage, extra specs and flavor access: the manager and the
``flavor create/set/unset/delete/list/show`` commands, against nova's
samples (tests/fixtures/compute/flavor-*) and its recorded answers
(tests/fixtures/compute/realcloud/nova-34-flavors.json)."""

import json

import pytest

from occli import exceptions

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import load_fixture
from .fakes import requests_to

DEMO = "7ad57209302d47fda3e5feb69ca835e5"
REAL = load_fixture("compute", "realcloud", "nova-34-flavors.json")["exchanges"]


def sample(*parts):
    return load_fixture("compute", *parts)


def nova_error(status, name, message):
    return {"status_code": status, "json": {name: {"code": status, "message": message}}}


@pytest.fixture
def projects(mock_cloud):
    """Keystone knows project ``demo`` (id DEMO)."""
    m = mock_cloud.mock
    m.get(
        AUTH_URL + "/projects/demo",
        status_code=404,
        json={"error": {"code": 404, "message": "Could not find project: demo."}},
    )
    m.get(
        AUTH_URL + "/projects?name=demo",
        json={"projects": [{"id": DEMO, "name": "demo", "domain_id": "default"}]},
    )
    m.get(
        AUTH_URL + "/projects/" + DEMO,
        json={"project": {"id": DEMO, "name": "demo", "domain_id": "default"}},
    )
    return m


@pytest.fixture
def private_flavor(mock_cloud):
    """``probe-priv`` (private) as the real nova 34 showed it."""
    flavor = REAL["show_private_as_admin"]["body"]
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/probe-priv", json=flavor)
    m.get(COMPUTE + "/flavors/probe-priv/os-flavor-access", json=REAL["access_list"]["body"])
    return flavor["flavor"]


def test_create_sends_nova_s_body_and_reads_its_answer(client, mock_cloud):
    request = sample("flavor-manage", "v2.75", "flavor-create-post-req.json")
    answer = sample("flavor-manage", "v2.75", "flavor-create-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/flavors", json=answer)
    wanted = request["flavor"]
    flavor = client.flavors.create(
        wanted["name"],
        wanted["ram"],
        wanted["vcpus"],
        wanted["disk"],
        flavor_id=wanted["id"],
        rxtx_factor=wanted["rxtx_factor"],
        description=wanted["description"],
    )
    assert flavor.to_dict() == answer["flavor"]
    sent = requests_to(mock_cloud.mock, "POST", "/flavors")[0].json()
    assert sent["flavor"] == dict(
        wanted, **{"OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "os-flavor-access:is_public": True}
    )


def test_description_and_rxtx_factor_follow_the_version(client, mock_cloud):
    client.requested_compute_version = "2.54"
    with pytest.raises(exceptions.UnsupportedVersion, match="2.55"):
        client.flavors.create("f", 1, 1, 1, description="d")
    with pytest.raises(exceptions.UnsupportedVersion, match="2.55"):
        client.flavors.update("1", "d")
    assert not requests_to(mock_cloud.mock, "POST", "/flavors")


def test_update_extra_specs_and_access_requests(client, mock_cloud):
    m = mock_cloud.mock
    m.put(
        COMPUTE + "/flavors/10", json=sample("flavor-manage", "v2.75", "flavor-update-resp.json")
    )
    m.post(
        COMPUTE + "/flavors/10/os-extra_specs",
        json=sample("flavor-extra-specs", "flavor-extra-specs-create-resp.json"),
    )
    m.get(
        COMPUTE + "/flavors/10/os-extra_specs",
        json=sample("flavor-extra-specs", "flavor-extra-specs-list-resp.json"),
    )
    m.delete(COMPUTE + "/flavors/10/os-extra_specs/hw:numa_nodes", status_code=200)
    m.post(
        COMPUTE + "/flavors/10/action",
        json=sample("flavor-access", "flavor-access-add-tenant-resp.json"),
    )
    m.get(
        COMPUTE + "/flavors/10/os-flavor-access",
        json=sample("flavor-access", "flavor-access-list-resp.json"),
    )
    assert client.flavors.update("10", "updated description").description == "updated description"
    assert requests_to(m, "PUT", "/flavors/10")[0].json() == sample(
        "flavor-manage", "v2.75", "flavor-update-req.json"
    )
    specs = sample("flavor-extra-specs", "flavor-extra-specs-create-req.json")
    client.flavors.set_extra_specs("10", specs["extra_specs"])
    assert requests_to(m, "POST", "/os-extra_specs")[0].json() == specs
    assert (
        client.flavors.get_extra_specs("10")
        == sample("flavor-extra-specs", "flavor-extra-specs-list-resp.json")["extra_specs"]
    )
    client.flavors.unset_extra_spec("10", "hw:numa_nodes")
    tenant = "6f70656e737461636b20342065766572"
    access = client.flavors.add_tenant_access("10", tenant)
    assert [(a.flavor_id, a.tenant_id, a.id) for a in access] == [("10", tenant, tenant)]
    assert requests_to(m, "POST", "/flavors/10/action")[0].json() == {
        "addTenantAccess": {"tenant": tenant}
    }
    assert [a.tenant_id for a in client.flavors.access_list("10")] == [tenant]


def test_flavor_create_command_private_with_project_and_properties(cli, mock_cloud, projects):
    m = mock_cloud.mock
    created = REAL["create_private"]["body"]
    m.post(COMPUTE + "/flavors", json=created)
    m.post(COMPUTE + "/flavors/probe-priv/action", json=REAL["add_access"]["body"])
    m.post(
        COMPUTE + "/flavors/probe-priv/os-extra_specs",
        json={"extra_specs": {"hw:cpu_policy": "dedicated"}},
    )
    shown = json.loads(json.dumps(created))
    shown["flavor"]["extra_specs"] = {"hw:cpu_policy": "dedicated"}
    m.get(COMPUTE + "/flavors/probe-priv", json=shown)
    code, out, err = cli(
        "flavor",
        "create",
        "probe-priv",
        "--id",
        "probe-priv",
        "--ram",
        "512",
        "--disk",
        "1",
        "--private",
        "--project",
        "demo",
        "--property",
        "hw:cpu_policy=dedicated",
        "--description",
        "private one",
        "-f",
        "json",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["properties"] == {"hw:cpu_policy": "dedicated"}
    assert result["access_project_ids"] == [DEMO]
    assert result["os-flavor-access:is_public"] is False
    body = requests_to(m, "POST", "/compute/v2.1/flavors")[0].json()
    assert body["flavor"]["os-flavor-access:is_public"] is False
    assert body["flavor"]["description"] == "private one"
    assert requests_to(m, "POST", "/action")[0].json() == {"addTenantAccess": {"tenant": DEMO}}


def test_flavor_create_undoes_a_half_made_flavor(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(COMPUTE + "/flavors", json=REAL["create_private"]["body"])
    m.post(
        COMPUTE + "/flavors/probe-priv/os-extra_specs",
        **nova_error(
            400, "badRequest", REAL["specs_create_invalid_hw"]["body"]["badRequest"]["message"]
        ),
    )
    m.delete(COMPUTE + "/flavors/probe-priv", status_code=202)
    code, out, err = cli("flavor", "create", "probe-priv", "--property", "hw:cpu_policy=bogus")
    assert code == 1
    assert "is not one of: dedicated, shared, mixed." in err
    assert len(requests_to(m, "DELETE", "/flavors/probe-priv")) == 1


@pytest.mark.parametrize(
    "argv,message",
    [
        (("--project", "demo"), "--project is only allowed with --private."),
        (("--private", "--property", "novalue"), "--property expects KEY=VALUE"),
        (("--public", "--private"), "not allowed with argument"),
        (("--ram", "0"), "'0' must be 1 or more"),
        (("--disk", "-1"), "'-1' must be 0 or more"),
    ],
)
def test_flavor_create_usage_errors_send_nothing(cli, mock_cloud, argv, message):
    code, out, err = cli("flavor", "create", "f", *argv)
    assert code == 2 and message in err
    assert not requests_to(mock_cloud.mock, "POST", "/flavors")


def test_flavor_create_description_needs_2_55(cli, mock_cloud):
    code, out, err = cli(
        "--os-compute-api-version", "2.54", "flavor", "create", "f", "--description", "d"
    )
    assert code == 1
    assert err.strip() == (
        "A flavor --description requires compute API "
        "version 2.55 or later (in use: 2.54); change "
        "--os-compute-api-version."
    )
    assert not requests_to(mock_cloud.mock, "POST", "/flavors")


def test_flavor_show_private_with_access_and_properties(cli, mock_cloud, private_flavor):
    code, out, err = cli("flavor", "show", "probe-priv", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["access_project_ids"] == [
        a["tenant_id"] for a in REAL["access_list"]["body"]["flavor_access"]
    ]
    assert shown["properties"] == private_flavor["extra_specs"]
    assert "links" not in shown


def test_flavor_show_as_a_member_leaves_out_the_access_list(cli, mock_cloud, private_flavor):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/probe-priv/os-flavor-access",
        **nova_error(403, "forbidden", REAL["access_as_member"]["body"]["forbidden"]["message"]),
    )
    code, out, err = cli("flavor", "show", "probe-priv", "-f", "json")
    assert code == 0 and err == ""
    assert json.loads(out)["access_project_ids"] is None  # as OSC


def test_flavor_show_by_name_finds_private_flavors(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/flavors/probe-priv",
        **nova_error(404, "itemNotFound", "Flavor probe-priv could not be found."),
    )
    m.get(
        COMPUTE + "/flavors/detail?is_public=None",
        json={"flavors": [dict(REAL["show_private_as_admin"]["body"]["flavor"], id="x1")]},
    )
    m.get(COMPUTE + "/flavors/x1", json=REAL["show_private_as_admin"]["body"])
    m.get(COMPUTE + "/flavors/x1/os-flavor-access", json={"flavor_access": []})
    code, out, err = cli("flavor", "show", "probe-priv", "-f", "json")
    assert code == 0, err


def test_flavor_set_applies_each_option(cli, mock_cloud, projects, private_flavor):
    m = mock_cloud.mock
    m.put(COMPUTE + "/flavors/probe-priv", json=REAL["update_desc"]["body"])
    m.delete(COMPUTE + "/flavors/probe-priv/os-extra_specs/key1", status_code=200)
    m.post(COMPUTE + "/flavors/probe-priv/os-extra_specs", json={"extra_specs": {"a": "b"}})
    m.post(COMPUTE + "/flavors/probe-priv/action", json=REAL["add_access"]["body"])
    code, out, err = cli(
        "flavor",
        "set",
        "probe-priv",
        "--description",
        "new",
        "--no-property",
        "--property",
        "a=b",
        "--project",
        "demo",
    )
    assert code == 0 and out == "", err
    assert requests_to(m, "PUT", "/flavors/probe-priv")[0].json() == {
        "flavor": {"description": "new"}
    }
    removed = {r.url.rsplit("/", 1)[1] for r in requests_to(m, "DELETE", "/os-extra_specs/")}
    assert removed == set(private_flavor["extra_specs"]) - {"a"}
    assert requests_to(m, "POST", "/os-extra_specs")[0].json() == {"extra_specs": {"a": "b"}}


def test_flavor_set_project_on_a_public_flavor_changes_nothing(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/1", json=sample("flavors", "v2.75", "flavor-get-resp.json"))
    code, out, err = cli("flavor", "set", "1", "--property", "a=b", "--project", "demo")
    assert code == 1
    assert err.strip() == "Cannot set access for a public flavor."
    assert not [r for r in m.request_history if r.method != "GET" and "/compute/" in r.url]
    code, out, err = cli("flavor", "set", "1")
    assert code == 2 and "Nothing to set" in err


def test_flavor_unset(cli, mock_cloud, projects, private_flavor):
    m = mock_cloud.mock
    m.delete(COMPUTE + "/flavors/probe-priv/os-extra_specs/key1", status_code=200)
    m.delete(
        COMPUTE + "/flavors/probe-priv/os-extra_specs/nokey",
        **nova_error(
            404, "itemNotFound", REAL["specs_show_missing"]["body"]["itemNotFound"]["message"]
        ),
    )
    m.post(COMPUTE + "/flavors/probe-priv/action", json=REAL["remove_access"]["body"])
    code, out, err = cli(
        "flavor",
        "unset",
        "probe-priv",
        "--property",
        "key1",
        "--property",
        "nokey",
        "--project",
        "demo",
    )
    assert code == 1
    assert err.strip() == (
        "Failed to unset flavor property nokey: Flavor probe-priv has no "
        "extra specs with key nokey. (HTTP 404)"
    )
    assert requests_to(m, "POST", "/action")[0].json() == {"removeTenantAccess": {"tenant": DEMO}}


def test_flavor_delete_reports_each_failure(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/a", json={"flavor": {"id": "a", "name": "a"}})
    m.get(COMPUTE + "/flavors/b", json={"flavor": {"id": "b", "name": "b"}})
    m.delete(COMPUTE + "/flavors/a", status_code=202)
    m.delete(
        COMPUTE + "/flavors/b",
        **nova_error(403, "forbidden", REAL["delete_as_member"]["body"]["forbidden"]["message"]),
    )
    code, out, err = cli("flavor", "delete", "a", "b")
    assert code == 1
    assert err.strip() == (
        "Failed to delete flavor b: Policy doesn't allow os_compute_api:"
        "os-flavor-manage:delete to be performed.%s (HTTP 403)" % exceptions.POLICY_HINT
    )


def test_flavor_list_filters_sorting_and_long(cli, mock_cloud):
    m = mock_cloud.mock
    listing = sample("flavors", "v2.55", "flavors-detail-resp.json")
    m.get(COMPUTE + "/flavors/detail", json=listing)
    for flavor in listing["flavors"]:
        m.get(
            COMPUTE + "/flavors/%s/os-extra_specs" % flavor["id"],
            json={"extra_specs": {"k": flavor["id"]}},
        )
    code, out, err = cli(
        "--os-compute-api-version",
        "2.55",
        "flavor",
        "list",
        "--all",
        "--long",
        "--min-ram",
        "512",
        "--min-disk",
        "1",
        "--sort",
        "name:desc",
        "-f",
        "json",
    )
    assert code == 0, err
    rows = json.loads(out)
    assert [r["Properties"] for r in rows] == [{"k": f["id"]} for f in listing["flavors"]]
    sent = requests_to(m, "GET", "/flavors/detail")[0]
    assert sent.qs == {
        "is_public": ["none"],
        "minram": ["512"],
        "mindisk": ["1"],
        "sort_key": ["name"],
        "sort_dir": ["desc"],
    }
    code, out, err = cli("flavor", "list", "--private", "-f", "json")
    assert requests_to(m, "GET", "/flavors/detail")[-1].qs == {"is_public": ["false"]}
    code, out, err = cli("flavor", "list", "--sort", "ram")
    assert code == 2 and "--sort must be one of" in err
    code, out, err = cli("flavor", "list", "--private", "--all")
    assert code == 2


def test_flavor_list_long_uses_the_properties_of_2_61(cli, mock_cloud):
    listing = sample("flavors", "v2.61", "flavors-detail-resp.json")
    mock_cloud.mock.get(COMPUTE + "/flavors/detail", json=listing)
    code, out, err = cli("flavor", "list", "--long", "-f", "json")
    assert code == 0, err
    assert [r["Properties"] for r in json.loads(out)] == [
        f["extra_specs"] for f in listing["flavors"]
    ]
    assert not requests_to(mock_cloud.mock, "GET", "/os-extra_specs")
