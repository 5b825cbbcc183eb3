"""The object storage commands: ``container …``, ``object …``,
``object store account …``."""
