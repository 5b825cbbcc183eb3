"""The service catalog handed out with project-scoped tokens: every
registered service's ``CATALOG`` entries (:mod:`occli.localcloud.registry`),
in the registry's order."""

import uuid

from occli.localcloud import registry

INTERFACES = ("public", "internal", "admin")

_ID_NAMESPACE = uuid.UUID("6f0f3c8e-5a53-4a8e-9d55-7c1c2c0a6e4b")


def stable_id(*parts):
    """A uuid5 hex of ``parts``: the same in every data dir."""
    return uuid.uuid5(_ID_NAMESPACE, "/".join(parts)).hex


def catalog(base_url: str, project_id: str | None, region: str) -> list[dict]:
    """The service catalog for ``base_url``; project-bound endpoints (a
    path with ``{project_id}``) are omitted when ``project_id`` is None."""
    services = []
    for stype, name, path in registry.catalog_entries():
        if "{project_id}" in path and not project_id:
            continue
        url = base_url + path.format(project_id=project_id)
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
