"""A cloud of the real identity, orchestration and object-store services
served over HTTP on a free port, with real keystone tokens: the harness of
the Heat and Swift tests. Their ``env`` fixture is in conftest.py.
"""

import time
import types

import requests

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity import assignments
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from occli.localcloud.objectstore.tempurl import temp_url_signature
from occli.localcloud.orchestration.api.service import OrchestrationService
from occli.localcloud.server import BackgroundServer


def add_member(cloud, name, password):
    """Create project ``name`` with member user ``name``."""
    with cloud.store.transaction() as db:
        project = projects.ensure_project(db, name)
        user = users.ensure_user(db, name, password, project)
        role = assignments.ensure_role(db, "member")
        assignments.assign(db, user, "project", project, role)


def serve(data_dir):
    """Identity + orchestration + object store served on a free port.

    Returns ``(cloud, url, stop)``; the cloud has an extra member project
    and user ``alt`` (password ``alt-secret``).
    """
    cloud = LocalCloud(
        Config(data_dir=str(data_dir), port=0),
        services=[IdentityService, OrchestrationService, ObjectStoreService],
    )
    add_member(cloud, "alt", "alt-secret")
    server = BackgroundServer(cloud).start()

    def stop():
        server.stop()
        cloud.close()

    return cloud, server.url, stop


def login(url, name, password):
    """(token, project_id) of a project-scoped password token."""
    resp = requests.post(
        url + "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": name, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": {"project": {"name": name, "domain": {"id": "default"}}},
            }
        },
    )
    assert resp.status_code == 201, resp.text
    return (resp.headers["X-Subject-Token"], resp.json()["token"]["project"]["id"])


def token(url, name, password, scope):
    """A token of user ``name`` with ``scope`` (``"unscoped"`` or a scope
    object such as ``{"domain": {"id": "default"}}``)."""
    resp = requests.post(
        url + "/v3/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": name, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": scope,
            }
        },
    )
    assert resp.status_code == 201, resp.text
    return resp.headers["X-Subject-Token"]


def start_env(data_dir):
    """``(env, stop)``: :func:`serve` plus, for users ``admin``, ``demo``
    and ``alt``, a namespace with ``token``, ``project``, ``headers`` and
    the ``swift`` and ``heat`` URLs of their project (what the ``env``
    fixtures yield)."""
    cloud, url, stop = serve(data_dir)
    users = {}
    for name in ("admin", "demo", "alt"):
        tok, project = login(url, name, name + "-secret")
        users[name] = types.SimpleNamespace(
            token=tok,
            project=project,
            headers={"X-Auth-Token": tok},
            swift=url + "/object-store/v1/AUTH_" + project,
            heat=url + "/orchestration/v1/" + project,
        )
    return types.SimpleNamespace(cloud=cloud, url=url, **users), stop


def make_temp_url(
    env,
    user,
    container,
    obj,
    method="PUT",
    key="secret-key",
    expires=None,
    digest="sha256",
    path_form="short",
):
    """Set the account key, create the container/object, return a temp URL."""
    requests.post(user.swift, headers={**user.headers, "X-Account-Meta-Temp-URL-Key": key})
    requests.put(user.swift + "/" + container, headers=user.headers)
    expires = int(time.time()) + 3600 if expires is None else expires
    short = "/v1/AUTH_%s/%s/%s" % (user.project, container, obj)
    path = short if path_form == "short" else "/object-store" + short
    sig = temp_url_signature(key, method, expires, path, digest)
    return "%s/object-store%s?temp_url_sig=%s&temp_url_expires=%d" % (env.url, short, sig, expires)
