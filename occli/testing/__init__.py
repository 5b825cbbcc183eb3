"""occli's local cloud inside your tests (what moto is to boto).

A fresh local cloud (Keystone, Nova, Neutron, Cinder, Glance, Heat, Swift
on SQLite) per test, on a free loopback port, in a few milliseconds: a
database migrated and seeded once per process is copied for each cloud. Any OpenStack client
can talk to it — occli, openstacksdk, python-openstackclient, a shell
script — since it is a real HTTP service.

pytest (the plugin is installed with occli as the ``pytest11`` entry point
``occli``; nothing is imported until a fixture is used)::

    def test_boot(local_cloud):
        client = local_cloud.client()            # occli.Client, user demo
        ...
        conn = openstack.connect(cloud="local")  # also finds it

Fixtures ``local_cloud`` (one cloud per test) and ``local_cloud_module``
(one per module), both :class:`CloudFixture`; the marker
``@pytest.mark.local_cloud(compute_hosts=5, build_time=1.0, ...)`` sets
:class:`~occli.localcloud.cloud.Config` fields (and ``services``).

unittest, or any code::

    with occli.testing.local_cloud() as cloud:
        ...

    @occli.testing.local_cloud()
    def test_boot(self, cloud):
        ...

See doc/source/testing.rst for a worked example.
"""

from occli.testing.cloud import CloudFixture
from occli.testing.cloud import LoggedRequest
from occli.testing.cloud import local_cloud
from occli.testing.cloud import start_local_cloud

__all__ = ["CloudFixture", "LoggedRequest", "local_cloud", "start_local_cloud"]
