"""``OS::Nova::Flavor`` (Heat's ``nova/flavor.py``): a flavor of the local
Nova. Nova's policy lets only admins manage flavors: a member's stack
fails with Nova's own 403, as Heat's does.

A private flavor (``is_public: false``) is shared with ``tenants`` (ids or
names), else with the stack's project; an update replaces the extra specs
and the access list in place.
"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.nova import client_plugin as nova
from occli.localcloud.orchestration.engine.resources.openstack.nova.keypair import keystone_id

P = properties.Schema
A = attributes.Schema


class NovaFlavor(resource.Resource):
    """A Nova flavor."""

    support_status = support.SupportStatus(version="2014.2")

    default_client_name = "compute"
    properties_schema = {
        "tenants": P(
            P.LIST,
            "List of tenants.",
            update_allowed=True,
            default=[],
            schema=P(P.STRING),
        ),
        "flavorid": P(
            P.STRING,
            "Unique ID of the flavor. If not specified, an UUID will be auto generated and used.",
        ),
        "name": P(P.STRING, "Name of the flavor."),
        "ram": P(P.INTEGER, "Memory in MB for the flavor.", required=True),
        "vcpus": P(P.INTEGER, "Number of VCPUs for the flavor.", required=True),
        "disk": P(
            P.INTEGER,
            'Size of local disk in GB. The "0" size is a special case that uses the native '
            "base image size as the size of the ephemeral root volume.",
            default=0,
        ),
        "swap": P(P.INTEGER, "Swap space in MB.", default=0),
        "ephemeral": P(P.INTEGER, "Size of a secondary ephemeral data disk in GB.", default=0),
        "rxtx_factor": P(P.NUMBER, "RX/TX factor.", default=1.0),
        "extra_specs": P(
            P.MAP,
            "Key/Value pairs to extend the capabilities of the flavor.",
            update_allowed=True,
        ),
        "is_public": P(
            P.BOOLEAN,
            "Scope of flavor accessibility. Public or private. Default value is True, means "
            "public, shared across all projects.",
            default=True,
        ),
    }
    attributes_schema = {
        "is_public": A("Whether the flavor is shared across all projects.", type=A.BOOLEAN),
        "extra_specs": A("Extra specs of the flavor in key-value pairs.", type=A.MAP),
    }

    def _path(self) -> str:
        return "/flavors/%s" % self.resource_id

    def _tenants(self, tenants: list[str] | None) -> list[str]:
        """Project ids of ``tenants`` (Heat's translation by
        ``get_project_id``)."""
        return [keystone_id(self.client(), "projects", "project", t) for t in tenants or []]

    def handle_create(self) -> Any:
        props = self.properties
        flavor: dict[str, Any] = {
            "name": props["name"] or self.physical_resource_name(),
            "ram": props["ram"],
            "vcpus": props["vcpus"],
            "disk": props["disk"],
            "swap": props["swap"],
            "OS-FLV-EXT-DATA:ephemeral": props["ephemeral"],
            "rxtx_factor": props["rxtx_factor"],
            "os-flavor-access:is_public": props["is_public"],
        }
        # flavorid "auto" (heat's default): Nova picks a UUID
        if props["flavorid"] and props["flavorid"] != "auto":
            flavor["id"] = props["flavorid"]
        tenants = self._tenants(props["tenants"])
        clients = self.client()
        made = nova.nova(clients, "POST", "/flavors", {"flavor": flavor})["flavor"]
        self.resource_id_set(made["id"])
        if props["extra_specs"]:
            self._set_specs(props["extra_specs"])
        if not props["is_public"]:
            for tenant in tenants or [self.stack.project_id]:
                self._access("addTenantAccess", tenant)
        return None

    def _set_specs(self, specs: Mapping[str, Any]) -> None:
        body = {"extra_specs": {k: str(v) for k, v in specs.items()}}
        nova.nova(self.client(), "POST", self._path() + "/os-extra_specs", body)

    def _access(self, action: str, tenant: str) -> None:
        nova.nova(self.client(), "POST", self._path() + "/action", {action: {"tenant": tenant}})

    def _specs(self) -> dict[str, Any]:
        found = nova.nova(self.client(), "GET", self._path() + "/os-extra_specs")
        return dict(found["extra_specs"])

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        """Heat's: every old extra spec unset, the new ones set; the access
        list of a private flavor made the new one."""
        clients = self.client()
        if "extra_specs" in prop_diff:
            for key in self._specs():
                nova.nova(clients, "DELETE", self._path() + "/os-extra_specs/%s" % key)
            if prop_diff["extra_specs"]:
                self._set_specs(prop_diff["extra_specs"])
        if "tenants" in prop_diff and not self.properties["is_public"]:
            listed = nova.nova(clients, "GET", self._path() + "/os-flavor-access")
            old = {a["tenant_id"] for a in listed["flavor_access"]}
            new = set(self._tenants(prop_diff["tenants"]))
            for tenant in sorted(old - new):
                self._access("removeTenantAccess", tenant)
            for tenant in sorted(new - old):
                self._access("addTenantAccess", tenant)
        return None

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        return nova.nova(self.client(), "GET", self._path())["flavor"]

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == "is_public":
            return nova.nova(self.client(), "GET", self._path())["flavor"][
                "os-flavor-access:is_public"
            ]
        if name == "extra_specs":
            return self._specs()
        return None

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        try:
            nova.nova(self.client(), "DELETE", self._path())
        except ClientError as exc:
            if not exc.not_found:
                raise
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Nova::Flavor": NovaFlavor}
