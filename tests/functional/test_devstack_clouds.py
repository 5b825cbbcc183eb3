"""The clouds DevStack's ``write_clouds_yaml`` (devstack functions-common,
tools/update_clouds_yaml.py) writes are in the local cloud's clouds.yaml,
with DevStack's shape, and each authenticates as DevStack's does: a suite
written for DevStack (``openstack.connect(cloud="devstack")``) runs
unchanged."""

import pytest

from occli.testing import start_local_cloud

#: the keys of each DevStack entry's ``auth`` (update_clouds_yaml.py)
PROJECT_AUTH_KEYS = {
    "auth_url",
    "username",
    "user_domain_id",
    "password",
    "project_name",
    "project_domain_id",
}
SYSTEM_AUTH_KEYS = {"auth_url", "username", "user_domain_id", "password", "system_scope"}


@pytest.fixture(scope="module")
def cloud():
    from occli.localcloud.identity.api.service import IdentityService

    running = start_local_cloud(services=[IdentityService])
    yield running
    running.stop()


@pytest.mark.parametrize(
    ("name", "user", "project"),
    [
        ("devstack", "demo", "demo"),
        ("devstack-admin", "admin", "admin"),
        ("devstack-alt", "alt", "alt"),
    ],
)
def test_project_clouds_have_devstacks_shape_and_scope(cloud, name, user, project):
    entry = cloud.cloud_entry(name)
    assert set(entry) == {"region_name", "auth"}
    assert entry["region_name"] == "RegionOne"
    auth = entry["auth"]
    assert set(auth) == PROJECT_AUTH_KEYS
    assert auth["auth_url"] == cloud.url  # unversioned, as KEYSTONE_SERVICE_URI
    assert (auth["username"], auth["project_name"]) == (user, project)
    assert auth["user_domain_id"] == auth["project_domain_id"] == "default"
    # the same user and password as the local-* cloud of that user
    local = {"demo": "local", "admin": "local-admin", "alt": "local-alt"}[user]
    assert auth["password"] == cloud.cloud_entry(local)["auth"]["password"]

    conn = cloud.openstack_connection(name)
    try:
        access = conn.session.auth.get_access(conn.session)
        assert access.username == user
        assert access.project_name == project
        assert access.system_scoped is False
    finally:
        conn.close()


def test_system_admin_cloud_is_system_scoped(cloud):
    entry = cloud.cloud_entry("devstack-system-admin")
    assert set(entry["auth"]) == SYSTEM_AUTH_KEYS
    assert entry["auth"]["system_scope"] == "all"
    assert entry["auth"]["username"] == "admin"

    conn = cloud.openstack_connection("devstack-system-admin")
    try:
        access = conn.session.auth.get_access(conn.session)
        assert access.system_scoped is True
        assert access.project_id is None
        assert "admin" in access.role_names
    finally:
        conn.close()


def test_openstack_connect_finds_devstack_through_the_environment(cloud):
    """As openstacksdk's functional tests do: ``OS_CLOUD`` names the cloud,
    ``OS_CLIENT_CONFIG_FILE`` the clouds.yaml, ``openstack.connect()``
    reads them."""
    import openstack

    with cloud.patch_environ("devstack"):
        conn = openstack.connect(cloud="devstack")
        try:
            assert conn.current_project_id is not None
            project = conn.get_project(conn.current_project_id)
            assert project is not None and project.name == "demo"
        finally:
            conn.close()


def test_fixture_session_discovers_the_unversioned_auth_url(cloud):
    session = cloud.session("devstack-admin")
    assert session.get_project_id() is not None
    assert session.get_user_id() is not None
