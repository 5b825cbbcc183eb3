"""Key pairs the local nova generates: x509 (a self-signed client
certificate and a PKCS#12 bundle, as nova's ``generate_winrm_x509_cert``),
with the ``cryptography`` package or the ``openssl`` program; keypair
policies named by operation."""

import base64

import pytest

from occli.localcloud.compute import keypairs
from tests.unit.localcloud.compute_harness import fault


def _x509(nova, name="cert"):
    result = nova.post("/os-keypairs", {"keypair": {"name": name, "type": "x509"}}, version="2.2")
    assert result.status == 201, result.body
    return result.json()["keypair"]


def _check_x509(nova, body):
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import pkcs12

    key, cert, _ = pkcs12.load_key_and_certificates(base64.b64decode(body["private_key"]), b"")
    assert (
        cert.public_bytes(
            __import__(
                "cryptography.hazmat.primitives.serialization", fromlist=["Encoding"]
            ).Encoding.PEM
        ).decode()
        == body["public_key"]
    )
    with nova.cloud.store.read() as db:
        user = nova.cloud.identity.user_id(db, "demo")
    assert cert.subject.rfc4514_string() == "CN=" + user
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.OtherName)[0].value.endswith(b"@localhost")
    assert body["fingerprint"] == keypairs.x509_fingerprint(body["public_key"])
    assert key.key_size == 2048


def test_generated_x509_key_pair(nova):
    pytest.importorskip("cryptography")
    body = _x509(nova)
    assert body["type"] == "x509"
    _check_x509(nova, body)
    shown = nova.get("/os-keypairs/cert", version="2.2").json()["keypair"]
    assert shown["public_key"] == body["public_key"]


def test_generated_x509_key_pair_with_openssl(nova, monkeypatch):
    """Without the cryptography package the openssl program makes it, as
    nova itself does."""
    pytest.importorskip("cryptography")
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("no openssl program")

    def missing(user_id):
        raise ImportError("cryptography")

    monkeypatch.setattr(keypairs, "_x509_with_cryptography", missing)
    _check_x509(nova, _x509(nova, "ossl"))
    monkeypatch.setattr(keypairs.shutil, "which", lambda name: None)
    result = nova.post(
        "/os-keypairs", {"keypair": {"name": "none", "type": "x509"}}, version="2.2"
    )
    assert fault(result)[1:] == (
        400,
        "Keypair data is invalid: key "
        "generation is unavailable in this cloud; "
        "import a public_key",
    )


def test_keypair_policies_name_the_operation(nova):
    with nova.cloud.store.read() as db:
        admin = nova.cloud.identity.user_id(db, "admin")
    for method, rule in (("GET", "show"), ("DELETE", "delete")):
        result = nova.call(method, "/os-keypairs/k?user_id=" + admin, version="2.10")
        assert fault(result)[1:] == (
            403,
            "Policy doesn't allow os_compute_api:os-keypairs:%s to be performed." % rule,
        )
