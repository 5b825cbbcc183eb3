"""Heat's HTTP edge: :mod:`.service` holds ``OrchestrationService``."""
