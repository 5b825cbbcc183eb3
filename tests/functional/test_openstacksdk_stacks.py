"""openstacksdk's stacks against the local cloud's Heat: the cloud layer's
``create_stack(..., wait=True)``, ``get_stack``, ``list_stacks``,
``update_stack`` and ``delete_stack(..., wait=True)`` (which process the
template and environment files on the client side, then wait by polling
the stack's events for the stack-level one), and the templates of
openstacksdk's own orchestration functional tests
(``openstack/tests/functional/cloud/test_stack.py`` and
``orchestration/v1/test_stack.py`` with its ``hello_world.yaml``, see
tests/fixtures/heat/openstacksdk/SOURCES.md)."""

import pathlib
import types
import uuid

import pytest
import yaml

from tests.functional.harness import IMAGE
from tests.functional.harness import point_client_at

openstack = pytest.importorskip("openstack")

pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)

HELLO_WORLD = pathlib.Path(__file__).parents[1] / "fixtures/heat/openstacksdk/hello_world.yaml"

# openstack/tests/functional/cloud/test_stack.py's templates
SIMPLE = """heat_template_version: 2014-10-16
parameters:
  length:
    type: number
    default: 10

resources:
  my_rand:
    type: OS::Heat::RandomString
    properties:
      length: {get_param: length}
outputs:
  rand:
    value:
      get_attr: [my_rand, value]
"""

ROOT = """heat_template_version: 2014-10-16
parameters:
  length:
    type: number
    default: 10
  count:
    type: number
    default: 5

resources:
  my_rands:
    type: OS::Heat::ResourceGroup
    properties:
      count: {get_param: count}
      resource_def:
        type: My::Simple::Template
        properties:
          length: {get_param: length}
outputs:
  rands:
    value:
      get_attr: [my_rands, attributes, rand]
"""

ENVIRONMENT = """
resource_registry:
  My::Simple::Template: %s
"""

INVALID_VERSION = "heat_template_version: asdf-no-such-version "

#: seconds any one wait of a test may take
TIMEOUT = 120


@pytest.fixture
def conn(localcloud, monkeypatch, tmp_path):
    from openstack.orchestration.util import event_utils

    # the SDK polls the stack's events every 5 s; the local stacks of these
    # tests finish in well under a second
    monkeypatch.setattr(event_utils, "time", types.SimpleNamespace(sleep=_short_sleep))
    point_client_at(localcloud, monkeypatch, tmp_path / "cache", cloud="local")
    connection = openstack.connect(cloud="local")
    yield connection
    connection.close()


def _short_sleep(seconds):
    import time

    time.sleep(min(seconds, 0.1))


