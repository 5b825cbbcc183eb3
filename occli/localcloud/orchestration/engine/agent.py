"""The simulated in-server agent: os-collect-config and heat-config-notify
without a VM.

A real server runs os-collect-config, which reads the deployments Heat
pushed to it, runs each config, and heat-config-notify, which signals the
result back along the deployment's transport. Here :func:`tick` does the
signalling for the servers that have an agent: every ACTIVE server when
``Config.heat_simulated_agent`` is on, and any server whose Nova metadata
says ``"occli-simulated-agent": "true"`` (``"false"`` opts a server out).
Each deployment IN_PROGRESS for ``delay`` seconds (default
:data:`DEFAULT_DELAY`) gets the signal an agent sends: status code 0 and
empty output, or what the rule file (``Config.heat_agent_rules``) gives::

    # YAML or JSON; keys are fnmatch patterns matched against the
    # deployment's derived config name and its resource name
    # (deploy_resource_name); the first pattern that matches wins
    deploy_web:
      deploy_stdout: "hello"
      outputs: {result: "ok"}        # the config's declared outputs
    "fail-*":
      deploy_status_code: 1
      deploy_stderr: "boom"
      delay: 0                       # seconds IN_PROGRESS before signalling

The signal travels the agent's path: TEMP_URL_SIGNAL writes the result to
the deployment's signal object in Swift and reads the deployment (which
applies it, as Heat's poll does); HEAT_SIGNAL posts it to
``…/stacks/<deploy_stack_id>/resources/<deploy_resource_name>/signal``.
NO_SIGNAL deployments are COMPLETE already. Calls go through the project's
own trusted clients, so a signal object of another project is never
written.
"""

import fnmatch
import json
import logging
import os
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import yaml

from occli.localcloud import common
from occli.localcloud import validation
from occli.localcloud.app import Context
from occli.localcloud.orchestration import configs
from occli.localcloud.orchestration import deployments
from occli.localcloud.orchestration import signals
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients
from occli.localcloud.orchestration.fields import IN_PROGRESS

LOG = logging.getLogger(__name__)

# the server metadata key that turns the agent on or off for one server
METADATA_KEY = "occli-simulated-agent"
# seconds a deployment is IN_PROGRESS before the agent signals it
DEFAULT_DELAY = 1.0
# what a tick's caller should wait between ticks (seconds)
PERIOD = 0.5
# every project's deployments (a reader of the deployment rules)
_EVERYONE = Context(None, None, None, None, ["admin"])
_rules_cache: dict[str, tuple[float, dict[str, Any]]] = {}


def load_rules(path: str | None) -> dict[str, Any]:
    """The rule file's patterns (re-read when it changes); a missing or
    broken file is logged and counts as no rules."""
    if not path:
        return {}
    try:
        mtime = os.stat(path).st_mtime
        cached = _rules_cache.get(path)
        if cached is not None and cached[0] == mtime:
            return cached[1]
        with open(path, encoding="utf-8") as f:
            rules = yaml.safe_load(f) or {}
        if not isinstance(rules, dict):
            raise ValueError("the rules must be a mapping of patterns")
    except (OSError, ValueError, yaml.YAMLError) as exc:
        LOG.warning("Simulated agent rules %s not used: %s", path, exc)
        return {}
    _rules_cache[path] = (mtime, rules)
    return rules


