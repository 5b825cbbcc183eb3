"""A few vendor profiles for clouds.yaml's ``profile:``, as openstacksdk ships them.

Copied from openstacksdk's ``openstack/config/vendors/<name>.json``
(https://opendev.org/openstack/openstacksdk, commit 94758e92b6e7, August
2026; Apache-2.0), the ``profile`` part of each file unchanged. Used when
openstacksdk itself is not installed (its own directory is read then, see
:mod:`occli.profiles`). Profiles that only point to a URL (vexxhost, ovh)
are left out: occli does not fetch remote profiles.
"""

from typing import Any

#: ``{name: profile}``: each a clouds.yaml cloud entry's defaults.
VENDORS: dict[str, dict[str, Any]] = {
    # openstack/config/vendors/binero.json
    "binero": {
        "auth": {"auth_url": "https://auth.binero.cloud:5000/v3"},
        "identity_api_version": "3",
        "block_storage_api_version": "3",
        "regions": ["europe-se-1"],
    },
    # openstack/config/vendors/citycloud.json
    "citycloud": {
        "auth": {"auth_url": "https://{region_name}.citycloud.com:5000/v3/"},
        "regions": ["Buf1", "Fra1", "Sto2", "Kna1", "dx1", "tky1"],
        "requires_floating_ip": True,
        "block_storage_api_version": "3",
        "identity_api_version": "3",
        "image_format": "raw",
    },
    # openstack/config/vendors/dreamcompute.json
    "dreamcompute": {
        "auth": {"auth_url": "https://iad2.dream.io:5000"},
        "identity_api_version": "3",
        "region_name": "RegionOne",
        "image_format": "raw",
    },
    # openstack/config/vendors/elastx.json
    "elastx": {
        "auth": {"auth_url": "https://ops.elastx.cloud:5000/v3"},
        "identity_api_version": "3",
        "region_name": "se-sto",
    },
    # openstack/config/vendors/otc.json
    "otc": {
        "auth": {"auth_url": "https://iam.{region_name}.otc.t-systems.com/v3"},
        "regions": ["eu-de", "eu-nl"],
        "identity_api_version": "3",
        "interface": "public",
        "image_format": "qcow2",
        "vendor_hook": "otcextensions.sdk:load",
    },
    # openstack/config/vendors/rackspace.json
    "rackspace": {
        "auth": {"auth_url": "https://identity.api.rackspacecloud.com/v2.0/"},
        "identity_api_version": "2.0",
        "regions": ["DFW", "HKG", "IAD", "ORD", "SYD", "LON"],
        "database_service_type": "rax:database",
        "compute_service_name": "cloudServersOpenStack",
        "image_api_use_tasks": True,
        "image_format": "vhd",
        "floating_ip_source": "None",
        "secgroup_source": "None",
        "requires_floating_ip": False,
        "block_storage_endpoint_override": (
            "https://{region_name}.blockstorage.api.rackspacecloud.com/v2/"
        ),
        "block_storage_api_version": "2",
        "disable_vendor_agent": {"vm_mode": "hvm", "xenapi_use_agent": "False"},
        "has_network": False,
    },
    # openstack/config/vendors/switchengines.json
    "switchengines": {
        "auth": {"auth_url": "https://keystone.cloud.switch.ch:5000/v3"},
        "regions": ["LS", "ZH"],
        "identity_api_version": "3",
        "image_format": "raw",
    },
    # openstack/config/vendors/fuga.json (deprecated by its vendor)
    "fuga": {
        "auth": {
            "auth_url": "https://identity.api.fuga.io:5000",
            "user_domain_name": "Default",
            "project_domain_name": "Default",
        },
        "regions": ["cystack"],
        "identity_api_version": "3",
        "block_storage_api_version": "3",
        "status": "deprecated",
        "message": "the API Endpoint is no longer responsive",
    },
    # openstack/config/vendors/betacloud.json (shut down)
    "betacloud": {
        "auth": {"auth_url": "https://api-1.betacloud.de:5000"},
        "regions": ["betacloud-1"],
        "identity_api_version": "3",
        "image_format": "raw",
        "block_storage_api_version": "3",
        "status": "shutdown",
        "message": "betacloud.de has ceased business",
    },
}
