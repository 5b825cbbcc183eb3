"""The catalog of a cloud started with some services lists only theirs
(keystone's catalog lists what is served), and a later start of the same
data directory with more services registers the new ones."""

from occli.localcloud import registry
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from tests.unit.localcloud.wsgi_client import Client


def _catalog_types(data_dir, names):
    cloud = LocalCloud(
        Config(data_dir=str(data_dir), build_time=0), services=service_classes(names)
    )
    try:
        result = Client(cloud).authenticate()
        assert result.status == 201, result.body
        return [s["type"] for s in result.json()["token"]["catalog"]]
    finally:
        cloud.close()


def test_a_partial_cloud_lists_only_what_it_serves_and_later_starts_add(tmp_path):
    data_dir = tmp_path / "data"
    assert _catalog_types(data_dir, ["identity"]) == ["identity"]
    assert _catalog_types(data_dir, ["identity", "volume"]) == [
        t for t, _n, _p in registry.catalog_entries(["identity", "volume"])
    ]
    assert {"volumev3", "block-storage"} <= set(_catalog_types(data_dir, ["identity", "volume"]))
