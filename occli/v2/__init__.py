"""Built-in managers: compute (Nova v2.1), image (Glance v2), orchestration (Heat v1)."""

MANAGERS = {
    "servers": "occli.v2.servers:ServerManager",
    "flavors": "occli.v2.flavors:FlavorManager",
    "images": "occli.v2.images:ImageManager",
    "keypairs": "occli.v2.keypairs:KeypairManager",
    "services": "occli.v2.services:ServiceManager",
    "hypervisors": "occli.v2.hypervisors:HypervisorManager",
    "limits": "occli.v2.limits:LimitsManager",
    "availability_zones": "occli.v2.availability_zones:AvailabilityZoneManager",
    "aggregates": "occli.v2.aggregates:AggregateManager",
    "software_configs": "occli.v2.software_configs:SoftwareConfigManager",
    "software_deployments": "occli.v2.software_deployments:SoftwareDeploymentManager",
    "object_store": "occli.v2.object_store:ObjectStoreManager",
}


def manager_mapping():
    """``{client attribute: "module:Class"}``, imported only when used."""
    return dict(MANAGERS)
