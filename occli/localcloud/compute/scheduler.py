"""A small nova scheduler: placement-style capacity plus the filter chain.

Nova's API accepts a create (202) and leaves the choice of a host to the
scheduler; when no host passes, the conductor puts the instance in
vm_state ``error`` with a ``NoValidHost`` fault (code 500). Here the
decision is taken when the create request is handled (nova schedules
within milliseconds of the API call); the outcome only becomes visible
after ``config.build_time`` through the lazy state machine (:mod:`states`).

Capacity (placement's inventory): per compute node, from ``compute_nodes``
(``vcpus``, ``memory_mb``, ``local_gb`` — the figures os-hypervisors
reports), ``capacity = (total - reserved) * allocation_ratio`` with nova's
defaults (cpu 16.0, ram 1.5, disk 1.0; 512 MB reserved host memory), and
no single request above the node's total (placement's ``max_unit``).
Usage is the sum of the flavors of the live servers on the host (a server
in ERROR that was never scheduled has no host, hence no usage).

Filters, in order: requested availability zone, forced host (``zone:host``,
admin: the remaining filters are skipped for it, as nova skips them for
forced hosts — its resources are still checked, as placement does),
compute service enabled and up (``ComputeFilter``), RAM/disk/vCPU fit,
``different_host`` and ``same_host`` scheduler hints, the server group
of the ``group`` hint (affinity: the members' host; anti-affinity: fewer
than ``max_server_per_host`` members). The weighers: the soft group
policies first (most or fewest members), then the historic spread:
fewest instances, then host order.

What a node holds is also what os-hypervisors reports of it
(:func:`node_usage`, :func:`statistics`).
"""

import json
import math

from occli.localcloud.compute import aggregates
from occli.localcloud.compute import hosts
from occli.localcloud.compute import migration_records

CPU_ALLOCATION_RATIO = 16.0
RAM_ALLOCATION_RATIO = 1.5
DISK_ALLOCATION_RATIO = 1.0
RESERVED_HOST_MEMORY_MB = 512
RESERVED_HOST_DISK_GB = 0
RESERVED_HOST_CPUS = 0

NO_VALID_HOST = "No valid host was found. There are not enough hosts available."
# What nova's conductor stores as the fault's details (a traceback, shown
# to admins only since the code is 500).
NO_VALID_HOST_DETAILS = (
    "Traceback (most recent call last):\n"
    '  File "/opt/stack/nova/nova/conductor/manager.py", line 1654, in '
    "schedule_and_build_instances\n"
    "    host_lists = self._schedule_instances(context, request_specs[0],\n"
    '  File "/opt/stack/nova/nova/conductor/manager.py", line 942, in '
    "_schedule_instances\n"
    "    host_lists = self.query_client.select_destinations(\n"
    '  File "/opt/stack/nova/nova/scheduler/manager.py", line 245, in '
    "select_destinations\n"
    "    raise exception.NoValidHost(reason=reason)\n"
    "nova.exception.NoValidHost: " + NO_VALID_HOST + "\n"
)


def resources(flavor, volume_backed=False):
    """Placement resources a flavor snapshot asks for (nova's
    ``resources_from_flavor``): root disk only when not volume-backed."""
    disk = flavor["ephemeral"] + int(math.ceil(flavor["swap"] / 1024.0))
    if not volume_backed:
        disk += flavor["disk"]
    return {"VCPU": flavor["vcpus"], "MEMORY_MB": flavor["ram"], "DISK_GB": disk}


def server_resources(server):
    """:func:`resources` of a server row (its ``flavor`` snapshot)."""
    return resources(json.loads(server["flavor"]), not server["image_ref"])


