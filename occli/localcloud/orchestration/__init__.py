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

from occli.localcloud.orchestration.api import HEAT_PARITY_500S
from occli.localcloud.orchestration.api import OrchestrationService
from occli.localcloud.orchestration.config_io import IO_TYPES
from occli.localcloud.orchestration.config_io import normalise_ios
from occli.localcloud.orchestration.fields import COMPLETE
from occli.localcloud.orchestration.fields import FAILED
from occli.localcloud.orchestration.fields import IN_PROGRESS
from occli.localcloud.orchestration.fields import MAX_NESTING
from occli.localcloud.orchestration.fields import too_deep
from occli.localcloud.orchestration.signals import SIGNAL_OUTPUTS
from occli.localcloud.orchestration.signals import apply_signal
from occli.localcloud.orchestration.signals import owns_signal_account
from occli.localcloud.orchestration.signals import parse_signal_url
from occli.localcloud.orchestration.signals import signal_details
from occli.localcloud.orchestration.signals import write_signal
from occli.localcloud.orchestration.templates import MAX_TEMPLATE_SIZE
from occli.localcloud.orchestration.templates import MAX_VALIDATE_RESPONSE
from occli.localcloud.orchestration.templates import TemplateLimitExceeded
from occli.localcloud.orchestration.templates import check_template_size
from occli.localcloud.orchestration.templates import check_validate_response
from occli.localcloud.orchestration.templates import parse_template
from occli.localcloud.orchestration.templates import validate_template

__all__ = [
    "COMPLETE",
    "FAILED",
    "HEAT_PARITY_500S",
    "IN_PROGRESS",
    "IO_TYPES",
    "MAX_NESTING",
    "MAX_TEMPLATE_SIZE",
    "MAX_VALIDATE_RESPONSE",
    "SIGNAL_OUTPUTS",
    "OrchestrationService",
    "TemplateLimitExceeded",
    "apply_signal",
    "check_template_size",
    "check_validate_response",
    "normalise_ios",
    "owns_signal_account",
    "parse_signal_url",
    "parse_template",
    "signal_details",
    "too_deep",
    "validate_template",
    "write_signal",
]
