"""Keypairs: create (generated and imported), show, list, delete, errors."""

import functools

import pytest


@functools.lru_cache(maxsize=1)
def _public_key():
    """A fresh RSA public key (made on first use, not at collection)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        .decode()
        + " fidelity"
    )


@pytest.fixture(scope="module")
def imported(pair):
    name = "fid-kp-" + pair.real.ids["member_project"][:8]
    body = {"keypair": {"name": name, "public_key": _public_key()}}
    real, local = pair.check("POST", "/os-keypairs", body, version="2.10",
                             values=("keypair.name", "keypair.fingerprint"))  # fmt: skip
    pair.real.created.append(("keypair", name))
    for cloud in pair.clouds:
        cloud.ids["keypair"] = name
    return name


@pytest.mark.parametrize("version", ("2.1", "2.2", "2.10", "2.35", "2.92"))
def test_generate(pair, version):
    name = "fid-gen-%s-%s" % (version.replace(".", "-"), pair.real.ids["member_project"][:6])
    body = {"keypair": {"name": name}}
    real, local = pair.check("POST", "/os-keypairs", body, version=version,
                             values=("keypair.name", "keypair.type"))  # fmt: skip
    if real.status in (200, 201):
        pair.real.created.append(("keypair", name))
        pair.check("DELETE", "/os-keypairs/" + name, version=version)


@pytest.mark.parametrize("version", ("2.1", "2.2", "2.10", "2.35"))
def test_show(pair, imported, version):
    pair.check("GET", "/os-keypairs/{keypair}", version=version, values=("keypair.public_key",))


def _ours(ids, item):
    return item["keypair"]["name"] == ids["keypair"]


@pytest.mark.parametrize("version", ("2.1", "2.35"))
def test_list(pair, imported, version):
    pair.check(
        "GET",
        "/os-keypairs",
        version=version,
        keep=lambda ids, i: i["keypair"]["name"] == ids["keypair"],
    )


def test_duplicate(pair, imported):
    body = {"keypair": {"name": imported, "public_key": _public_key()}}
    pair.check("POST", "/os-keypairs", body, version="2.10")


@pytest.mark.parametrize(
    "body",
    (
        {},
        {"keypair": {}},
        {"keypair": {"name": ""}},
        {"keypair": {"name": "fid bad/name"}},
        {"keypair": {"name": "fid-x", "public_key": "not a key"}},
        {"keypair": {"name": "fid-x", "type": "dsa"}},
        {"keypair": {"name": "fid-x", "bogus": 1}},
    ),
    ids=("empty", "no-keys", "name-empty", "name-chars", "bad-key", "bad-type", "extra"),
)
@pytest.mark.parametrize("version", ("2.1", "2.2", "2.92"))
def test_create_errors(pair, body, version):
    pair.check("POST", "/os-keypairs", body, version=version)


def test_generate_after_2_92(pair):
    pair.check("POST", "/os-keypairs", {"keypair": {"name": "fid-no-gen"}}, version="2.92")


def test_show_missing(pair):
    pair.check("GET", "/os-keypairs/fid-no-such-key", version="2.10")


def test_delete_missing(pair):
    pair.check("DELETE", "/os-keypairs/fid-no-such-key", version="2.10")


def test_other_user_as_member(pair, imported):
    pair.check("GET", "/os-keypairs/{keypair}?user_id={admin_user}", version="2.10",
               user="member")  # fmt: skip


def test_member_cannot_create_for_other_user(pair):
    body = lambda ids: {"keypair": {"name": "fid-other", "user_id": ids["admin_user"]}}  # noqa: E731
    pair.check("POST", "/os-keypairs", body, version="2.10", user="member")


def test_member_keypairs(pair):
    name = "fid-mkp-" + pair.real.ids["member_project"][:6]
    body = {"keypair": {"name": name, "public_key": _public_key()}}
    real, local = pair.check("POST", "/os-keypairs", body, version="2.10", user="member",
                             values=("keypair.user_id",))  # fmt: skip
    if real.status in (200, 201):
        pair.real.created.append(("member_keypair", name))
    pair.check("GET", "/os-keypairs/" + name, version="2.10", user="member")
    pair.check("GET", "/os-keypairs/%s?user_id={member_user}" % name, version="2.10")
    pair.check("GET", "/os-keypairs/" + name, version="2.10")
    pair.check("GET", "/os-keypairs?user_id={member_user}", version="2.35", values=("keypairs",))
    pair.check("DELETE", "/os-keypairs/%s?user_id={member_user}" % name, version="2.10")
    pair.check("GET", "/os-keypairs/" + name, version="2.10", user="member")


@pytest.mark.parametrize("query", ("limit=1", "marker=fid-none", "bogus=1", "user_id=x&limit=x"))
@pytest.mark.parametrize("version", ("2.35", "2.75"))
def test_list_queries(pair, query, version):
    pair.check("GET", "/os-keypairs?" + query, version=version, keep=lambda ids, i: False)
