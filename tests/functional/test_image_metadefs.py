"""Metadata definitions and tasks over HTTP (issue 20): every project reads
the seeded standard namespaces; only the admin creates and deletes one;
the tasks API is the admin's (Glance 33's ``tasks_api_access``)."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, or as ``local-admin``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def test_namespaces_read_by_all_written_by_the_admin(occli):
    names = [
        row["namespace"]
        for row in as_json(occli("image", "metadef", "namespace", "list", "-f", "json"))
    ]
    assert "OS::Compute::Libvirt" in names
    shown = as_json(
        occli("image", "metadef", "namespace", "show", "OS::Compute::Libvirt", "-f", "json")
    )
    assert "OS::Nova::Flavor" in shown["resource_type_associations"]
    assert "serial_port_count" in shown["properties"]
    types = as_json(occli("image", "metadef", "resource", "type", "list", "-f", "json"))
    assert {"Name": "OS::Glance::Image"} in types

    name = "Occli::Functional%s" % uuid.uuid4().hex[:8]
    code, out, err = occli("image", "metadef", "namespace", "create", name)
    assert code == 1 and "You are not authorized to complete this action." in err
    created = as_json(
        occli(
            "image",
            "metadef",
            "namespace",
            "create",
            name,
            "--public",
            "-f",
            "json",
            cloud="local-admin",
        )
    )
    assert created["namespace"] == name and created["visibility"] == "public"
    ok(occli("image", "metadef", "namespace", "delete", name, cloud="local-admin"))
    code, out, err = occli("image", "metadef", "namespace", "show", name)
    assert code == 1 and "was not found" in err


def test_tasks_are_the_admin_s(occli, occli_env):
    from occli.localcloud.image import tasks

    demo = occli_env.client("local").session.get_project_id()

    class Demo:
        project_id = demo
        user_id = None
        is_admin = False

    with occli_env.cloud.store.transaction() as db:
        task = tasks.create_task(db, Demo(), "api_image_import", {"image_id": None})
    code, out, err = occli("image", "task", "list")
    assert code == 1
    assert "You are not authorized to complete tasks_api_access action." in err
    listed = as_json(occli("image", "task", "list", "-f", "json", cloud="local-admin"))
    assert {"ID": task["id"], "Type": "api_image_import", "Status": "pending", "Owner": demo} in (
        listed
    )
    shown = as_json(occli("image", "task", "show", task["id"], "-f", "json", cloud="local-admin"))
    assert shown["status"] == "pending" and shown["input"] == {"image_id": None}
