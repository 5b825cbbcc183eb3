"""A third-party resource type an operator drops into a plugin directory
(``occli-localcloud start --heat-plugin-dir examples/stacks/plugins``):
``Example::Message``, a text made from a format and its values, as Heat
loads a module of its ``plugin_dirs`` (``resource_mapping()``)."""

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource


class Message(resource.Resource):
    """A message made from a Python format string and its values."""

    properties_schema = {
        "format": properties.Schema(
            properties.Schema.STRING,
            "A str.format template, e.g. 'Hello, {name}'.",
            required=True,
            update_allowed=True,
        ),
        "values": properties.Schema(
            properties.Schema.MAP, "The values the format names.", default={}, update_allowed=True
        ),
    }
    attributes_schema = {"text": attributes.Schema("The formatted message.")}

    def handle_create(self):
        self.resource_id_set(self.physical_resource_name())

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        """Any change is made in place: the text is computed on read."""

    def _resolve_attribute(self, name):
        if name == "text":
            return self.properties["format"].format_map(self.properties["values"])
        return None


def resource_mapping():
    return {"Example::Message": Message}
