"""Image sharing commands (Glance members): ``image add project``,
``image remove project``, ``image member list``, ``image member get``."""
