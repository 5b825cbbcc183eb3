"""Environment files as Heat reads them (``heat/common/environment_format.py``).

The sections an environment may have, and the parse of the ``environment``
of a request (text or a JSON body's mapping) with Heat's texts; a refusal
is the 400 Heat's API answers (``Environment not in valid format: …``).
Part of :mod:`.environment`, which re-exports these names.
"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration import templates

SECTIONS = (
    PARAMETERS,
    RESOURCE_REGISTRY,
    PARAMETER_DEFAULTS,
    ENCRYPTED_PARAM_NAMES,
    EVENT_SINKS,
    PARAMETER_MERGE_STRATEGIES,
) = (
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
)


def _invalid(message: str) -> errors.BadRequest:
    """Heat API's ``parse_error_check('Environment')`` wrapping."""
    return errors.BadRequest(
        "Environment not in valid format: %s" % message, type="HTTPBadRequest"
    )


def validate_environment(env: Mapping[str, Any]) -> dict[str, Any]:
    """Heat's ``environment_format.validate``: known sections only, none
    empty."""
    for section in env:
        if section not in SECTIONS:
            raise _invalid('environment has wrong section "%s"' % section)
        if env[section] is None:
            raise _invalid('environment has empty section "%s"' % section)
    return dict(env)


def parse_environment(text_or_obj: Any) -> dict[str, Any]:
    """An environment (text, or a mapping as a JSON body gives it) checked
    as Heat's ``environment_format.parse``/``validate`` do; a refusal is
    the 400 Heat's API answers (``Environment not in valid format: …``).
    Text is parsed by the bounded template loader."""
    if text_or_obj is None:
        return {}
    env = text_or_obj
    if isinstance(env, bytes):
        env = env.decode("utf-8", "replace")
    if isinstance(env, str):
        try:
            env = templates.parse_template(env)
        except templates.TemplateLimitExceeded as exc:
            raise errors.BadRequest(str(exc), type="RequestLimitExceeded") from None
        except ValueError as exc:
            raise _invalid(str(exc).removeprefix("Error parsing template: ")) from None
        if env is None:
            env = {}
    if not isinstance(env, dict):
        raise _invalid("The environment is not a valid YAML mapping data type.")
    return validate_environment(env)


def default_for_missing(env: dict[str, Any]) -> dict[str, Any]:
    """Heat's ``environment_format.default_for_missing``: every section
    (lists for ``encrypted_param_names``/``event_sinks``)."""
    for section in SECTIONS:
        if section not in env and section != PARAMETER_MERGE_STRATEGIES:
            env[section] = [] if section in (ENCRYPTED_PARAM_NAMES, EVENT_SINKS) else {}
    return env
