"""Fidelity: at each sample's microversion the local cloud answers with the
same keys and JSON types as nova's upstream API samples.

Samples up to 2.89 were generated as admin (they show the policy-gated
``OS-EXT-SRV-ATTR:*`` keys), 2.90+ as a member (tests/fixtures/SOURCES.md);
each case calls the cloud as the same kind of user.
"""

import glob
import json
import os

import pytest

from occli.localcloud.compute.api.microversions import MAX_VERSION
from occli.localcloud.microversions import APIVersion
from tests.shape import assert_same_shape
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import UBUNTU

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "fixtures", "compute")
USER_DATA = "IyEvYmluL2Jhc2gKL2Jpbi9zdQplY2hvICJJIGFtIGluIHlvdSEiCg=="
NULLABLE = (
    "description",
    "locked_reason",
    "trusted_image_certificates",
    "user_data",
    "OS-EXT-SRV-ATTR:user_data",
    "key_name",
    "pinned_availability_zone",
)

SERVER_OPERATIONS = {
    "server-get-resp.json": "get",
    "servers-details-resp.json": "detail",
    "servers-list-resp.json": "list",
    "servers-list-status-resp.json": "list",
    "server-create-resp.json": "create",
    "server-update-resp.json": "update",
    "server-put-resp.json": "update",
    "server-action-rebuild-resp.json": "rebuild",
}


def load(relative):
    with open(os.path.join(FIXTURES, relative)) as f:
        return json.load(f)


def sample_version(relative):
    folder = os.path.basename(os.path.dirname(relative))
    return folder[1:] if folder.startswith("v2.") else "2.1"


def served(relative):
    return APIVersion(sample_version(relative)) <= MAX_VERSION


def server_samples():
    cases = []
    for path in sorted(
        glob.glob(os.path.join(FIXTURES, "servers", "**", "*.json"), recursive=True)
    ):
        relative = os.path.relpath(path, FIXTURES)
        name = os.path.basename(path)
        # v2.69 get/list samples show down-cell records (not emulated)
        if (
            name in SERVER_OPERATIONS
            and served(relative)
            and not (sample_version(relative) == "2.69" and SERVER_OPERATIONS[name] != "create")
        ):
            cases.append(relative)
    return cases


def server_body(version):
    body = {
        "name": "new-server-test",
        "flavorRef": "1",
        "imageRef": CIRROS,
        "metadata": {"My Server Name": "Apache1"},
        "accessIPv4": "1.2.3.4",
        "accessIPv6": "80fe::",
        "user_data": USER_DATA,
    }
    if version >= "2.19":
        body["description"] = "new-server-description"
    if version >= "2.37":
        body["networks"] = "auto"
    if version >= "2.63":
        body["trusted_image_certificates"] = ["0b5d2c72-12cc-4ba6-a8d7-3ff5cc1d8cb8"]
    return body


def _call(nova, relative, sample):
    version = sample_version(relative)
    mv = APIVersion(version)
    user = "demo" if mv >= "2.90" else "admin"
    operation = SERVER_OPERATIONS[os.path.basename(relative)]
    body = server_body(mv)
    create = nova.post("/servers", {"server": body}, user=user, version=version)
    assert create.status == 202, create.body
    if operation == "create":
        return create.json()
    server_id = create.json()["server"]["id"]
    nova.post("/servers", {"server": body}, user=user, version=version)
    if mv >= "2.73" and operation in ("get", "detail", "list"):
        nova.action(server_id, {"lock": {"locked_reason": "maint"}}, user=user, version=version)
    if operation == "get":
        return nova.get("/servers/" + server_id, user=user, version=version).json()
    if operation in ("detail", "list"):
        path = "/servers/detail" if operation == "detail" else "/servers"
        if "servers_links" in sample:
            path += "?limit=1"
        return nova.get(path, user=user, version=version).json()
    if operation == "update":
        nova.get("/servers/" + server_id, user=user, version=version)
        update = {"name": "new-server-test"}
        if mv >= "2.19":
            update["description"] = "updated"
        return nova.put(
            "/servers/" + server_id, {"server": update}, user=user, version=version
        ).json()
    nova.get("/servers/" + server_id, user=user, version=version)
    rebuild = {
        "imageRef": UBUNTU,
        "name": "foobar",
        "adminPass": "seekr3t",
        "metadata": {"meta_var": "meta_val"},
    }
    if mv >= "2.57":
        rebuild["user_data"] = USER_DATA
    result = nova.action(server_id, {"rebuild": rebuild}, user=user, version=version)
    assert result.status == 202, result.body
    return result.json()


@pytest.mark.parametrize("relative", server_samples())
def test_server_samples(shared_nova, relative):
    sample = load(relative)
    assert_same_shape(_call(shared_nova, relative, sample), sample, nullable=NULLABLE)


def test_server_sample_coverage():
    versions = {sample_version(c) for c in server_samples()}
    assert {"2.1", "2.9", "2.19", "2.47", "2.73", "2.75", "2.90", "2.96"} <= versions


@pytest.mark.parametrize(
    "relative,reservation",
    [
        ("os-multiple-create/multiple-create-post-resp.json", True),
        ("os-multiple-create/multiple-create-no-resv-post-resp.json", False),
    ],
)
def test_multiple_create_samples(shared_nova, relative, reservation):
    nova = shared_nova
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "new-server-test",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "metadata": {"My Server Name": "Apache1"},
                "min_count": "2",
                "max_count": "3",
                "return_reservation_id": reservation,
            }
        },
    )
    assert_same_shape(result.json(), load(relative))


