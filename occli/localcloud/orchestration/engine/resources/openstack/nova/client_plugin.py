"""What Heat's Nova and Glance client plugins do for the Nova resource
types (``heat/engine/clients/os/nova.py``, ``glance.py``): name-or-id
lookups, the server status rules, metadata serialisation, user data.

Every call goes to the local services through the stack's
:class:`~occli.localcloud.orchestration.engine.clients.Clients`. Nova is
called at microversion 2.91, as a Heat whose operator set
``max_nova_api_microversion = 2.91``: the newest at which Nova still
generates a key pair's private key (``OS::Nova::KeyPair`` without
``public_key``) and past the personality removal (2.57).
"""

import json
from collections.abc import Mapping
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients

MICROVERSION = "2.91"
HEADERS = {"OpenStack-API-Version": "compute %s" % MICROVERSION}
# heat's NovaClientPlugin.deferred_server_statuses
DEFERRED_SERVER_STATUSES = frozenset(
    (
        "BUILD",
        "HARD_REBOOT",
        "PASSWORD",
        "REBOOT",
        "RESCUE",
        "RESIZE",
        "REVERT_RESIZE",
        "SHUTOFF",
        "SUSPENDED",
        "VERIFY_RESIZE",
    )
)


def nova(clients: Clients, method: str, path: str, body: Any = None) -> Any:
    """One compute call at :data:`MICROVERSION`; the answer's body."""
    return clients.request("compute", method, path, json_body=body, headers=HEADERS).body


def fetch_server(clients: Clients, server_id: str) -> dict[str, Any] | None:
    """The server as Nova shows it, None once it is gone."""
    try:
        return dict(nova(clients, "GET", "/servers/%s" % server_id)["server"])
    except ClientError as exc:
        if exc.not_found:
            return None
        raise


def get_status(server: Mapping[str, Any]) -> str:
    return str(server["status"]).split("(")[0]


def check_active(clients: Clients, server_id: str) -> bool:
    """True once ACTIVE, False while deferred; Heat's errors otherwise."""
    server = fetch_server(clients, server_id)
    if server is None:
        return False
    status = get_status(server)
    if status in DEFERRED_SERVER_STATUSES:
        return False
    if status == "ACTIVE":
        return True
    if status == "ERROR":
        fault = server.get("fault") or {}
        raise exception.ResourceInError(
            resource_status=status,
            status_reason="Message: %s, Code: %s"
            % (fault.get("message", "Unknown"), fault.get("code", "Unknown")),
        )
    raise exception.ResourceUnknownStatus(
        resource_status=server["status"], result="Server is not active"
    )


def check_delete_server_complete(clients: Clients, server_id: str) -> bool:
    """Wait until the server is gone from Nova (heat's rule)."""
    server = fetch_server(clients, server_id)
    if server is None:
        return True
    if server.get("OS-EXT-STS:task_state") == "deleting":
        return False
    status = get_status(server)
    if status == "DELETED":
        return True
    if status == "SOFT_DELETED":
        nova(clients, "POST", "/servers/%s/action" % server_id, {"forceDelete": None})
    elif status == "ERROR":
        fault = server.get("fault") or {}
        raise exception.ResourceInError(
            resource_status=status,
            status_reason="Server %s delete failed: (%s) %s"
            % (server.get("name"), fault.get("code"), fault.get("message", "Unknown")),
        )
    return False


def find_flavor_id(clients: Clients, flavor: str) -> str:
    """A flavor's id from its id or name (novaclient's ``flavors.get`` then
    ``flavors.find(name=)``)."""
    try:
        return str(nova(clients, "GET", "/flavors/%s" % flavor)["flavor"]["id"])
    except ClientError as exc:
        if not exc.not_found:
            raise
    for found in nova(clients, "GET", "/flavors/detail", None)["flavors"]:
        if found["name"] == flavor:
            return str(found["id"])
    raise ClientError(404, "No Flavor matching {'name': '%s'}." % flavor)


def get_image(clients: Clients, image: str) -> dict[str, Any]:
    """An image by id or name (heat's glance client plugin, its texts)."""
    try:
        return dict(clients.get("image", "/v2/images/%s" % image).body)
    except ClientError as exc:
        if exc.status not in (400, 404):
            raise
    found = clients.get("image", "/v2/images", query={"name": image}).body["images"]
    if not found:
        raise ClientError(404, "The Image (%s) could not be found." % image)
    if len(found) > 1:
        raise ClientError(409, "Multiple physical resources were found with name (%s)." % image)
    return dict(found[0])


def find_image_id(clients: Clients, image: str) -> str:
    return str(get_image(clients, image)["id"])


def meta_serialize(metadata: Any) -> dict[str, str]:
    """Nova's metadata: strings as they are, anything else as JSON."""
    if not isinstance(metadata, Mapping):
        raise errors.BadRequest(
            "nova server metadata needs to be a Map.", type="StackValidationFailed"
        )
    return {k: v if isinstance(v, str) else json.dumps(v) for k, v in metadata.items()}


def build_userdata(
    metadata: Mapping[str, Any], userdata: str | None, user_data_format: str
) -> Any:
    """The user data Nova receives (heat's ``build_userdata``): RAW as
    given; otherwise a multipart MIME of the user data and, when there is
    metadata, the ``cfn-init-data`` part. Heat's cloud-init boot helpers
    (its ``heat/cloudinit`` files) are left out: no VM runs them here."""
    if user_data_format == "RAW":
        return userdata
    parts: list[tuple[str, str, str | None]] = []
    if user_data_format == "HEAT_CFNTOOLS":
        parts.append((userdata or "", "cfn-userdata", "x-cfninitdata"))
    else:
        parts.append((userdata or "", "", None))
    if metadata:
        parts.append((json.dumps(metadata), "cfn-init-data", "x-cfninitdata"))
    subparts = []
    for content, filename, subtype in parts:
        try:
            content.encode("us-ascii")
            charset = "us-ascii"
        except UnicodeEncodeError:
            charset = "utf-8"
        part = MIMEText(content, subtype or "plain", charset)
        part.add_header("Content-Disposition", "attachment", filename=filename)
        subparts.append(part)
    return MIMEMultipart(_subparts=subparts).as_string()
