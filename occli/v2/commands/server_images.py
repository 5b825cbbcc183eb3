"""Server snapshot and backup commands: ``server image create``, ``server backup create``."""
