"""The local cloud's discovery documents against the real services' as
recorded from ``../shared/realcloud`` (tests/fixtures/*/realcloud/):
what they list, never more than the real service does."""

import urllib.parse

from tests.unit.fakes import load_fixture


def test_neutron_v2_document_lists_neutrons_core_collections(neutron):
    """Neutron's /v2.0/ lists its core resources only (extensions'
    collections, routers and security groups among them, are not listed),
    each linking its served list."""
    recorded = load_fixture("network", "realcloud", "neutron-29-discovery.json")
    real = recorded["exchanges"]["version"]["body"]["resources"]
    local = neutron.get("/").json()["resources"]
    assert [(r["name"], r["collection"]) for r in local] == [
        (r["name"], r["collection"]) for r in real
    ]
    for resource in local:
        (link,) = resource["links"]
        path = urllib.parse.urlsplit(link["href"]).path
        assert path.endswith("/v2.0/" + resource["collection"])
        listed = neutron.get("/" + resource["collection"])
        assert listed.status == 200
        assert resource["collection"] in listed.json()
