"""Issue 9: ``stack_user_project_id`` must not let a member put deployments
— and so configs — into the metadata another project's servers read.

Decision (doc/localcloud-internals.md, orchestration): a deployment is
visible within its own project, and within ``stack_user_project_id``'s
project only when that is the caller's own project or the caller is an
admin; a member naming another project gets 403 and nothing is stored.
Upstream heat accepts any value (its engine sets a stack-domain project);
this cloud has no stack domain, so a member has no business naming one.
"""

import pytest
import requests

from tests.unit.localcloud.heat_swift_harness import start_env

SERVER = "victim-server"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env, stop = start_env(tmp_path_factory.mktemp("cloud"))
    yield env
    stop()


def heat(user, method, path, **kwargs):
    return requests.request(method, user.heat + path, headers=user.headers, **kwargs)


def config(user, name):
    resp = heat(
        user,
        "POST",
        "/software_configs",
        json={"name": name, "group": "script", "config": "#!/bin/sh\n" + name},
    )
    assert resp.status_code == 200, resp.text
    return resp.json()["software_config"]["id"]


def deploy(user, config_id, **body):
    return heat(
        user,
        "POST",
        "/software_deployments",
        json={"config_id": config_id, "server_id": SERVER, **body},
    )


def metadata(user):
    resp = heat(user, "GET", "/software_deployments/metadata/" + SERVER)
    assert resp.status_code == 200, resp.text
    return [m["config"] for m in resp.json()["metadata"]]


def test_a_member_cannot_name_another_project(env):
    payload = config(env.alt, "evil")
    before = heat(env.alt, "GET", "/software_deployments").json()
    resp = deploy(env.alt, payload, stack_user_project_id=env.demo.project)
    assert resp.status_code == 403, resp.text
    assert resp.json()["error"]["type"] == "Forbidden"
    assert heat(env.alt, "GET", "/software_deployments").json() == before
    assert "#!/bin/sh\nevil" not in metadata(env.demo)


def test_the_answer_does_not_depend_on_the_project_existing(env):
    payload = config(env.alt, "probe")
    real = deploy(env.alt, payload, stack_user_project_id=env.demo.project)
    fake = deploy(env.alt, payload, stack_user_project_id="f" * 32)
    assert (real.status_code, real.json()) == (fake.status_code, fake.json())


def test_a_deployment_on_another_projects_server_id_stays_in_its_project(env):
    """Server ids are not checked (no nova here, as heat does not either);
    a deployment naming one is only in its own project's metadata."""
    mine = config(env.demo, "mine")
    assert deploy(env.demo, mine).status_code == 200
    theirs = config(env.alt, "theirs")
    assert deploy(env.alt, theirs).status_code == 200
    assert metadata(env.demo) == ["#!/bin/sh\nmine"]
    assert metadata(env.alt) == ["#!/bin/sh\ntheirs"]


def test_the_own_project_may_be_named(env):
    own = config(env.alt, "own")
    resp = deploy(env.alt, own, stack_user_project_id=env.alt.project)
    assert resp.status_code == 200, resp.text


def test_an_admin_may_share_a_deployment_with_a_project(env):
    shared = config(env.admin, "shared")
    resp = deploy(env.admin, shared, stack_user_project_id=env.alt.project)
    assert resp.status_code == 200, resp.text
    deployment_id = resp.json()["software_deployment"]["id"]
    assert heat(env.alt, "GET", "/software_deployments/" + deployment_id).status_code == 200
    assert "#!/bin/sh\nshared" in metadata(env.alt)
    assert "#!/bin/sh\nshared" not in metadata(env.demo)
