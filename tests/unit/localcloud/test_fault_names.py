"""Nova's and Cinder's fault bodies are named from one table
(``occli.localcloud.fault_names``): nova/api/openstack/wsgi.py and
cinder/api/openstack/wsgi.py ``Fault._fault_names``, nova's with 429."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("faults")), build_time=0))
    yield cloud
    cloud.close()


@pytest.mark.parametrize(
    ("status", "nova", "cinder"),
    [
        (400, "badRequest", "badRequest"),
        (403, "forbidden", "forbidden"),
        (404, "itemNotFound", "itemNotFound"),
        (409, "conflictingRequest", "conflictingRequest"),
        (413, "overLimit", "overLimit"),
        (429, "overLimit", "computeFault"),
        (500, "computeFault", "computeFault"),
        (503, "serviceUnavailable", "serviceUnavailable"),
    ],
)
def test_nova_and_cinder_name_their_faults_as_upstream(cloud, status, nova, cinder):
    (compute_name,) = cloud.compute.error_body(status, "m", {})
    (volume_name,) = cloud.volume.error_body(status, "m", {}).body
    assert (compute_name, volume_name) == (nova, cinder)
