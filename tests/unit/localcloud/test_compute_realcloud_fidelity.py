"""Regressions for the differences the fidelity suite (tests/fidelity, make
fidelity) found between the local cloud and the real Nova 34; each compares
with the real answer recorded in tests/fixtures/compute/realcloud/
(nova-34-fidelity-*.json)."""

import pytest

from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import fault_of

FRAMING = Recorded("nova-34-fidelity-framing.json")


@pytest.mark.parametrize(
    "key",
    (
        "unrouted_get",
        "unrouted_subresource",
        "patch_flavors",
        "delete_flavors_collection",
        "show_service_by_id",
        "flavor_missing",
    ),
)
def test_unrouted_and_fault_answers(shared_nova, key):
    """Unknown paths and methods get webob's plain JSON 404 (no charset, no
    405); nova's faults carry ``charset=UTF-8``."""
    exchange = FRAMING[key]
    request = exchange["request"]
    result = shared_nova.call(
        request["method"], request["path"], json=request.get("body"), user="admin",
        version=request["version"],
    )  # fmt: skip
    assert result.status == exchange["status"]
    assert result.json() == exchange["body"]
    assert result.header("Content-Type") == exchange["headers"]["content-type"]


def test_empty_204_says_json(shared_nova):
    exchange = FRAMING["keypair_delete_204"]
    created = shared_nova.post(
        "/os-keypairs", {"keypair": {"name": "fid-rec-204"}}, user="admin", version="2.10"
    )
    assert created.status == FRAMING["keypair_create"]["status"]
    result = shared_nova.delete("/os-keypairs/fid-rec-204", user="admin", version="2.10")
    assert result.status == exchange["status"] == 204
    assert result.header("Content-Type") == exchange["headers"]["content-type"]
    assert result.body == b""


VALIDATION = Recorded("nova-34-fidelity-validation.json")


@pytest.mark.parametrize("key", sorted(VALIDATION.exchanges))
def test_first_schema_error_with_whole_value(shared_nova, key):
    """nova reports the first schema error in schema order (keypair name
    before the 2.92 public_key requirement) with the whole value, and uses
    its own keypair name patterns."""
    exchange = VALIDATION[key]
    request = exchange["request"]
    result = shared_nova.call(
        request["method"], request["path"], json=request["body"], user="admin",
        version=request["version"],
    )  # fmt: skip
    assert fault_of(result) == VALIDATION.fault(key)
