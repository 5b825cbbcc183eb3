"""Heat v1 software configs and software deployments of the local cloud.

Mounted at ``/orchestration``; the API lives under ``/v1/{project_id}/``.
Behaviour follows heat's API controllers, engine and DB layer (CONTRACT.md
§4), quirks included. Layout, the same for every local-cloud service:

* :mod:`.api` — the ``Service``: routes, request checks, views, heat's
  error body (``error.type`` from a domain error's ``type``);
* rules, over a sqlite3 connection and plain values, raising
  :mod:`occli.localcloud.errors`: :mod:`.configs`, :mod:`.deployments`,
  :mod:`.signals` (TEMP_URL_SIGNAL polling), :mod:`.templates`
  (``POST /validate`` and its bounds), :mod:`.config_io` (input/output
  normalising), :mod:`.fields` (string columns, nesting, heat's 500s);
* :mod:`.migrations` — the tables (store component ``orchestration``).
"""

from occli.localcloud.orchestration.api import HEAT_PARITY_500S, OrchestrationService
from occli.localcloud.orchestration.config_io import IO_TYPES, normalise_ios
from occli.localcloud.orchestration.fields import (
    COMPLETE,
    FAILED,
    IN_PROGRESS,
    MAX_NESTING,
    too_deep,
)
from occli.localcloud.orchestration.signals import (
    SIGNAL_OUTPUTS,
    apply_signal,
    owns_signal_account,
    parse_signal_url,
    signal_details,
    write_signal,
)
from occli.localcloud.orchestration.templates import (
    MAX_TEMPLATE_SIZE,
    MAX_VALIDATE_RESPONSE,
    TemplateLimitExceeded,
    check_template_size,
    check_validate_response,
    parse_template,
    validate_template,
)

__all__ = [
    "COMPLETE", "FAILED", "HEAT_PARITY_500S", "IN_PROGRESS", "IO_TYPES",
    "MAX_NESTING", "MAX_TEMPLATE_SIZE", "MAX_VALIDATE_RESPONSE",
    "SIGNAL_OUTPUTS", "OrchestrationService", "TemplateLimitExceeded",
    "apply_signal", "check_template_size", "check_validate_response",
    "normalise_ios", "owns_signal_account", "parse_signal_url", "parse_template",
    "signal_details", "too_deep", "validate_template", "write_signal",
]
