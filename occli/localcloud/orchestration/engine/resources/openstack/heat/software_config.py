"""``OS::Heat::SoftwareConfig`` (Heat's ``openstack/heat/software_config.py``):
an immutable config stored through the orchestration API's
``/software_configs``, in process, so ``software config list/show`` sees
it; any change to its definition makes a new one (replacement)."""

from typing import Any

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError

# heat/engine/software_config_io.py: the types and schemata of a config's
# inputs and outputs
IO_TYPES = ("String", "Number", "CommaDelimitedList", "Json", "Boolean")
INPUT_CONFIG_SCHEMA = {
    "name": properties.Schema(properties.Schema.STRING, "Name of the input.", required=True),
    "description": properties.Schema(properties.Schema.STRING, "Description of the input."),
    "type": properties.Schema(
        properties.Schema.STRING,
        "Type of the value of the input.",
        default="String",
        constraints=[constraints.AllowedValues(IO_TYPES)],
    ),
    "default": properties.Schema(
        properties.Schema.ANY, "Default value for the input if none is specified."
    ),
    "replace_on_change": properties.Schema(
        properties.Schema.BOOLEAN,
        "Replace the deployment instead of updating it when the input value changes.",
        default=False,
    ),
}
OUTPUT_CONFIG_SCHEMA = {
    "name": properties.Schema(properties.Schema.STRING, "Name of the output.", required=True),
    "description": properties.Schema(properties.Schema.STRING, "Description of the output."),
    "type": properties.Schema(
        properties.Schema.STRING,
        "Type of the value of the output.",
        default="String",
        constraints=[constraints.AllowedValues(IO_TYPES)],
    ),
    "error_output": properties.Schema(
        properties.Schema.BOOLEAN,
        "Denotes that the deployment is in an error state if this output has a value.",
        default=False,
    ),
}


def show_config(rsrc: resource.Resource, config_id: str) -> dict[str, Any] | None:
    """The software config ``config_id`` as the API shows it, or None if
    there is none (Heat's ``ignore_error_by_name('NotFound')``)."""
    try:
        answer = rsrc.client().get("orchestration", "/software_configs/%s" % config_id)
    except ClientError as exc:
        if exc.not_found:
            return None
        raise
    return dict(answer.body["software_config"])


def create_config(rsrc: resource.Resource, body: dict[str, Any]) -> str:
    """Store a software config through the API; its id."""
    answer = rsrc.client().post("orchestration", "/software_configs", body)
    return str(answer.body["software_config"]["id"])


class SoftwareConfig(resource.Resource):
    """A config script or manifest, with the schemata of its inputs and
    outputs, for deployments and servers' user data to reference."""

    support_status = support.SupportStatus(version="2014.1")

    GROUP, CONFIG, OPTIONS, INPUTS, OUTPUTS = "group", "config", "options", "inputs", "outputs"
    CONFIG_ATTR = "config"
    default_client_name = "orchestration"

    properties_schema = {
        GROUP: properties.Schema(
            properties.Schema.STRING,
            "Namespace to group this software config by when delivered to a "
            "server. This may imply what configuration tool is going to "
            "perform the configuration.",
            default="Heat::Ungrouped",
        ),
        CONFIG: properties.Schema(
            properties.Schema.STRING,
            "Configuration script or manifest which specifies what actual "
            "configuration is performed.",
        ),
        OPTIONS: properties.Schema(
            properties.Schema.MAP,
            "Map containing options specific to the configuration management "
            "tool used by this resource.",
        ),
        INPUTS: properties.Schema(
            properties.Schema.LIST,
            "Schema representing the inputs that this software config is expecting.",
            schema=properties.Schema(properties.Schema.MAP, schema=INPUT_CONFIG_SCHEMA),
        ),
        OUTPUTS: properties.Schema(
            properties.Schema.LIST,
            "Schema representing the outputs that this software config will produce.",
            schema=properties.Schema(properties.Schema.MAP, schema=OUTPUT_CONFIG_SCHEMA),
        ),
    }
    attributes_schema = {
        CONFIG_ATTR: attributes.Schema(
            "The config value of the software config.", type=attributes.Schema.STRING
        ),
    }

    def config_body(self) -> dict[str, Any]:
        """What ``POST /software_configs`` gets (subclasses build theirs)."""
        body = {key: self.properties[key] for key in self.properties_schema}
        body["name"] = self.physical_resource_name()
        # Heat reads each input and output through Properties twice (the
        # resource's, then software_config_io's IOConfig): a description
        # left out comes back as the STRING's empty value
        for key in (self.INPUTS, self.OUTPUTS):
            if body.get(key):
                body[key] = [dict(io, description=io.get("description") or "") for io in body[key]]
        return body

    def handle_create(self) -> None:
        self.resource_id_set(create_config(self, self.config_body()))

    def handle_delete(self) -> None:
        if self.resource_id is not None:
            self.client().delete_ignoring_not_found(
                "orchestration", "/software_configs/%s" % self.resource_id
            )

    def _resolve_attribute(self, name: str) -> Any:
        """``config``: the stored config (None once it is gone)."""
        if name == self.CONFIG_ATTR and self.resource_id:
            config = show_config(self, self.resource_id)
            return config["config"] if config is not None else None
        return None

    def show(self) -> Any:
        return show_config(self, self.resource_id) if self.resource_id else None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::SoftwareConfig": SoftwareConfig}
