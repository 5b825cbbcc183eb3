"""The base of Heat's Neutron resource types and Neutron name lookups
(``heat/engine/resources/openstack/neutron/neutron.py`` and the neutron
client plugin, ``heat/engine/clients/os/neutron/__init__.py``).

A Neutron resource is one entity of the local Neutron: created with
``POST /v2.0/<entity>s``, shown with ``GET``, deleted with ``DELETE``
(already gone counts as deleted), its attributes the keys of the entity
as Neutron shows it.
"""

from collections.abc import Mapping
from typing import Any
from typing import ClassVar

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients

# heat's neutron.py: the protocol names a security group rule accepts
_PROTOCOL_NAMES = [
    "ah",
    "dccp",
    "egp",
    "esp",
    "gre",
    "icmp",
    "icmpv6",
    "igmp",
    "ipv6-encap",
    "ipv6-frag",
    "ipv6-icmp",
    "ipv6-nonxt",
    "ipv6-opts",
    "ipv6-route",
    "ospf",
    "pgm",
    "rsvp",
    "sctp",
    "tcp",
    "udp",
    "udplite",
    "vrrp",
]
ALLOWED_SECURITY_GROUP_PROTOCOLS: list[Any] = list(range(256)) + _PROTOCOL_NAMES
SECURITY_GROUP_PROTOCOL_DESCRIPTION = (
    "The protocol that is matched by the security group rule. Allowed values are "
    + ", ".join(_PROTOCOL_NAMES)
    + " and integer representations [0-255]."
)
# entity → its collection's path
_PLURALS = {
    "network": "networks",
    "subnet": "subnets",
    "port": "ports",
    "security_group": "security-groups",
    "security_group_rule": "security-group-rules",
    "floatingip": "floatingips",
    "router": "routers",
}


def collection(entity: str) -> str:
    """``/v2.0/<plural>`` of a Neutron entity."""
    return "/v2.0/" + _PLURALS[entity]


def find_resourceid_by_name_or_id(clients: Clients, entity: str, name_or_id: str) -> str:
    """The id of the ``entity`` whose id or name is ``name_or_id``
    (neutronclient's ``find_resourceid_by_name_or_id``, its texts)."""
    try:
        return clients.get("network", "%s/%s" % (collection(entity), name_or_id)).body[entity][
            "id"
        ]
    except ClientError as exc:
        if not exc.not_found:
            raise
    key = _PLURALS[entity].replace("-", "_")
    found = clients.get("network", collection(entity), query={"name": name_or_id}).body[key]
    shown = entity.replace("_", " ")
    if not found:
        raise ClientError(404, "Unable to find %s with name or id '%s'" % (shown, name_or_id))
    if len(found) > 1:
        raise ClientError(
            409,
            "Multiple %s matches found for name '%s', use an ID to be more specific."
            % (shown, name_or_id),
        )
    return str(found[0]["id"])


def network_id_from_subnet_id(clients: Clients, subnet_id: str) -> str:
    return str(clients.get("network", "/v2.0/subnets/%s" % subnet_id).body["subnet"]["network_id"])


def get_secgroup_uuids(clients: Clients, security_groups: list[str]) -> list[str]:
    """Ids of security groups given by name or id (heat's rule: a name
    the project has once; ``default`` is the project's own)."""
    return [find_resourceid_by_name_or_id(clients, "security_group", sg) for sg in security_groups]


class NeutronResource(resource.Resource):
    """A Neutron entity; subclasses set ``entity`` and their schemas."""

    default_client_name = "network"
    entity: ClassVar[str] = ""
    # the key of the entity in Neutron's answers (entity unless set)
    res_info_key: ClassVar[str | None] = None

    @property
    def _key(self) -> str:
        return self.res_info_key or self.entity

    def _path(self) -> str:
        return "%s/%s" % (collection(self.entity), self.resource_id)

    def validate(self) -> None:
        super().validate()
        problem = self.validate_properties(self.properties)
        if problem:
            raise errors.BadRequest(problem, type="StackValidationFailed")

    @staticmethod
    def validate_properties(props: Mapping[str, Any]) -> str | None:
        """Nothing in ``value_specs`` may overwrite a schema key, ``shared``
        or ``tenant_id`` (heat's text)."""
        if "value_specs" in props:
            banned = {"shared", "tenant_id"}.union(set(props))
            found = banned.intersection(set(props["value_specs"] or {}))
            if found:
                return "%s not allowed in value_specs" % ", ".join(sorted(found))
        return None

    def prepare_properties(self, props: Mapping[str, Any], name: str) -> dict[str, Any]:
        """The create body: no None values, ``value_specs`` merged in, the
        physical name when ``name`` is a property and not given."""
        body = {k: v for k, v in props.items() if v is not None}
        if "name" in props:
            body.setdefault("name", name)
        if "value_specs" in body:
            body.update(body.pop("value_specs") or {})
        return body

    def prepare_update_properties(self, prop_diff: dict[str, Any]) -> None:
        if "value_specs" in prop_diff:
            before = self.properties["value_specs"] or {}
            specs = prop_diff.pop("value_specs") or {}
            prop_diff.update({k: v for k, v in specs.items() if before.get(k) != v})
        if "name" in prop_diff and prop_diff["name"] is None:
            prop_diff["name"] = self.physical_resource_name()

    @staticmethod
    def is_built(attributes: Mapping[str, Any]) -> bool:
        status = attributes["status"]
        if status == "BUILD":
            return False
        if status in ("ACTIVE", "DOWN"):
            return True
        if status in ("ERROR", "DEGRADED"):
            raise exception.ResourceInError(resource_status=status)
        raise exception.ResourceUnknownStatus(
            resource_status=status, result="Resource is not built"
        )

    def create_entity(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """POST the entity, record its id; its body."""
        made = self.client().post("network", collection(self.entity), {self._key: dict(body)})
        entity: dict[str, Any] = made.body[self._key]
        self.resource_id_set(entity["id"])
        return entity

    def update_entity(self, body: Mapping[str, Any]) -> None:
        if body:
            self.client().put("network", self._path(), {self._key: dict(body)})

    def set_tags(self, tags: list[str] | None) -> None:
        """Neutron's tags are not served locally: recorded on the resource
        (its ``tags`` property) only."""

    def _show_resource(self) -> dict[str, Any]:
        entity: dict[str, Any] = self.client().get("network", self._path()).body[self._key]
        return entity

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        return self._show_resource()

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        return self._show_resource().get(name)

    def get_reference_id(self) -> str:
        return str(self.resource_id) if self.resource_id is not None else str(self.name)

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        try:
            self.client().delete("network", self._path())
        except ClientError as exc:
            if not exc.not_found:
                raise
            return None
        return True

    def check_delete_complete(self, handler_data: Any) -> bool:
        if not handler_data:
            return True
        try:
            self._show_resource()
        except ClientError as exc:
            if exc.not_found:
                return True
            raise
        raise exception.PhysicalResourceExists(self.physical_resource_name())

    def check_create_complete(self, handler_data: Any) -> bool:
        attributes = self._show_resource()
        if "status" not in attributes:
            return True
        return self.is_built(attributes)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            if "tags" in prop_diff:
                self.set_tags(prop_diff.pop("tags"))
            self.update_entity(prop_diff)
        return None
