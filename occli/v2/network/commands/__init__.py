"""The network commands: ``network …``, ``subnet …``, ``port …``,
``security group …``, ``floating ip …``."""
