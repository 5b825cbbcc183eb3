"""Neutron (network v2.0): networks, subnets, ports, security groups,
floating IPs, quotas and extensions; :mod:`occli.v2.network.base` holds
their base manager."""
