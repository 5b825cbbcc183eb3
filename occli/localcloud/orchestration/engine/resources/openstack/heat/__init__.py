"""Heat's native resource types (``heat/engine/resources/openstack/heat``):
random strings, values, test resources, software configs and deployments,
wait conditions; each module ends with ``resource_mapping()``."""
