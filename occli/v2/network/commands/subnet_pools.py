"""Subnet pool commands (Neutron): ``subnet pool …``."""
