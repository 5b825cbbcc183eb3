"""``OS::Heat::StructuredConfig`` and ``OS::Heat::StructuredDeployment``
(Heat's ``openstack/heat/structured_config.py``): a config that is a map,
and a deployment that substitutes ``{get_input: name}`` in it with its
input values."""

from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.heat import software_config as sc
from occli.localcloud.orchestration.engine.resources.openstack.heat import (
    software_deployment as sd,
)


class UserParameterMissing(Exception):
    """Heat's ``UserParameterMissing``: a STRICT deployment lacks an input."""

    def __init__(self, key: str) -> None:
        super().__init__("The Parameter (%s) was not provided." % key)


def substitute(
    inputs: Mapping[str, Any], input_key: str, snippet: Any, strict: bool = False
) -> Any:
    """``snippet`` with each one-key map ``{<input_key>: <name>}`` replaced
    by input ``name``'s value (None if absent; STRICT: refused)."""
    if isinstance(snippet, Mapping):
        if len(snippet) == 1:
            fn_name, fn_arg = next(iter(snippet.items()))
            if fn_name == input_key and isinstance(fn_arg, str):
                if strict and fn_arg not in inputs:
                    raise UserParameterMissing(fn_arg)
                return inputs.get(fn_arg)
        return {k: substitute(inputs, input_key, v, strict) for k, v in snippet.items()}
    if isinstance(snippet, list):
        return [substitute(inputs, input_key, v, strict) for v in snippet]
    return snippet


class StructuredConfig(sc.SoftwareConfig):
    """A software config whose ``config`` is a map (stored as JSON)."""

    support_status = support.SupportStatus(version="2014.1")

    properties_schema = {
        **sc.SoftwareConfig.properties_schema,
        sc.SoftwareConfig.CONFIG: properties.Schema(
            properties.Schema.MAP,
            "Map representing the configuration data structure which will be "
            "serialized to JSON format.",
        ),
    }


class StructuredDeployment(sd.SoftwareDeployment):
    """A software deployment that fills its inputs into a structured
    config's map."""

    support_status = support.SupportStatus(version="2014.1")

    INPUT_KEY, INPUT_VALUES_VALIDATE = "input_key", "input_values_validate"

    properties_schema = {
        **sd.SoftwareDeployment.properties_schema,
        INPUT_KEY: properties.Schema(
            properties.Schema.STRING,
            "Name of key to use for substituting inputs during deployment.",
            default="get_input",
        ),
        INPUT_VALUES_VALIDATE: properties.Schema(
            properties.Schema.STRING,
            "Perform a check on the input values passed to verify that each "
            "required input has a corresponding value. When the property is "
            "set to STRICT and no value is passed, an exception is raised.",
            default="LAX",
            constraints=[constraints.AllowedValues(["LAX", "STRICT"])],
        ),
    }

    def empty_config(self) -> Any:
        return {}

    def build_derived_config(
        self, action: str, source: Mapping[str, Any], inputs: list[dict[str, Any]]
    ) -> Any:
        values = {i["name"]: i.get("value") for i in inputs}
        return substitute(
            values,
            self.properties[self.INPUT_KEY],
            source.get(sc.SoftwareConfig.CONFIG),
            self.properties[self.INPUT_VALUES_VALIDATE] == "STRICT",
        )


class StructuredDeploymentGroup(sd.SoftwareDeploymentGroup):
    """A group of structured deployments, one per server."""

    member_type = "OS::Heat::StructuredDeployment"
    properties_schema = {
        **sd.SoftwareDeploymentGroup.properties_schema,
        StructuredDeployment.INPUT_KEY: StructuredDeployment.properties_schema[
            StructuredDeployment.INPUT_KEY
        ],
        StructuredDeployment.INPUT_VALUES_VALIDATE: StructuredDeployment.properties_schema[
            StructuredDeployment.INPUT_VALUES_VALIDATE
        ],
    }


class StructuredDeployments(StructuredDeploymentGroup):
    """Heat's hidden former name of the group."""

    support_status = support.SupportStatus(status=support.HIDDEN, version="7.0.0")


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {
        "OS::Heat::StructuredConfig": StructuredConfig,
        "OS::Heat::StructuredDeployment": StructuredDeployment,
        "OS::Heat::StructuredDeploymentGroup": StructuredDeploymentGroup,
        "OS::Heat::StructuredDeployments": StructuredDeployments,
    }
