"""``OS::Heat::None`` (Heat's ``openstack/heat/none_resource.py``): a
stand-in that takes any properties, gives None for any attribute, and is
never replaced or changed by an update."""

import uuid
from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support

IS_PLACEHOLDER = "is_placeholder"


class NoneResource(resource.Resource):
    """Stubs out any resource (mapped in a ``resource_registry``)."""

    support_status = support.SupportStatus(version="5.0.0")

    def make_properties(self, snippet: Mapping[str, Any]) -> properties.Properties:
        """No properties whatever the template gives (nothing is checked)."""
        return properties.Properties({}, {}, resource_name=self.name)

    def validate(self) -> None:
        return None

    def handle_create(self) -> None:
        self.resource_id_set(str(uuid.uuid4()))
        self.data_set(IS_PLACEHOLDER, "True")

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> None:
        """Never replaced, whatever changed (Heat's ``_needs_update``)."""
        return None

    def get_attribute(self, key: str, *path: Any) -> Any:
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::None": NoneResource}
