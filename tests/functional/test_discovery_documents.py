"""Every discovery document the local cloud hands out lists exactly what it
serves (issue 23), read from the documents and the route registry, never
from a list kept here: the catalog names every registered service and no
other, keystoneauth discovers each endpoint from it, every versions
document's versions answer their own document with the same status and
microversion range, and a microversioned API serves its whole advertised
range and nothing past it."""

import urllib.parse

import pytest
import requests

from occli.localcloud import registry
from occli.testing import start_local_cloud

#: the service name of the ``OpenStack-API-Version`` header for a catalog
#: type (nova's and cinder's microversion headers)
MICROVERSION_NAMES = {"compute": "compute", "volumev3": "volume", "block-storage": "volume"}
TIMEOUT = 10


@pytest.fixture(scope="module")
def cloud():
    running = start_local_cloud()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def session(cloud):
    return cloud.session("local-admin")


@pytest.fixture(scope="module")
def catalog(session):
    return session.auth.get_access(session).service_catalog.catalog


def _get(session, url, **headers):
    return session.get(url, authenticated=True, raise_exc=False, headers=headers)


def _version_tuple(text):
    major, minor = text.split(".")
    return int(major), int(minor)


def test_catalog_lists_exactly_the_registered_services(catalog):
    served = {(kind, name) for kind, name, _path in registry.catalog_entries()}
    listed = {(entry["type"], entry["name"]) for entry in catalog}
    assert listed == served


def test_keystoneauth_discovers_every_endpoint(session, catalog):
    """As a client discovers an endpoint: the version document it finds
    answers, and a microversioned one's range is the document's."""
    for entry in catalog:
        kind = entry["type"]
        data = session.get_endpoint_data(
            service_type=kind, interface="public", discover_versions=True
        )
        assert data is not None, kind
        if kind == "object-store":
            # Swift has no versions document: its /info is checked apart
            continue
        assert data.api_version is not None, kind
        if kind in MICROVERSION_NAMES:
            assert data.min_microversion is not None, kind
            assert data.max_microversion is not None, kind


def _roots(cloud):
    """``{service name: (unversioned root URL, its first catalog type)}``
    for every mounted service with a catalog entry but Swift (no versions
    document: its ``/info`` is checked apart); identity's root is the
    cloud's."""
    return {
        svc.name: (cloud.url + svc.prefix + "/", registry.package(svc.name).CATALOG[0][0])
        for svc in cloud.cloud.services
        if svc.name in registry.names()
        and registry.package(svc.name).CATALOG
        and svc.name != "objectstore"
    }


def _listed_versions(session, root):
    answer = _get(session, root)
    assert answer.status_code in (200, 300), (root, answer.status_code)
    versions = answer.json()["versions"]
    if isinstance(versions, dict):  # keystone's {"values": [...]}
        versions = versions["values"]
    assert versions, root
    return versions


def _self_link(version):
    (href,) = [link["href"] for link in version["links"] if link["rel"] == "self"]
    return href


def _served_paths(cloud, name):
    """The full paths of service ``name``'s routes (patterns as listed)."""
    (svc,) = [svc for svc in cloud.cloud.services if svc.name == name]
    return [svc.prefix + route.pattern for route in svc.routes]


def test_every_listed_version_links_a_served_api(cloud, session):
    """Each version's self link is a path the service routes below; where
    the link answers a document (Glance's /v2/ and Heat's /v1/ do not, as
    theirs do not), it is this version's: same id, status and range (or,
    as Cinder's /v3/, the list holding it)."""
    checked = 0
    for name, (root, _kind) in _roots(cloud).items():
        served = _served_paths(cloud, name)
        for version in _listed_versions(session, root):
            href = _self_link(version)
            assert href.startswith(cloud.url), href
            path = urllib.parse.urlsplit(href).path.rstrip("/")
            assert any(p == path or p.startswith(path + "/") for p in served), href
            doc = _get(session, href)
            if doc.status_code != 200:
                assert doc.status_code == 404, (href, doc.status_code)
                continue
            body = doc.json()
            if "resources" in body:
                # neutron's /v2.0/: each core resource listed answers its list
                for resource in body["resources"]:
                    listed = _get(session, _self_link(resource))
                    assert listed.status_code == 200, resource
                    assert resource["collection"] in listed.json(), resource
                checked += 1
                continue
            if "version" not in body:
                assert version in body["versions"], href
                checked += 1
                continue
            own = body["version"]
            if own["id"] != version["id"]:
                continue  # an older version served by the newer's document
            assert own["status"] == version["status"], href
            for key in ("version", "min_version", "max_version"):
                if key in version:
                    assert own.get(key) == version[key], (href, key)
            checked += 1
    assert checked >= 4


def test_microversioned_apis_serve_exactly_their_range(cloud, session):
    """At the advertised minimum and maximum the versioned root answers and
    says which microversion it served; one past the maximum (and, where
    the range starts above x.0, one below the minimum) is 406."""
    checked = 0
    for _name, (root, kind) in _roots(cloud).items():
        for version in _listed_versions(session, root):
            if not version.get("version") or kind not in MICROVERSION_NAMES:
                continue
            header = MICROVERSION_NAMES[kind] + " %d.%d"
            url = _self_link(version)
            low = _version_tuple(version["min_version"])
            high = _version_tuple(version["version"])
            for served in (low, high):
                answer = _get(session, url, **{"OpenStack-API-Version": header % served})
                assert answer.status_code == 200, (url, served)
                assert answer.headers["OpenStack-API-Version"] == header % served
            refused = [(high[0], high[1] + 1)] + ([(low[0], low[1] - 1)] if low[1] else [])
            for version_past in refused:
                answer = _get(session, url, **{"OpenStack-API-Version": header % version_past})
                assert answer.status_code == 406, (url, version_past)
            checked += 1
    assert checked >= 2


def test_unversioned_roots_need_no_token(cloud):
    for root, _kind in _roots(cloud).values():
        assert requests.get(root, timeout=TIMEOUT).status_code in (200, 300), root