def _name(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_stack_simple(conn, tmp_path):
    """cloud/test_stack.py's test_stack_simple: create, get, list, update
    without and with a parameter change, delete."""
    template = _write(tmp_path / "simple.yaml", SIMPLE)
    name = _name("simple-stack")
    stack = conn.create_stack(name=name, template_file=template, wait=True)
    try:
        assert stack["stack_status"] == "CREATE_COMPLETE"
        rand = stack["outputs"][0]["output_value"]
        assert len(rand) == 10

        again = conn.get_stack(name)
        assert again["stack_status"] == "CREATE_COMPLETE"
        assert again["outputs"][0]["output_value"] == rand
        assert stack["id"] in [s["id"] for s in conn.list_stacks()]

        stack = conn.update_stack(name, template_file=template, wait=True)
        assert stack["stack_status"] == "UPDATE_COMPLETE"
        assert stack["outputs"][0]["output_value"] == rand

        conn.update_stack(name, template_file=template, wait=True, length=12)
        stack = conn.get_stack(name)
        assert stack["stack_status"] == "UPDATE_COMPLETE"
        new_rand = stack["outputs"][0]["output_value"]
        assert new_rand != rand
        assert len(new_rand) == 12
        assert stack["parameters"]["length"] == "12"
    finally:
        assert conn.delete_stack(name, wait=True)
    assert conn.get_stack(name) is None
    assert name not in [s["name"] for s in conn.list_stacks()]
    assert conn.delete_stack(name) is False


def test_stack_nested(conn, tmp_path):
    """cloud/test_stack.py's test_stack_nested: a ResourceGroup of a
    template resource that the environment file maps to a local template
    (the SDK puts that file into the request's ``files``)."""
    template = _write(tmp_path / "root.yaml", ROOT)
    simple = _write(tmp_path / "simple.yaml", SIMPLE)
    env = _write(tmp_path / "env.yaml", ENVIRONMENT % simple)
    name = _name("nested-stack")
    stack = conn.create_stack(
        name=name, template_file=template, environment_files=[env], wait=True
    )
    try:
        assert stack["stack_status"] == "CREATE_COMPLETE"
        rands = stack["outputs"][0]["output_value"]
        assert sorted(rands) == ["0", "1", "2", "3", "4"]
        assert [len(r) for r in rands.values()] == [10] * 5
        (group,) = conn.orchestration.resources(stack["id"])
        assert (group.name, group.resource_type) == ("my_rands", "OS::Heat::ResourceGroup")
        assert group.status == "CREATE_COMPLETE"
        assert group.physical_resource_id != stack["id"]
        nested = conn.orchestration.get_stack(group.physical_resource_id)
        assert nested.status == "CREATE_COMPLETE"
        members = sorted(r.name for r in conn.orchestration.resources(nested))
        assert members == ["0", "1", "2", "3", "4"]
    finally:
        assert conn.delete_stack(name, wait=True)
    assert conn.get_stack(name) is None


def test_stack_validation(conn, tmp_path):
    """cloud/test_stack.py's test_stack_validation, with Heat's message."""
    from openstack import exceptions

    template = _write(tmp_path / "invalid.yaml", INVALID_VERSION)
    name = _name("validate-template")
    with pytest.raises(exceptions.BadRequestException) as refused:
        conn.create_stack(name=name, template_file=template)
    assert (
        'The template version is invalid: "heat_template_version: asdf-no-such-version". '
        '"heat_template_version" should be one of: 2013-05-23, '
    ) in str(refused.value)
    assert conn.get_stack(name) is None


def _hello_world():
    template = yaml.safe_load(HELLO_WORLD.read_text())
    # as orchestration/v1/test_stack.py does: YAML read the version as a date
    template["heat_template_version"] = "2013-05-23"
    return template


@pytest.fixture
def keypair_and_network(conn):
    """orchestration/v1/test_stack.py's setUp: a key pair, a network and a
    subnet (its 10.99.99.0/16 is one Neutron refuses: host bits set)."""
    name = _name("test_stack")
    keypair = conn.compute.create_keypair(name=name)
    network = conn.network.create_network(name=name)
    subnet = conn.network.create_subnet(
        name=name, network_id=network.id, ip_version=4, cidr="10.99.0.0/16"
    )
    yield name, network
    conn.network.delete_subnet(subnet)
    conn.network.delete_network(network)
    conn.compute.delete_keypair(keypair)


def test_hello_world_server_stack(conn, keypair_and_network):
    """orchestration/v1/test_stack.py: hello_world.yaml through the proxy
    layer, waited for with wait_for_status; its server is a real Nova
    server; suspend and resume; delete removes the server."""
    from openstack import exceptions

    name, network = keypair_and_network
    image = conn.image.find_image(IMAGE)
    sot = conn.orchestration.create_stack(
        name=name,
        parameters={"image": image.id, "key_name": name, "network": network.id},
        template=_hello_world(),
    )
    assert (sot.name, bool(sot.id)) == (name, True)
    try:
        stack = conn.orchestration.wait_for_status(
            sot, status="CREATE_COMPLETE", failures=["CREATE_FAILED"], interval=0.2, wait=TIMEOUT
        )
        assert stack.status_reason == "Stack CREATE completed successfully"
        assert name in [s.name for s in conn.orchestration.stacks()]
        (server_rsrc,) = conn.orchestration.resources(stack)
        server = conn.compute.get_server(server_rsrc.physical_resource_id)
        assert (server.status, server.key_name) == ("ACTIVE", name)
        assert server.flavor.original_name == "m1.small"
        assert server.image.id == image.id
        outputs = {o["output_key"]: o["output_value"] for o in conn.get_stack(name)["outputs"]}
        (address,) = outputs["server_networks"][name]
        assert address.startswith("10.99.")

        conn.orchestration.suspend_stack(stack)
        stack = conn.orchestration.wait_for_status(
            stack, "SUSPEND_COMPLETE", interval=0.2, wait=TIMEOUT
        )
        assert conn.compute.get_server(server.id).status == "SUSPENDED"
        conn.orchestration.resume_stack(stack)
        stack = conn.orchestration.wait_for_status(
            stack, "RESUME_COMPLETE", interval=0.2, wait=TIMEOUT
        )
        assert conn.compute.get_server(server.id).status == "ACTIVE"
    finally:
        conn.orchestration.delete_stack(sot, ignore_missing=False)
        # the stack is found by id until it is gone, then the wait ends
        with pytest.raises(exceptions.NotFoundException):
            conn.orchestration.wait_for_status(sot, "DELETE_COMPLETE", interval=0.2, wait=TIMEOUT)
    assert conn.compute.find_server(server.id) is None
    assert conn.get_stack(name) is None


def test_hello_world_custom_constraints(conn, keypair_and_network):
    """The parameters' custom constraints are checked against the local
    Nova and Glance before anything is made, with Heat's texts."""
    from openstack import exceptions

    name, network = keypair_and_network
    image = conn.image.find_image(IMAGE)
    cases = [
        (
            {"image": image.id, "key_name": "no-such-key", "network": network.id},
            "Parameter 'key_name' is invalid: Error validating value 'no-such-key': "
            "The Key (no-such-key) could not be found.",
        ),
        (
            {"image": "no-such-image", "key_name": name, "network": network.id},
            "Parameter 'image' is invalid: Error validating value 'no-such-image': "
            "No images matching {'name': 'no-such-image'}.",
        ),
        (
            {"image": image.id, "key_name": name, "network": network.id, "flavor": "m9.huge"},
            "Parameter 'flavor' is invalid: Error validating value 'm9.huge': "
            # novaclient's NotFound as Heat's nova plugin words it
            "No Flavor matching {'name': 'm9.huge'}. (HTTP 404)",
        ),
    ]
    for parameters, message in cases:
        with pytest.raises(exceptions.BadRequestException) as refused:
            conn.orchestration.create_stack(
                name=_name("refused"), parameters=parameters, template=_hello_world()
            )
        response = refused.value.response
        assert response is not None
        body = response.json()
        assert body["error"]["type"] == "StackValidationFailed"
        assert body["error"]["message"] == message
