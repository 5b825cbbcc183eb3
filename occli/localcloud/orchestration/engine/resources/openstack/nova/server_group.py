"""``OS::Nova::ServerGroup`` (Heat's ``nova/server_group.py``): a server
group of the local Nova. Nova is called at 2.91, past 2.64, so the group
is made as Heat makes it there: ``policy`` (the first of ``policies``)
and ``rules``."""

from typing import Any

from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.nova import client_plugin as nova

P = properties.Schema


class ServerGroup(resource.Resource):
    """A Nova server group."""

    support_status = support.SupportStatus(version="2014.2")

    default_client_name = "compute"
    properties_schema = {
        "name": P(P.STRING, "Server Group name."),
        "policies": P(
            P.LIST,
            "A list of exactly one policy to apply. Defaults to anti-affinity.",
            default=["anti-affinity"],
            constraints=[
                constraints.AllowedValues(
                    ["anti-affinity", "affinity", "soft-anti-affinity", "soft-affinity"]
                )
            ],
            schema=P(P.STRING),
        ),
        "rules": P(
            P.MAP,
            "Rules for a policy.",
            schema={
                "max_server_per_host": P(
                    P.NUMBER,
                    "Maximum servers in a group on a given host. Rule for anti-affinity policy.",
                )
            },
        ),
    }

    def physical_resource_name(self) -> str:
        return str(self.properties["name"] or super().physical_resource_name())

    def _path(self) -> str:
        return "/os-server-groups/%s" % self.resource_id

    def handle_create(self) -> Any:
        body: dict[str, Any] = {
            "name": self.physical_resource_name(),
            "policy": self.properties["policies"][0],
        }
        rules = {k: v for k, v in (self.properties["rules"] or {}).items() if v is not None}
        if rules:
            body["rules"] = rules
        made = nova.nova(self.client(), "POST", "/os-server-groups", {"server_group": body})
        self.resource_id_set(made["server_group"]["id"])
        return None

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        return nova.nova(self.client(), "GET", self._path())["server_group"]

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
    return {"OS::Nova::ServerGroup": ServerGroup}