class HostState:
    """One compute node as the scheduler sees it (nova's ``HostState``)."""

    def __init__(self, node, zone):
        self.host = node["host"]
        self.zone = zone
        self.enabled = not node["disabled"]
        self.up = not node["forced_down"]
        self.total = {
            "VCPU": node["vcpus"],
            "MEMORY_MB": node["memory_mb"],
            "DISK_GB": node["local_gb"],
        }
        self.used = {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0}
        self.instances = set()

    @property
    def capacity(self):
        """Placement capacity: ``(total - reserved) * allocation_ratio``."""
        return {
            "VCPU": int((self.total["VCPU"] - RESERVED_HOST_CPUS) * CPU_ALLOCATION_RATIO),
            "MEMORY_MB": int(
                (self.total["MEMORY_MB"] - RESERVED_HOST_MEMORY_MB) * RAM_ALLOCATION_RATIO
            ),
            "DISK_GB": int(
                (self.total["DISK_GB"] - RESERVED_HOST_DISK_GB) * DISK_ALLOCATION_RATIO
            ),
        }

    def free(self):
        capacity = self.capacity
        return {rc: capacity[rc] - self.used[rc] for rc in capacity}

    def fits(self, wanted):
        """Placement's check: within capacity and each amount ≤ max_unit."""
        free = self.free()
        return all(
            amount <= free[rc] and amount <= self.total[rc] for rc, amount in wanted.items()
        )

    def consume(self, wanted, server_id):
        for rc, amount in wanted.items():
            self.used[rc] += amount
        self.instances.add(server_id)


def host_states(db):
    """``[HostState]`` of every compute node, with its current usage."""
    states_by_host = {}
    zones = aggregates.host_zones(db)
    for node in db.execute(
        "SELECT n.host, n.vcpus, n.memory_mb, n.local_gb, s.disabled,"
        " s.forced_down FROM compute_nodes n JOIN compute_services s"
        " ON s.host = n.host AND s.binary = ? ORDER BY s.id",
        (hosts.COMPUTE_BINARY,),
    ):
        zone = zones.get(node["host"], aggregates.DEFAULT_ZONE)
        states_by_host[node["host"]] = HostState(node, zone)
    # a server moving (resize, migration, evacuation) holds on both hosts
    for host, flavor, volume_backed, server_id in migration_records.usage(db):
        state = states_by_host.get(host)
        if state is not None:
            state.consume(resources(flavor, volume_backed), server_id)
    return list(states_by_host.values())


def statistics(db):
    """Nova's ``compute_node_statistics``: the sums over the nodes whose
    nova-compute service is enabled."""
    keys = (
        "count",
        "vcpus",
        "memory_mb",
        "local_gb",
        "vcpus_used",
        "memory_mb_used",
        "local_gb_used",
        "free_ram_mb",
        "free_disk_gb",
        "current_workload",
        "running_vms",
        "disk_available_least",
    )
    totals = dict.fromkeys(keys, 0)
    for row in hosts.nodes(db):
        if row["disabled"]:
            continue
        totals["count"] += 1
        for key, value in node_usage(db, row).items():
            totals[key] += value
    return totals


def node_usage(db, row):
    """What os-hypervisors reports of a node's use (before 2.88)."""
    usage = {"count": 0, "vcpus": 0, "ram": 0, "disk": 0, "busy": 0}
    for server in db.execute(
        "SELECT task_state FROM servers WHERE host = ? AND deleted = 0", (row["host"],)
    ):
        usage["count"] += 1
        usage["busy"] += server["task_state"] is not None
    # what the host holds, a server moving from or to it included
    for host, flavor, volume_backed, _ in migration_records.usage(db):
        if host == row["host"]:
            wanted = resources(flavor, volume_backed)
            usage["vcpus"] += wanted["VCPU"]
            usage["ram"] += wanted["MEMORY_MB"]
            usage["disk"] += wanted["DISK_GB"]
    free_disk = row["local_gb"] - usage["disk"]
    reserved = RESERVED_HOST_MEMORY_MB
    return {
        "vcpus": row["vcpus"],
        "memory_mb": row["memory_mb"],
        "local_gb": row["local_gb"],
        "vcpus_used": usage["vcpus"],
        "memory_mb_used": usage["ram"] + reserved,
        "local_gb_used": usage["disk"],
        "free_ram_mb": row["memory_mb"] - usage["ram"] - reserved,
        "free_disk_gb": free_disk,
        "current_workload": usage["busy"],
        "running_vms": usage["count"],
        "disk_available_least": free_disk,
    }