def _resource_samples(folder, names):
    cases = []
    for path in sorted(glob.glob(os.path.join(FIXTURES, folder, "**", "*.json"), recursive=True)):
        relative = os.path.relpath(path, FIXTURES)
        if os.path.basename(path) in names and served(relative):
            cases.append(relative)
    return cases


@pytest.mark.parametrize(
    "relative",
    _resource_samples(
        "flavors", {"flavors-list-resp.json", "flavors-detail-resp.json", "flavor-get-resp.json"}
    ),
)
def test_flavor_samples(shared_nova, relative):
    nova = shared_nova
    version = sample_version(relative)
    name = os.path.basename(relative)
    path = {
        "flavors-list-resp.json": "/flavors",
        "flavors-detail-resp.json": "/flavors/detail",
        "flavor-get-resp.json": "/flavors/1",
    }[name]
    actual = nova.get(path, version=version).json()
    assert_same_shape(actual, load(relative), nullable=("description",))


@pytest.mark.parametrize("relative", _resource_samples("limits", {"limit-get-resp.json"}))
def test_limits_samples(shared_nova, relative):
    nova = shared_nova
    nova.create()
    actual = nova.get("/limits", version=sample_version(relative)).json()
    assert_same_shape(actual, load(relative))
    assert set(actual["limits"]["absolute"]) == set(load(relative)["limits"]["absolute"])


@pytest.mark.parametrize(
    "relative", _resource_samples("os-services", {"services-list-get-resp.json"})
)
def test_service_samples(shared_nova, relative):
    nova = shared_nova
    version = sample_version(relative)
    if version == "2.69":
        pytest.skip("down-cell records are not emulated")
    actual = nova.get("/os-services", user="admin", version=version).json()
    assert_same_shape(actual, load(relative), nullable=("disabled_reason",))


HYPERVISOR_CALLS = {
    "hypervisors-list-resp.json": "/os-hypervisors",
    "hypervisors-detail-resp.json": "/os-hypervisors/detail",
    "hypervisors-with-servers-resp.json": "/os-hypervisors?with_servers=true"
    "&hypervisor_hostname_pattern=host1",
    "hypervisors-detail-with-servers-resp.json": "/os-hypervisors/detail?with_servers=true"
    "&hypervisor_hostname_pattern=host1",
}


@pytest.mark.parametrize("relative", _resource_samples("os-hypervisors", set(HYPERVISOR_CALLS)))
def test_hypervisor_samples(shared_nova, relative):
    nova = shared_nova
    nova.create()
    version = sample_version(relative)
    sample = load(relative)
    path = HYPERVISOR_CALLS[os.path.basename(relative)]
    if "hypervisors_links" in sample:
        path += "?limit=1"
    if "with_servers" in path and APIVersion(version) < "2.53":
        pytest.skip("with_servers is a 2.53 query parameter")
    actual = nova.get(path, user="admin", version=version).json()
    assert_same_shape(actual, sample, nullable=("disabled_reason", "uptime"))


KEYPAIR_FILES = {
    "keypairs-list-resp.json",
    "keypairs-get-resp.json",
    "keypairs-post-resp.json",
    "keypairs-import-post-resp.json",
}


@pytest.mark.parametrize("relative", _resource_samples("os-keypairs", KEYPAIR_FILES))
def test_keypair_samples(shared_nova, relative):
    nova = shared_nova
    version = sample_version(relative)
    name = os.path.basename(relative)
    sample = load(relative)
    public_key = (
        load(os.path.join(os.path.dirname(relative), "keypairs-import-post-req.json"))
        if os.path.exists(
            os.path.join(FIXTURES, os.path.dirname(relative), "keypairs-import-post-req.json")
        )
        else None
    )
    key = (public_key or load("os-keypairs/keypairs-import-post-req.json"))["keypair"][
        "public_key"
    ]
    prefix = "%s-%s-" % (version.replace(".", "_"), name.split(".")[0])
    for kp in ("kp1", "kp2"):
        kp = prefix + kp
        created = nova.post(
            "/os-keypairs", {"keypair": {"name": kp, "public_key": key}}, version=version
        )
        assert created.status in (200, 201), created.body
    if name == "keypairs-list-resp.json":
        path = "/os-keypairs" + ("?limit=1" if "keypairs_links" in sample else "")
        actual = nova.get(path, version=version).json()
    elif name == "keypairs-get-resp.json":
        actual = nova.get("/os-keypairs/%skp1" % prefix, version=version).json()
    elif name == "keypairs-import-post-resp.json":
        actual = nova.post(
            "/os-keypairs",
            {"keypair": {"name": prefix + "imported", "public_key": key}},
            version=version,
        ).json()
    else:
        actual = nova.post(
            "/os-keypairs", {"keypair": {"name": prefix + "gen"}}, version=version
        ).json()
    assert_same_shape(actual, sample)


@pytest.mark.parametrize(
    "path,relative",
    [
        ("/compute/", "versions/versions-get-resp.json"),
        ("/compute/v2.1/", "versions/v21-version-get-resp.json"),
        ("/compute/v2/", "versions/v2-version-get-resp.json"),
    ],
)
def test_version_samples(shared_nova, path, relative):
    nova = shared_nova
    assert_same_shape(nova.client.get(path).json(), load(relative))
