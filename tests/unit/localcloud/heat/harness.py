"""The engine tests' cloud: every service, the lifecycle test types of
``tests/fixtures/heat/engine_plugins`` loaded from a plugin directory, and
the callers' contexts as the engine receives them from Heat's API."""

import os
import time

from occli.localcloud.app import Context
from occli.localcloud.identity import projects
from occli.localcloud.identity import users
from occli.localcloud.orchestration.engine import stacks
from occli.testing import start_local_cloud

PLUGINS = os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "fixtures", "heat", "engine_plugins"
)


def start(**settings):
    """A local cloud (``occli.testing``) with the test plugin directory."""
    settings.setdefault("heat_plugin_dirs", [os.path.abspath(PLUGINS)])
    return start_local_cloud(**settings)


def context(fixture, cloud="local"):
    """The Context the API hands the engine for ``cloud``'s user."""
    session = fixture.session(cloud)
    access = session.auth.get_access(session)
    return Context(
        user_id=access.user_id,
        user_name=access.username,
        project_id=access.project_id,
        project_name=access.project_name,
        roles=access.role_names,
    )


def demo_context(cloud):
    """The Context of ``cloud``'s (a LocalCloud without a fixture) demo
    user: the engine makes a stack's trust from its caller's identity."""
    with cloud.store.read() as db:
        project_id = projects.project_id(db, "demo")
        user_id = users.select(db, name="demo")[0]["id"]
    return Context(
        user_id=user_id,
        user_name="demo",
        project_id=project_id,
        project_name="demo",
        roles=["member", "reader"],
    )


def engine(fixture):
    return fixture.cloud.orchestration.engine


def row(fixture, stack_id):
    with fixture.cloud.store.read() as db:
        return stacks.by_id(db, stack_id)


def wait(fixture, stack_id, seconds=30.0, action=None):
    """The stack's row once no action (or ``action``) is in progress
    (bounded). A failed create is CREATE_FAILED for a moment before its
    ROLLBACK starts, and a cancelled one CREATE_FAILED before its DELETE,
    as in Heat: pass ``action`` to wait past it."""
    deadline = time.monotonic() + seconds
    while True:
        found = row(fixture, stack_id)
        if found["status"] != "IN_PROGRESS" and action in (None, found["action"]):
            return found
        if time.monotonic() > deadline:
            raise AssertionError("stack %s still %s_IN_PROGRESS" % (stack_id, found["action"]))
        time.sleep(0.02)


def events(fixture, stack_id):
    with fixture.cloud.store.read() as db:
        return stacks.events(db, stack_id)


def resources(fixture, stack_id):
    with fixture.cloud.store.read() as db:
        return stacks.stack_resources(db, stack_id)