def available_zones(db):
    """Zones with at least one enabled service (nova's
    ``get_availability_zones(get_only_available=True)``), ``internal``
    included as nova does."""
    zones, host_zones = set(), aggregates.host_zones(db)
    for row in db.execute("SELECT binary, host FROM compute_services WHERE disabled = 0"):
        if row["binary"] == hosts.COMPUTE_BINARY:
            zones.add(host_zones.get(row["host"], aggregates.DEFAULT_ZONE))
        else:
            zones.add(hosts.INTERNAL_ZONE)
    return zones


def _hint_uuids(hints, key):
    value = hints.get(key)
    if not value:
        return None
    return {value} if isinstance(value, str) else set(value)


class RequestSpec:
    """What a create asks of the scheduler."""

    def __init__(
        self, wanted, zone=None, forced_host=None, requested_host=None, hints=None, group=None
    ):
        self.wanted = wanted
        self.zone = zone or None
        self.forced_host = forced_host or None
        self.requested_host = requested_host or None
        self.hints = hints or {}
        # the server group of the ``group`` hint (server_groups.placement)
        self.group = group


def host_passes(state, spec):
    """``(True, None)`` or ``(False, name of the first failing filter)``."""
    if spec.zone is not None and state.zone != spec.zone:
        return False, "AvailabilityZoneFilter"
    if spec.forced_host is not None:
        if state.host != spec.forced_host:
            return False, "ForcedHost"
        if not state.fits(spec.wanted):
            return False, "ResourceFilter"
        return True, None
    if spec.requested_host is not None and state.host != spec.requested_host:
        return False, "ForcedHost"
    if not (state.enabled and state.up):
        return False, "ComputeFilter"
    if not state.fits(spec.wanted):
        return False, "ResourceFilter"
    different = _hint_uuids(spec.hints, "different_host")
    if different and different & state.instances:
        return False, "DifferentHostFilter"
    same = _hint_uuids(spec.hints, "same_host")
    if same and not same & state.instances:
        return False, "SameHostFilter"
    return _group_passes(state, spec.group)


def _group_passes(state, group):
    """nova's ServerGroupAffinityFilter (the members' host, once there is
    one) and ServerGroupAntiAffinityFilter (fewer than
    ``max_server_per_host`` members on the host)."""
    if group is None:
        return True, None
    members = group["hosts"]
    if group["policy"] == "affinity" and members and state.host not in members:
        return False, "ServerGroupAffinityFilter"
    if group["policy"] == "anti-affinity" and members[state.host] >= group["max_per_host"]:
        return False, "ServerGroupAntiAffinityFilter"
    return True, None


def _group_weight(state, group):
    """The soft policies' weighers: most members first (soft-affinity),
    fewest first (soft-anti-affinity); 0 for other policies."""
    if group is None:
        return 0
    members = group["hosts"][state.host]
    return {"soft-affinity": -members, "soft-anti-affinity": members}.get(group["policy"], 0)


def select_host(states, spec):
    """The host state chosen for one instance, or None (NoValidHost)."""
    passing = [
        (_group_weight(s, spec.group), len(s.instances), index, s)
        for index, s in enumerate(states)
        if host_passes(s, spec)[0]
    ]
    if not passing:
        return None
    return min(passing, key=lambda item: item[:3])[3]


def select_destinations(db, spec, server_ids):
    """Hosts for every id of ``server_ids`` (one request, as nova's
    ``select_destinations``), consuming resources as it goes; None when any
    instance cannot be placed (the conductor then fails them all)."""
    states = host_states(db)
    chosen = []
    for server_id in server_ids:
        state = select_host(states, spec)
        if state is None:
            return None
        state.consume(spec.wanted, server_id)
        if spec.group is not None:
            spec.group["hosts"][state.host] += 1
        chosen.append(state.host)
    return chosen


def no_valid_host_fault():
    """The fault nova's conductor records (``created`` is set by
    :func:`states.advance` when the build ends)."""
    return {"code": 500, "message": NO_VALID_HOST, "details": NO_VALID_HOST_DETAILS}
