"""The body of a stack create, preview or update: Heat's
``InstantiationData`` (``heat/api/openstack/v1/stacks.py``) and
``prepare_args``, with Heat's texts.

The local cloud fetches nothing: a ``template_url`` is answered as Heat
answers a URL it cannot fetch, a ``files_container`` as Heat answers a
container it cannot read.
"""

from typing import Any
from urllib.parse import urlparse

from occli.localcloud import errors
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api.stack_common import bad_request
from occli.localcloud.orchestration.api.stack_common import extract_int
from occli.localcloud.orchestration.api.stack_common import extract_tags
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import formats

PARAMS = (
    "stack_name",
    "template",
    "template_url",
    "parameters",
    "environment",
    "files",
    "environment_files",
    "files_container",
)
_VERSION_KEYS = ("HeatTemplateFormatVersion", "heat_template_version", "AWSTemplateFormatVersion")


def _limit_exceeded(exc: ValueError) -> errors.BadRequest:
    return errors.BadRequest(str(exc), type="RequestLimitExceeded")


def parse_template(text: str) -> dict[str, Any]:
    """``template_format.parse`` of template text (the bounded loader of
    :mod:`occli.localcloud.orchestration.templates`), ValueError with
    Heat's text for anything but a versioned mapping."""
    try:
        tpl = templates.parse_template(text)
    except templates.TemplateLimitExceeded as exc:
        raise _limit_exceeded(exc) from None
    except ValueError as exc:
        message = str(exc)
        # heat names the template it failed on: "[root stack]"
        if message.startswith("Error parsing template: "):
            message = "Error parsing template [root stack] " + message[24:]
        raise ValueError(message) from None
    if tpl is None:
        tpl = {}
    if not isinstance(tpl, dict):
        raise ValueError("The template is not a JSON object or YAML mapping.")
    if not any(key in tpl for key in _VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return tpl


def _check_size(template: Any) -> None:
    try:
        templates.check_template_size(template)
    except templates.TemplateLimitExceeded as exc:
        raise _limit_exceeded(exc) from None


class InstantiationData:
    """The data of a ``POST /stacks`` (or preview, or update) body;
    ``patch``: a ``PATCH`` (``existing``), whose template may be absent."""

    def __init__(self, data: dict[str, Any], patch: bool = False) -> None:
        self.data = data
        self.patch = patch
        if patch:
            self.data["existing"] = True

    def stack_name(self) -> Any:
        if "stack_name" not in self.data:
            raise bad_request("No stack name specified")
        return self.data["stack_name"]

    def template(self) -> dict[str, Any] | None:
        """The template: from ``adopt_stack_data``, inline (an object, or
        JSON/YAML text) or, never fetched, ``template_url``."""
        data = self.data
        text = None
        if "adopt_stack_data" in data:
            try:
                adopt = _adopt_data(data["adopt_stack_data"])
                template = adopt["template"]
            except (ValueError, KeyError, TypeError) as exc:
                raise bad_request("Invalid adopt data: %s" % exc) from None
            _check_size(template)
            return template  # type: ignore[no-any-return]
        if "template" in data:
            text = data["template"]
            if isinstance(text, dict):
                _check_size(text)
                return text
        elif "template_url" in data:
            raise bad_request(
                "Could not retrieve template: %s" % _fetch_error(data["template_url"])
            )
        if text is None:
            if self.patch:
                return None
            raise bad_request("No template specified")
        if not isinstance(text, str):
            # heat's template_format.parse of a list: its TypeError, which
            # the FaultWrapper answers with webob's bare explanation
            raise bad_request(common.BAD_REQUEST)
        try:
            return parse_template(text)
        except ValueError as exc:
            raise bad_request("Template not in valid format: %s" % exc) from None

    def environment(self) -> dict[str, Any]:
        """The user environment (:func:`environment.parse_environment`,
        ``default_for_missing``) with the body's ``parameters`` over
        its own."""
        env: dict[str, Any] = {}
        if "environment" in self.data and not self.data.get("environment_files"):
            env = environment.parse_environment(self.data["environment"])
        environment.default_for_missing(env)
        merged = dict(env["parameters"]) if isinstance(env["parameters"], dict) else {}
        try:
            merged.update(self.data.get("parameters") or {})
        except (TypeError, ValueError) as exc:
            raise common.error(400, str(exc), "ValueError") from None
        env["parameters"] = merged
        return env

    def files(self) -> dict[str, Any]:
        files = self.data.get("files") or {}
        if not isinstance(files, dict):
            raise bad_request("Invalid files: %s, not a map" % (files,))
        container = self.data.get("files_container")
        if container is not None:
            raise errors.NotFound(
                "Could not fetch files from container %s, reason: the local cloud reads no "
                "files container." % container,
                type="NotFound",
            )
        return files

    def args(self) -> dict[str, Any]:
        """The other keys (``timeout_mins``, ``disable_rollback``, ``tags``,
        ``adopt_stack_data``, ``existing``, ``clear_parameters``…)."""
        return {k: v for k, v in self.data.items() if k not in PARAMS}

    def no_change(self) -> bool:
        """A PATCH that changes nothing (Heat's ``update_no_change``)."""
        return (
            self.template() is None
            and self.environment() == InstantiationData({}).environment()
            and not self.data.get("files")
            and not self.data.get("environment_files")
            and self.data.get("files_container") is None
            and not any(k != "existing" for k in self.args())
        )


def _adopt_data(adopt: Any) -> dict[str, Any]:
    """``template_format.simple_parse`` of ``adopt_stack_data`` (text; an
    object is taken as already parsed)."""
    if isinstance(adopt, str):
        adopt = templates.parse_template(adopt)
    if not isinstance(adopt, dict):
        raise ValueError("The template is not a JSON object or YAML mapping.")
    return adopt


def _fetch_error(url: Any) -> str:
    """``urlfetch.get``'s error for a URL it cannot fetch."""
    scheme = urlparse(str(url)).scheme
    if scheme not in ("http", "https"):
        return "Invalid URL scheme %s" % scheme
    return "Failed to retrieve template from %s" % url


def prepare_args(data: InstantiationData, is_update: bool = False) -> dict[str, Any]:
    """Heat's ``prepare_args`` (API) then ``api.extract_args`` (engine):
    the arguments the engine takes, checked with Heat's texts."""
    args = data.args()
    if "timeout_mins" in args:
        args["timeout_mins"] = extract_int("timeout_mins", args["timeout_mins"])
    if args.get("tags") is not None:
        if not isinstance(args["tags"], str):
            # Heat's extract_tags calls tags.split(","): any other JSON value
            # is its AttributeError, whose text the FaultWrapper hides
            raise common.error(400, None, "AttributeError")
        args["tags"] = extract_tags(args["tags"])
    if not is_update and "converge" in args:
        raise bad_request(
            "converge flag only supported in stack update (or update preview) request."
        )
    try:
        args = formats.extract_args(args)
    except ValueError as exc:
        raise common.error(400, str(exc), "ValueError") from None
    names = data.data.get("environment_files")
    if names:
        if not isinstance(names, list):
            raise bad_request("Invalid environment_files: %s, not a list" % (names,))
        # the engine merges them over the environment (merge_environments)
        args["environment_files"] = list(names)
    return args
