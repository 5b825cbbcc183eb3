"""``/resource_filters`` (3.33, ``cinder/api/v3/resource_filters.py``): the
filters each list accepts, Cinder's default ``etc/cinder/resource_filters.json``
(an unknown ``resource`` lists none); any token reads them."""

from occli.localcloud.app import Response
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

# etc/cinder/resource_filters.json
FILTERS = {
    "volume": ["name", "status", "metadata", "bootable", "migration_status",
               "availability_zone", "group_id", "size", "created_at", "updated_at",
               "consumes_quota"],
    "backup": ["name", "status", "volume_id"],
    "snapshot": ["name", "status", "volume_id", "metadata", "availability_zone",
                 "consumes_quota"],
    "group": ["name"],
    "group_snapshot": ["name", "status", "group_id"],
    "attachment": ["volume_id", "status", "instance_id", "attach_status"],
    "message": ["resource_uuid", "resource_type", "event_id", "request_id", "message_level"],
    "pool": ["name", "volume_type"],
    "volume_type": ["is_public", "extra_specs"],
}  # fmt: skip


def register(service):
    service.api(
        "GET",
        "/resource_filters",
        list_resource_filters,
        min_version=microversions.RESOURCE_FILTER_CONFIG,
    )


def list_resource_filters(req):
    resource = common.query_params(req).get("resource")
    if not resource:
        found = FILTERS
    else:
        found = {resource: FILTERS[resource]} if resource in FILTERS else {}
    body = [{"resource": name, "filters": filters} for name, filters in found.items()]
    return Response(200, {"resource_filters": body})
