"""A resource type installed as a Python distribution: its entry point in
the group ``occli.localcloud.heat.resources`` (see the dist-info directory
beside this file, what ``pip install`` of a package declaring it leaves in
site-packages) names this module, whose ``resource_mapping()`` the engine
reads. ``Example::Banner`` frames a text."""

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource


class Banner(resource.Resource):
    """A text framed by a character, for a login banner."""

    properties_schema = {
        "text": properties.Schema(properties.Schema.STRING, "The text.", required=True),
        "frame": properties.Schema(
            properties.Schema.STRING,
            "The framing character.",
            default="*",
            constraints=[constraints.Length(min=1, max=1)],
        ),
    }
    attributes_schema = {"banner": attributes.Schema("The framed text, three lines.")}

    def handle_create(self):
        self.resource_id_set(self.physical_resource_name())

    def _resolve_attribute(self, name):
        if name == "banner":
            text, frame = self.properties["text"], self.properties["frame"]
            line = frame * (len(text) + 4)
            return "\n".join((line, "%s %s %s" % (frame, text, frame), line))
        return None


def resource_mapping():
    return {"Example::Banner": Banner}
