"""The service catalog handed out with project-scoped tokens."""

import uuid

INTERFACES = ("public", "internal", "admin")

# (type, name, URL template, needs a project)
CATALOG = (
    ("identity", "keystone", "{base}/v3", False),
    ("compute", "nova", "{base}/compute/v2.1", False),
    ("image", "glance", "{base}/image", False),
    ("network", "neutron", "{base}/network", False),
    ("orchestration", "heat", "{base}/orchestration/v1/{project_id}", True),
    ("object-store", "swift", "{base}/object-store/v1/AUTH_{project_id}", True),
    ("volumev3", "cinderv3", "{base}/volume/v3/{project_id}", True),
    ("block-storage", "cinder", "{base}/volume/v3/{project_id}", True),
)

_ID_NAMESPACE = uuid.UUID("6f0f3c8e-5a53-4a8e-9d55-7c1c2c0a6e4b")


def stable_id(*parts):
    """A uuid5 hex of ``parts``: the same in every data dir."""
    return uuid.uuid5(_ID_NAMESPACE, "/".join(parts)).hex


def catalog(base_url, project_id, region):
    """The service catalog for ``base_url``; project-bound endpoints are
    omitted when ``project_id`` is None."""
    services = []
    for stype, name, template, needs_project in CATALOG:
        if needs_project and not project_id:
            continue
        url = template.format(base=base_url, project_id=project_id)
        services.append(
            {
                "endpoints": [
                    {
                        "id": stable_id("endpoint", stype, interface),
                        "interface": interface,
                        "region": region,
                        "region_id": region,
                        "url": url,
                    }
                    for interface in INTERFACES
                ],
                "id": stable_id("service", stype),
                "type": stype,
                "name": name,
            }
        )
    return services
