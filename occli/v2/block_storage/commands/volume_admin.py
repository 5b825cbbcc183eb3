"""Cinder administration commands: ``volume service …``, ``volume host …``,
``volume backend pool …``, ``volume qos …``, ``volume group …``."""
