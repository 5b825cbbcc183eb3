"""Address scope commands (Neutron): ``address scope …``."""
