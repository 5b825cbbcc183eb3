"""A local OpenStack cloud: Keystone v3, Nova v2.1, Neutron v2.0, Cinder v3,
Glance v2, Heat v1 and Swift APIs served over HTTP from one port, stored in
SQLite.

Run it with ``occli-localcloud start`` (see :mod:`occli.localcloud.cli`);
contributors read ``doc/localcloud-internals.md``.
"""
