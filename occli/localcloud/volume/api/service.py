"""``VolumeService``: Cinder's block storage API v3 at ``/volume``.

Version documents at ``/volume/`` (300) and ``/volume/v3`` (no token); the
API at ``/volume/v3/{project_id}/…`` and, as Cinder routes it, without the
project segment (``Service.api``). Microversions from the
``OpenStack-API-Version: volume 3.N`` header (:mod:`.microversions`);
Cinder's fault bodies (``{"badRequest": {"code", "message"}}``); one module
per resource with ``register(service)`` (``RESOURCES``), the rules in
:mod:`occli.localcloud.volume`'s :mod:`.volumes`, :mod:`.snapshots`,
:mod:`.types`, :mod:`.attachments` and :mod:`.quotas`.
"""

import re

from occli.localcloud import fault_names
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.volume import migrations
from occli.localcloud.volume import types as type_rules
from occli.localcloud.volume.api import attachments
from occli.localcloud.volume.api import backups
from occli.localcloud.volume.api import clusters
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import default_types
from occli.localcloud.volume.api import groups
from occli.localcloud.volume.api import hosts
from occli.localcloud.volume.api import limits
from occli.localcloud.volume.api import messages
from occli.localcloud.volume.api import metadata
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import pools
from occli.localcloud.volume.api import qos
from occli.localcloud.volume.api import quota_classes
from occli.localcloud.volume.api import quotas
from occli.localcloud.volume.api import resource_filters
from occli.localcloud.volume.api import services
from occli.localcloud.volume.api import snapshots
from occli.localcloud.volume.api import transfers
from occli.localcloud.volume.api import types
from occli.localcloud.volume.api import versions
from occli.localcloud.volume.api import volumes
from occli.localcloud.volume.api import zones

# The API modules, each with register(service), in route order.
RESOURCES = (
    versions,
    volumes,
    metadata,
    snapshots,
    types,
    attachments,
    quotas,
    transfers,
    backups,
    qos,
    default_types,
    messages,
    services,
    pools,
    zones,
    hosts,
    quota_classes,
    limits,
    resource_filters,
    groups,
    clusters,
)

_PROJECT_ID = re.compile(r"^[0-9a-fA-F\-]+$")

# cinder's policy rule of each write route: (method, pattern) -> rule
_RULES = {
    ("POST", "/volumes"): "volume:create",
    ("PUT", "/volumes/{volume_id}"): "volume:update",
    ("DELETE", "/volumes/{volume_id}"): "volume:delete",
    ("POST", "/volumes/{volume_id}/action"): "volume:extend",
    ("POST", "/volumes/{volume_id}/metadata"): "volume:create_volume_metadata",
    ("PUT", "/volumes/{volume_id}/metadata"): "volume:update_volume_metadata",
    ("PUT", "/volumes/{volume_id}/metadata/{key}"): "volume:update_volume_metadata",
    ("DELETE", "/volumes/{volume_id}/metadata/{key}"): "volume:delete_volume_metadata",
    ("POST", "/snapshots"): "volume:create_snapshot",
    ("PUT", "/snapshots/{snapshot_id}"): "volume:update_snapshot",
    ("DELETE", "/snapshots/{snapshot_id}"): "volume:delete_snapshot",
    ("POST", "/snapshots/{snapshot_id}/metadata"): "volume:update_snapshot_metadata",
    ("PUT", "/snapshots/{snapshot_id}/metadata"): "volume:update_snapshot_metadata",
    ("PUT", "/snapshots/{snapshot_id}/metadata/{key}"): "volume:update_snapshot_metadata",
    ("DELETE", "/snapshots/{snapshot_id}/metadata/{key}"): "volume:delete_snapshot_metadata",
    ("POST", "/os-volume-transfer"): "volume:create_transfer",
    ("POST", "/os-volume-transfer/{transfer_id}/accept"): "volume:accept_transfer",
    ("DELETE", "/os-volume-transfer/{transfer_id}"): "volume:delete_transfer",
    ("POST", "/volume-transfers"): "volume:create_transfer",
    ("POST", "/volume-transfers/{transfer_id}/accept"): "volume:accept_transfer",
    ("DELETE", "/volume-transfers/{transfer_id}"): "volume:delete_transfer",
    ("DELETE", "/messages/{message_id}"): "message:delete",
    ("POST", "/backups"): "backup:create",
    ("PUT", "/backups/{backup_id}"): "backup:update",
    ("DELETE", "/backups/{backup_id}"): "backup:delete",
    ("POST", "/backups/{backup_id}/restore"): "backup:restore",
    ("POST", "/backups/{backup_id}/action"): "volume_extension:backup_admin_actions:reset_status",
    ("POST", "/attachments"): "volume:attachment_create",
    ("PUT", "/attachments/{attachment_id}"): "volume:attachment_update",
    ("DELETE", "/attachments/{attachment_id}"): "volume:attachment_delete",
    ("POST", "/attachments/{attachment_id}/action"): "volume:attachment_complete",
}


class VolumeService(Service):
    """Cinder's block storage API v3 at ``/volume``."""

    name = "volume"
    prefix = "/volume"
    write_role = "member"
    # service.api(...) routes /v3<pattern> and /v3/{project_id}<pattern>
    api_prefix = "/v3"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.add_resources(RESOURCES)

    def migrations(self):
        return list(migrations.COMPONENTS)

    def seed(self, db):
        type_rules.seed(db)

    def before(self, req):
        # the version documents too (Cinder 29 answers them with the
        # version asked for, a 406 out of range)
        path = req.path.rstrip("/")
        if path not in (self.prefix, self.prefix + "/v3") and not path.startswith(
            self.prefix + "/v3/"
        ):
            return
        req.microversion = microversions.negotiate(req.header(microversions.HEADER))
        project_id = req.params.get("project_id")
        if project_id is None:
            return
        if not _PROJECT_ID.match(project_id):
            raise HTTPError(404, "The resource could not be found.")
        if req.context is not None and project_id != req.context.project_id:
            raise HTTPError(400, "Malformed request url")

    def after(self, req, resp):
        if req.microversion is not None:
            resp.headers[microversions.HEADER] = "volume %s" % req.microversion
            resp.headers["Vary"] = microversions.HEADER

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized", "message": message}}
        body = {"code": status, "message": message}
        headers = {}
        if status == 413 and "retryAfter" in extra:
            body["retryAfter"] = extra["retryAfter"]
            headers["Retry-After"] = extra["retryAfter"]
        return Response(status, {fault_names.fault_name(status): body}, headers=headers)

    def policy_denied(self, req, route):
        pattern = route.pattern.replace("/{project_id}", "", 1)[len(self.api_prefix) :]
        rule = _RULES.get((route.method, pattern), "volume:%s" % route.method.lower())
        return common.policy_denied(rule)
