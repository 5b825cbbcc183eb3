"""Service catalog commands (Keystone): ``service …``, ``endpoint …``,
``region …``, ``catalog …``."""
