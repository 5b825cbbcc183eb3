"""Heat's Neutron resource types, backed by the local network service."""
