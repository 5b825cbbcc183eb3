"""Shelve, shelve-offload and unshelve, as nova's compute API and
conductor do them.

A shelved server (SHELVED) is powered off but keeps its host; offloaded
(SHELVED_OFFLOADED) it has no host or node, so the scheduler's usage no
longer counts it. ``Config.shelved_offload_time`` is nova's
``[DEFAULT] shelved_offload_time``: 0 (nova's default, and the real
Nova's) offloads as part of the shelve, -1 never; this cloud has no
periodic task, so a positive value behaves as -1. Unshelving an offloaded
server schedules it again (a zone from 2.77, a host from 2.91 for
admins); unshelving a shelved one starts it where it is.

Shelving an image-backed server snapshots it to an image ``<name>-shelved``
(nova's ``shelved_image_id``, kept in ``compute_shelved_images``), deleted
when the server is unshelved or deleted.
"""

import json

from occli.localcloud import errors
from occli.localcloud.compute import actions
from occli.localcloud.compute import aggregates
from occli.localcloud.compute import hosts
from occli.localcloud.compute import quotas
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import snapshots
from occli.localcloud.compute import states

SHELVE_STATES = ("active", "stopped", "paused", "suspended")
# unshelve's ``availability_zone`` left out (nova's ``_sentinel``)
UNSET = object()

_OFFLOADED = {"vm_state": "shelved_offloaded", "host": None, "node": None}


def shelve(
    db, caller, server, offload_time=0, images=None, owner_names=(None, None), build_time=0
):
    """Shelve ``server``; offloaded too when ``offload_time`` is 0. An
    image-backed server is snapshot to ``images`` (the image service, if
    any; ``owner_names``: its owner's project and user names)."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "shelve", SHELVE_STATES)
    if server["image_ref"] and images is not None:
        image_id = snapshots._create(
            db,
            caller,
            server,
            images,
            "%s-shelved" % server["name"],
            "snapshot",
            {},
            owner_names,
            build_time,
        )
        db.execute(
            "INSERT OR REPLACE INTO compute_shelved_images (server_id, image_id) VALUES (?, ?)",
            (server["id"], image_id),
        )
    tasks = ["shelving", "shelving_image_pending_upload", "shelving_image_uploading"]
    end = {"vm_state": "shelved", "power_state": states.SHUTDOWN}
    if not server["image_ref"] or offload_time == 0:
        # volume-backed servers are offloaded at once (no snapshot)
        tasks = (tasks if server["image_ref"] else ["shelving"]) + ["shelving_offloading"]
        end.update(_OFFLOADED)
    actions._start(db, server, tasks, end)


def shelve_offload(db, caller, server):
    """Remove a shelved ``server`` from its host (admin by nova's policy)."""
    caller.require_admin("os_compute_api:os-shelve:shelve_offload")
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "shelveOffload", ("shelved",))
    actions._start(db, server, ["shelving_offloading"], dict(_OFFLOADED))


def forget_image(db, images, server):
    """Delete the server's shelved image (unshelved or deleted), if any."""
    row = db.execute(
        "SELECT image_id FROM compute_shelved_images WHERE server_id = ?", (server["id"],)
    ).fetchone()
    if row is None:
        return
    db.execute("DELETE FROM compute_shelved_images WHERE server_id = ?", (server["id"],))
    if images is not None and images.get_image(db, row["image_id"]) is not None:
        images.delete_image(db, row["image_id"])


def unshelve(db, caller, server, zone=UNSET, host=None, images=None, config=None):
    """Nova's ``compute_api.unshelve``: ``zone`` (2.77; None unpins the
    server) and ``host`` (2.91, admin) only for an offloaded server."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "unshelve", ("shelved", "shelved_offloaded"))
    offloaded = server["vm_state"] == "shelved_offloaded"
    if offloaded:
        check_quota(db, server, config)
    zone_given = zone is not UNSET
    if (zone_given or host) and not offloaded:
        raise errors.Conflict(
            'Specifying an availability zone or a host when unshelving server "%s" with'
            ' status "%s" is not supported. The server status must be SHELVED_OFFLOADED.'
            % (server["id"], server["vm_state"])
        )
    if zone_given and zone and zone not in scheduler.available_zones(db):
        raise errors.BadRequest("The requested availability zone is not available")
    pinned = zone if zone_given else server["pinned_availability_zone"]
    if host:
        caller.require_admin("os_compute_api:os-shelve:unshelve_to_host")
        if host not in hosts.compute_hosts(db):
            raise errors.BadRequest("Compute host %s could not be found." % host)
        if pinned is not None and aggregates.host_zone(db, host) != pinned:
            raise errors.Conflict(
                'Host "%s" is not in the availability zone "%s".' % (host, pinned)
            )
    server["pinned_availability_zone"] = pinned
    if not offloaded:
        forget_image(db, images, server)
        end = {"vm_state": "active", "power_state": states.RUNNING}
        actions._start(db, server, ["unshelving", "powering-on"], end)
        return
    spec = scheduler.RequestSpec(
        scheduler.server_resources(server), zone=pinned, requested_host=host
    )
    destinations = scheduler.select_destinations(db, spec, [server["id"]])
    if destinations is None:
        # nova's conductor: NoValidHost leaves the server offloaded
        actions._start(db, server, ["unshelving"], {}, failure=scheduler.NO_VALID_HOST)
        return
    forget_image(db, images, server)
    chosen = destinations[0]
    end = {
        "vm_state": "active",
        "power_state": states.RUNNING,
        "host": chosen,
        "node": chosen,
        "availability_zone": aggregates.host_zone(db, chosen),
    }
    actions._start(db, server, ["unshelving", "spawning"], end)


def check_quota(db, server, config=None):
    """Nova's ``_check_quota_unshelve_offloaded``, with cores and RAM
    counted as placement counts them (an offloaded server uses none): the
    server's cores and RAM must fit again. Creates count every server, so
    this refuses only after the project's quota was lowered meanwhile:
    403 ``Quota exceeded for resources: ['cores']``."""
    flavor = json.loads(server["flavor"])
    limit = quotas.limits(db, server["project_id"], config)
    cores, ram = db.execute(
        "SELECT TOTAL(json_extract(flavor, '$.vcpus')), TOTAL(json_extract(flavor, '$.ram'))"
        " FROM servers WHERE project_id = ? AND deleted = 0"
        " AND vm_state != 'shelved_offloaded'",
        (server["project_id"],),
    ).fetchone()
    wanted = {"cores": (cores, flavor["vcpus"]), "ram": (ram, flavor["ram"])}
    overs = sorted(
        name
        for name, (used, delta) in wanted.items()
        if limit[name] >= 0 and used + delta > limit[name]
    )
    if overs:
        raise errors.OverLimit("Quota exceeded for resources: %s" % overs)
