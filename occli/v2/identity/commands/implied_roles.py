"""Implied role commands (Keystone): ``implied role …``."""