def rule_for(rules: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """The first rule (in the file's order) whose pattern matches one of
    ``names``."""
    for pattern, rule in rules.items():
        if isinstance(rule, dict) and any(
            name and fnmatch.fnmatchcase(name, str(pattern)) for name in names
        ):
            return rule
    return {}


def details_of(rule: Mapping[str, Any]) -> dict[str, Any]:
    """The signal heat-config-notify sends for a rule's result."""
    details = dict(rule.get("outputs") or {})
    details.update(
        deploy_status_code=rule.get("deploy_status_code", 0),
        deploy_stdout=rule.get("deploy_stdout", ""),
        deploy_stderr=rule.get("deploy_stderr", ""),
    )
    return details


def has_agent(clients: Clients, server_id: str, enabled: bool) -> bool:
    """Whether server ``server_id`` runs the agent: it exists and is
    ACTIVE, and its metadata (else the cloud's setting) turns it on."""
    if not clients.has_service("compute"):
        return False
    if not validation.is_uuid(server_id):
        # not a server (a deployment's server_id is free text in Heat; a
        # path segment like "detail" would name another Nova route)
        return False
    try:
        body = clients.get("compute", "/servers/%s" % quote(server_id, safe="")).body
    except ClientError:
        return False
    server = body.get("server") if isinstance(body, dict) else None
    if not isinstance(server, dict) or server.get("status") != "ACTIVE":
        return False
    flag = (server.get("metadata") or {}).get(METADATA_KEY)
    if flag is None:
        return enabled
    return validation.bool_from_string(flag)


def send(clients: Clients, deployment_id: str, inputs: Mapping[str, Any], details: dict) -> bool:
    """Signal one deployment along its transport; whether it was sent."""
    transport = inputs.get("deploy_signal_transport")
    if transport == "TEMP_URL_SIGNAL":
        location = signals.parse_signal_url(inputs.get("deploy_signal_id"))
        if location is None or not signals.owns_signal_account(
            clients.context.project_id, location[0]
        ):
            return False
        clients.request(
            "object-store",
            "PUT",
            "/%s/%s" % (quote(location[1]), quote(location[2])),
            raw=json.dumps(details).encode(),
        )
        clients.get("orchestration", "/software_deployments/%s" % deployment_id)
        return True
    if transport == "HEAT_SIGNAL":
        stack, resource_name = inputs.get("deploy_stack_id"), inputs.get("deploy_resource_name")
        if not stack or not resource_name:
            return False
        path = "/stacks/%s/resources/%s/signal" % (
            "/".join(quote(p, safe="") for p in str(stack).split("/", 1)),
            quote(str(resource_name), safe=""),
        )
        clients.post("orchestration", path, details)
        return True
    return False


def tick(
    store: Any,
    clients_for_project: Callable[[str], Clients],
    config: Any,
    now: float | None = None,
) -> int:
    """Signal every deployment due, as each server's agent would; the
    number of signals sent.

    ``store`` is the cloud's store (read for the IN_PROGRESS deployments
    and their derived configs), ``clients_for_project(project_id)`` the
    engine's trusted :class:`Clients` acting in a project (the signals are
    sent with them), ``config`` the cloud's Config
    (``heat_simulated_agent``, ``heat_agent_rules``), ``now`` epoch seconds
    (default: the clock). The engine calls it every :data:`PERIOD` seconds
    from one of its scheduler's tasks; it never blocks on a signal, and a
    deployment it cannot signal is left IN_PROGRESS (logged).
    """
    now = common.utcnow().timestamp() if now is None else now
    enabled = bool(getattr(config, "heat_simulated_agent", False))
    rules = load_rules(getattr(config, "heat_agent_rules", None))
    with store.read() as db:
        pending = []
        for row in deployments.select(db, _EVERYONE):
            if row["status"] != IN_PROGRESS:
                continue
            derived = configs.find(db, _EVERYONE, row["config_id"])
            if derived is not None:
                pending.append((dict(row), dict(derived), json.loads(derived["body"])))
    sent = 0
    for row, derived, body in pending:
        inputs = {i.get("name"): i.get("value") for i in body.get("inputs") or []}
        rule = rule_for(
            rules, [derived["name"] or "", str(inputs.get("deploy_resource_name") or "")]
        )
        since = row["updated_at"] or row["created_at"]
        if now - since < float(rule.get("delay", DEFAULT_DELAY)):
            continue
        clients = clients_for_project(row["project_id"])
        try:
            if has_agent(clients, row["server_id"], enabled) and send(
                clients, row["id"], inputs, details_of(rule)
            ):
                sent += 1
        except ClientError as exc:
            LOG.warning("Simulated agent could not signal deployment %s: %s", row["id"], exc)
    return sent
