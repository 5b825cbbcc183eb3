"""A server's network pieces: ``server add/remove port|network|fixed ip|floating ip|security group``."""
