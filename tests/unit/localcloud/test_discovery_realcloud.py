"""The local cloud's discovery documents against the real services' as
recorded from ``../shared/realcloud`` (tests/fixtures/*/realcloud/):
what they list, never more than the real service does."""

import urllib.parse

import pytest

from occli.localcloud.network.api.extensions import SHOWN_UNLISTED
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.wsgi_client import Client

ADMIN_SCOPE = {"project": {"name": "admin", "domain": {"id": "default"}}}


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


def _one_of_each(neutron):
    """One of every resource the local Neutron serves, shown to the admin
    (who sees every attribute): ``{collection (attribute-map key): view}``."""
    net = neutron.create(
        "networks", "network", {"name": "disc-net", "router:external": True}, user="admin"
    )
    subnet = neutron.create(
        "subnets",
        "subnet",
        {"network_id": net["id"], "cidr": "10.77.0.0/24", "ip_version": 4},
        user="admin",
    )
    port = neutron.create("ports", "port", {"network_id": net["id"]}, user="admin")
    router = neutron.create("routers", "router", {"name": "disc-router"}, user="admin")
    group = neutron.create("security-groups", "security_group", {"name": "disc"}, user="admin")
    rule = neutron.create(
        "security-group-rules",
        "security_group_rule",
        {"security_group_id": group["id"], "direction": "ingress"},
        user="admin",
    )
    scope = neutron.create(
        "address-scopes", "address_scope", {"name": "disc", "ip_version": 4}, user="admin"
    )
    pool = neutron.create(
        "subnetpools",
        "subnetpool",
        {"name": "disc", "prefixes": ["10.88.0.0/16"], "default_prefixlen": 24},
        user="admin",
    )
    fip = neutron.create(
        "floatingips", "floatingip", {"floating_network_id": neutron.public()}, user="admin"
    )
    shown = {}
    for collection, url, member, item in (
        ("networks", "networks", "network", net),
        ("subnets", "subnets", "subnet", subnet),
        ("ports", "ports", "port", port),
        ("routers", "routers", "router", router),
        ("security_groups", "security-groups", "security_group", group),
        ("security_group_rules", "security-group-rules", "security_group_rule", rule),
        ("address_scopes", "address-scopes", "address_scope", scope),
        ("subnetpools", "subnetpools", "subnetpool", pool),
        ("floatingips", "floatingips", "floatingip", fip),
    ):
        answer = neutron.get("/%s/%s" % (url, item["id"]), user="admin")
        assert answer.status == 200, answer.body
        shown[collection] = answer.json()[member]
    return shown


def _attribute_maps():
    recorded = load_fixture("network", "realcloud", "neutron-29-extension-attributes.json")
    return recorded["core"], recorded["extensions"]


def test_every_shown_attribute_belongs_to_a_listed_extension(neutron):
    """Each attribute a served resource shows is a core one or one a listed
    alias adds (``project_id`` is project-id's, beside every
    ``tenant_id``), as Neutron shows only what its loaded extensions add;
    but the few the extensions module says it shows unlisted."""
    core, by_alias = _attribute_maps()
    listed = [e["alias"] for e in neutron.get("/extensions").json()["extensions"]]
    assert set(listed) <= set(by_alias)
    problems = []
    for collection, view in _one_of_each(neutron).items():
        allowed = set(core.get(collection, ())) | set(SHOWN_UNLISTED.get(collection, ()))
        for alias in listed:
            allowed |= set(by_alias[alias].get(collection, ()))
        if "tenant_id" in allowed and "project-id" in listed:
            allowed.add("project_id")
        unlisted = sorted(set(view) - allowed)
        owners = {
            name: [a for a, m in by_alias.items() if name in m.get(collection, ())]
            for name in unlisted
        }
        if unlisted:
            problems.append(
                "%s shows %s, from no listed extension: %s" % (collection, unlisted, owners)
            )
    assert not problems, "\n".join(problems)


def test_every_listed_extension_adds_what_it_says(neutron):
    """Each listed alias's attributes of a served resource are shown (its
    filter names, ``tags-any`` and the like, are query parameters, not
    attributes), and each collection of its own is served."""
    _core, by_alias = _attribute_maps()
    listed = [e["alias"] for e in neutron.get("/extensions").json()["extensions"]]
    shown = _one_of_each(neutron)
    for alias in listed:
        for collection, attributes in by_alias[alias].items():
            if collection in shown:
                missing = sorted(
                    name
                    for name in attributes
                    if "-" not in name and name not in shown[collection]
                )
                assert not missing, "%s: %s lacks %s" % (alias, collection, missing)
            elif {"id", "name"} & set(attributes):
                # a collection of its own (not an attribute of another
                # extension's resource): served, by either spelling
                answers = [
                    neutron.get("/" + url, user="admin").status
                    for url in {collection, collection.replace("_", "-")}
                ]
                assert 200 in answers, "%s: /%s not served" % (alias, collection)


#: aliases taken as paths whose local answer is not yet the real Nova's,
#: alias → the local status allowed beside the real one: ``os-hosts``
#: below 2.43 is another slice's, and Nova without Ironic fails
#: ``os-baremetal-nodes`` with a 500 the local cloud need not copy (the
#: routes Nova removed answer its 410: compute/api/removed.py)
NOVA_PATH_DEVIATIONS = {
    "os-hosts": 404,
    "os-baremetal-nodes": 404,
}


@pytest.fixture
def full_cloud(tmp_path):
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.cloud import default_services

    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), build_time=0), services=default_services()
    )
    yield cloud
    cloud.close()


def test_nova_extensions_are_novas_and_their_paths_answer_as_novas(full_cloud):
    """Nova's ``/extensions`` is a fixed list (Nova 34 still lists removed
    APIs): the local list is the recorded one, and each alias taken as a
    path answers at 2.1 and at the newest microversion as Nova's does
    (served, 404 past its removal, or one of the deviations above)."""
    recorded = load_fixture("compute", "realcloud", "nova-34-extension-paths.json")
    client = Client(full_cloud)
    token = client.token("admin", scope=ADMIN_SCOPE)
    local = client.get("/compute/v2.1/extensions", token=token).json()["extensions"]
    assert [e["alias"] for e in local] == recorded["extensions"]
    newest = client.get("/compute/v2.1/", token=token).json()["version"]["version"]
    problems = []
    for alias, statuses in recorded["paths"].items():
        for ours, theirs in (("2.1", "2.1"), (newest, recorded["max_version"])):
            answer = client.get(
                "/compute/v2.1/" + alias,
                token=token,
                headers={"OpenStack-API-Version": "compute " + ours},
            )
            if answer.status not in (statuses[theirs], NOVA_PATH_DEVIATIONS.get(alias)):
                problems.append(
                    "%s at %s: %d, Nova %d" % (alias, ours, answer.status, statuses[theirs])
                )
    assert not problems, "\n".join(problems)
