"""Glance metadata definitions and tasks from the client:
``client.metadef_namespaces``, ``client.metadef_resource_types``,
``client.image_tasks`` and ``image metadef namespace list/show/create/delete``,
``image metadef resource type list``, ``image task list/show``, with
OpenStackClient's options and columns, on Glance's api-ref samples
(tests/fixtures/image/metadef-*.json, task*.json)."""

import json

from .fakes import IMAGE
from .fakes import load_fixture
from .fakes import requests_to

NAMESPACES = load_fixture("image", "metadef-namespaces-list-response.json")
DETAILS = load_fixture("image", "metadef-namespace-details-response.json")
CREATED = load_fixture("image", "metadef-namespace-create-response-simple.json")
RESOURCE_TYPES = load_fixture("image", "metadef-resource-types-list-response.json")
TASKS = load_fixture("image", "tasks-list-response.json")
FAILED_TASK = load_fixture("image", "task-show-failure-response.json")
NS = IMAGE + "/v2/metadefs/namespaces"


def test_namespace_list_follows_next_and_shows_names(cli, mock_cloud):
    m = mock_cloud.mock
    first = dict(NAMESPACES, namespaces=NAMESPACES["namespaces"][:1])
    first["next"] = "/v2/metadefs/namespaces?visibility=public&marker=OS%3A%3ACompute%3A%3ALibvirt"
    rest = dict(NAMESPACES, namespaces=NAMESPACES["namespaces"][1:])
    rest.pop("next", None)
    m.get(NS, [{"json": first}, {"json": rest}])
    code, out, err = cli(
        "image", "metadef", "namespace", "list", "--visibility", "public", "-f", "json"
    )
    assert code == 0, err
    assert [row["namespace"] for row in json.loads(out)] == [
        ns["namespace"] for ns in NAMESPACES["namespaces"]
    ]
    sent = requests_to(m, "GET", "/v2/metadefs/namespaces")
    assert sent[0].qs == {"visibility": ["public"]}
    # requests_mock lowercases the query values it records
    assert sent[1].qs == {"visibility": ["public"], "marker": ["os::compute::libvirt"]}


def test_namespace_show_lists_associations_and_properties_by_name(cli, mock_cloud):
    mock_cloud.mock.get(NS + "/OS::Compute::Libvirt", json=DETAILS)
    code, out, err = cli(
        "image", "metadef", "namespace", "show", "OS::Compute::Libvirt", "-f", "json"
    )
    assert code == 0, err
    shown = json.loads(out)
    assert shown["namespace"] == "OS::Compute::Libvirt" and shown["protected"] is True
    assert shown["properties"] == list(DETAILS["properties"])
    assert shown["resource_type_associations"] == [
        a["name"] for a in DETAILS["resource_type_associations"]
    ]
    assert "self" not in shown


def test_namespace_create_sends_osc_fields(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(NS, json=CREATED, status_code=201)
    code, out, err = cli(
        "image",
        "metadef",
        "namespace",
        "create",
        CREATED["namespace"],
        "--display-name",
        CREATED["display_name"],
        "--public",
        "--protected",
        "-f",
        "json",
    )
    assert code == 0, err
    assert requests_to(m, "POST", "/v2/metadefs/namespaces")[0].json() == {
        "namespace": CREATED["namespace"],
        "display_name": CREATED["display_name"],
        "visibility": "public",
        "protected": True,
    }
    assert json.loads(out)["namespace"] == CREATED["namespace"]
    code, out, err = cli("image", "metadef", "namespace", "create", "x", "--public", "--private")
    assert code == 2 and "not allowed with argument" in err


def test_namespace_delete_reports_each_failure(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(NS + "/Example::Gone", status_code=204)
    m.delete(
        NS + "/OS::Compute::Libvirt",
        status_code=403,
        text="403 Forbidden\n\nMetadata definition namespace OS::Compute::Libvirt is protected"
        " and cannot be deleted.\n\n   ",
        headers={"Content-Type": "text/plain"},
    )
    code, out, err = cli(
        "image", "metadef", "namespace", "delete", "Example::Gone", "OS::Compute::Libvirt"
    )
    assert code == 1
    assert "Failed to delete namespace with name or ID 'OS::Compute::Libvirt'" in err
    assert "1 of 2 namespace failed to delete." in err
    assert len(requests_to(m, "DELETE", "/Example::Gone")) == 1


def test_resource_type_list(cli, mock_cloud):
    mock_cloud.mock.get(IMAGE + "/v2/metadefs/resource_types", json=RESOURCE_TYPES)
    code, out, err = cli("image", "metadef", "resource", "type", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"Name": t["name"]} for t in RESOURCE_TYPES["resource_types"]]


def test_task_list_and_show(cli, client, mock_cloud):
    m = mock_cloud.mock
    m.get(IMAGE + "/v2/tasks", json=TASKS)
    m.get(IMAGE + "/v2/tasks/" + FAILED_TASK["id"], json=FAILED_TASK)
    code, out, err = cli(
        "image", "task", "list", "--status", "processing", "--sort-dir", "asc", "-f", "json"
    )
    assert code == 0, err
    rows = json.loads(out)
    assert [r["ID"] for r in rows] == [t["id"] for t in TASKS["tasks"]]
    assert set(rows[0]) == {"ID", "Type", "Status", "Owner"}
    assert requests_to(m, "GET", "/v2/tasks")[0].qs == {
        "status": ["processing"],
        "sort_dir": ["asc"],
    }
    code, out, err = cli("image", "task", "show", FAILED_TASK["id"], "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["status"] == "failure" and shown["message"] == FAILED_TASK["message"]
    assert shown["input"] == FAILED_TASK["input"] and shown["properties"] == {}
    assert client.image_tasks.get(FAILED_TASK["id"]).type == "import"
    code, out, err = cli("image", "task", "list", "--status", "done")
    assert code == 2
