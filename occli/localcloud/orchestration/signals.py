"""TEMP_URL_SIGNAL: deployments signalled through a Swift object.

Reading one IN_PROGRESS deployment whose config says
``deploy_signal_transport: TEMP_URL_SIGNAL`` polls the object named by
``deploy_signal_id`` and applies it as a signal (:func:`apply_signal`). Heat
reads it with the caller's own Swift credentials; here the object is read
only if the deployment's project owns its account
(:func:`owns_signal_account`) or the URL is a valid temp URL for it; any
other object is treated exactly like a missing one.

``swift`` below is the cloud's object store (``cloud.objectstore``: its
``read_object(db, account, container, name)`` and ``signed_object(db,
url)``), or None when none is mounted.
"""

import json
import re
from urllib.parse import unquote
from urllib.parse import urlparse

from occli.localcloud import errors
from occli.localcloud.orchestration import deployments
from occli.localcloud.orchestration import fields
from occli.localcloud.orchestration.fields import COMPLETE
from occli.localcloud.orchestration.fields import FAILED
from occli.localcloud.orchestration.fields import IN_PROGRESS
from occli.localcloud.orchestration.fields import MAX_NESTING

SIGNAL_OUTPUTS = ("deploy_stdout", "deploy_stderr", "deploy_status_code")
_TEMP_URL_PATH = re.compile(r"(?:^|/)v1/(AUTH_[^/]+)/([^/]+)/(.+)$")


def apply_signal(deployment, config, details):
    """Heat's ``signal_software_deployment`` rules as a pure function.

    ``deployment`` has ``status`` and ``output_values``; ``config`` has
    ``outputs``; ``details`` is the JSON the in-server agent sent. Returns
    the changes (``status``, ``status_reason``, ``output_values``) to store,
    or ``{}`` when the deployment is not IN_PROGRESS (signal ignored).
    """
    if deployment.get("status") != IN_PROGRESS:
        return {}
    details = details or {}
    output_values = deployment.get("output_values")
    output_values = dict(output_values) if isinstance(output_values, dict) else {}
    status = None
    reasons = {}
    code = details.get("deploy_status_code")
    if code and str(code) != "0":
        status = FAILED
        reasons["deploy_status_code"] = "Deployment exited with non-zero status code: %s" % code
    for output in config.get("outputs") or []:
        key = output["name"]
        if key in details:
            output_values[key] = details[key]
            if output.get("error_output", False):
                status = FAILED
                reasons[key] = details[key]
    for key in SIGNAL_OUTPUTS:
        output_values[key] = details.get(key)
    if status == FAILED:
        reason = ", ".join("%s : %s" % (k, v) for k, v in reasons.items())
    else:
        status, reason = COMPLETE, "Outputs received"
    return {"status": status, "status_reason": reason, "output_values": output_values}


def parse_signal_url(url):
    """``(account, container, object)`` of a Swift temp URL, or ``None``.

    Accepts this cloud's ``…/object-store/v1/AUTH_<p>/<c>/<o>`` as well as
    the bare ``/v1/AUTH_<p>/<c>/<o>`` form.
    """
    if not isinstance(url, str):
        return None
    try:
        path = urlparse(url).path
    except ValueError:  # e.g. an unclosed "[" in the host
        return None
    m = _TEMP_URL_PATH.search(unquote(path))
    return m.groups() if m else None


def owns_signal_account(deployment_project, account):
    """Whether Swift ``account`` belongs to ``deployment_project``.

    Heat reads a signal object with the caller's own Swift credentials, so
    it only ever sees its own project's objects. Here a deployment reads an
    object of its own project's account, or one its URL is a valid temp URL
    for (as the in-server agent's PUT URL is); nothing else.
    """
    return account == "AUTH_" + deployment_project


def signal_details(body):
    """The agent's signal JSON (an object) from a Swift object body.

    Raises ValueError with heat's "Invalid signal data" text otherwise.
    """
    try:
        details = json.loads(bytes(body))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError("Invalid signal data: %s" % exc) from None
    if not isinstance(details, dict):
        raise ValueError("Invalid signal data: not a JSON object")
    if fields.too_deep(details):
        raise ValueError("Invalid signal data: nested more than %d levels" % MAX_NESTING)
    return details


def write_signal(store, row, changes, timestamp):
    """Store a polled signal's ``changes`` in a short write transaction.

    A read runs in a read-only transaction, so the poll writes through one
    of its own, and only if deployment ``row`` is still as it was read
    (IN_PROGRESS, same ``updated_at``): of concurrent polls one applies the
    signal and the others get its result, so it is never applied twice; an
    update in between wins and the object, still newer, is there for the
    next poll. Returns the row as stored (None if it was deleted).
    """
    sql, values = deployments.set_clause(changes, timestamp)
    with store.transaction() as db:
        db.execute(
            "UPDATE heat_software_deployments SET "
            + sql
            + " WHERE id = ? AND status = ? AND updated_at IS ?",
            values + [row["id"], IN_PROGRESS, row["updated_at"]],
        )
        return db.execute(
            "SELECT * FROM heat_software_deployments WHERE id = ?", (row["id"],)
        ).fetchone()


def _signal_location(db, row, config, swift):
    """``(account, container, object)`` of the signal object deployment
    ``row`` polls, or None: not TEMP_URL_SIGNAL, no object store, or an
    object of another project without a valid temp URL for it."""
    values = {i.get("name"): i.get("value") for i in config["inputs"]}
    if values.get("deploy_signal_transport") != "TEMP_URL_SIGNAL" or swift is None:
        return None
    url = values.get("deploy_signal_id")
    location = parse_signal_url(url)
    if location is not None and owns_signal_account(row["project_id"], location[0]):
        return location
    return swift.signed_object(db, url)


def poll(db, store, row, swift):
    """Deployment ``row`` (IN_PROGRESS) with its signal object applied if
    there is one newer than the deployment; writes through ``store``.

    "Newer" compares the object's exact timestamp with ``updated_at``, or
    ``created_at`` if never updated (heat applies any object then). Like
    heat, the deployment's ``updated_at`` becomes the object's time, so the
    same object is never applied twice. Only an object the deployment may
    read is looked at; for any other the answer is that of a missing one.
    """
    config = json.loads(
        db.execute(
            "SELECT body FROM heat_software_configs WHERE id = ?", (row["config_id"],)
        ).fetchone()["body"]
    )
    location = _signal_location(db, row, config, swift)
    if location is None:
        return row
    obj = swift.read_object(db, *location)
    since = row["updated_at"] or row["created_at"]
    if obj is None or not obj["body"] or obj["timestamp"] <= since:
        return row
    try:
        details = signal_details(obj["body"])
    except ValueError as exc:
        raise errors.BadRequest(str(exc), type="ValueError") from None
    deployment = {"status": row["status"], "output_values": fields.loads(row["output_values"])}
    changes = apply_signal(deployment, config, details)
    if not changes:
        return row
    fresh = write_signal(store, row, changes, obj["timestamp"])
    if fresh is None:
        raise errors.NotFound("Deployment with id %s not found" % row["id"], type="NotFound")
    return fresh
