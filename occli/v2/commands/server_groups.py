"""Server group commands: ``server group create/list/show/delete``."""
