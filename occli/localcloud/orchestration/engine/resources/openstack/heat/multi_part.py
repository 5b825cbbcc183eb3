"""``OS::Heat::MultipartMime`` (Heat's ``openstack/heat/multi_part.py``):
several configs as one multi-part MIME message, stored as a software
config (what cloud-init reads as a server's user data)."""

import email
import email.message
import os
from email.mime import multipart
from email.mime import text
from typing import Any

from occli.localcloud import validation
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.heat import software_config

TEXT, MULTIPART = "text", "multipart"


def _part(content: str, subtype: str | None, filename: str | None) -> text.MIMEText:
    """One text part: us-ascii when it fits, else utf-8; the subtype from
    the filename's stem when none is given."""
    if not subtype and filename:
        subtype = os.path.splitext(filename)[0]
    charset = "us-ascii"
    try:
        content.encode(charset)
    except UnicodeEncodeError:
        charset = "utf-8"
    msg = (
        text.MIMEText(content, _subtype=subtype, _charset=charset)
        if subtype
        else text.MIMEText(content, _charset=charset)
    )
    if filename:
        msg.add_header("Content-Disposition", "attachment", filename=filename)
    return msg


class MultipartMime(software_config.SoftwareConfig):
    """Inline parts or other configs (by id); a config that is itself a
    multi-part message adds its parts."""

    support_status = support.SupportStatus(version="2014.1")

    PARTS, CONFIG, FILENAME, TYPE, SUBTYPE, GROUP = (
        "parts",
        "config",
        "filename",
        "type",
        "subtype",
        "group",
    )

    properties_schema = {
        GROUP: properties.Schema(
            properties.Schema.STRING,
            "Namespace to group this multi-part configs by when delivered to a "
            "server. This may imply what configuration tool is going to "
            "perform the configuration.",
            default="Heat::Ungrouped",
        ),
        PARTS: properties.Schema(
            properties.Schema.LIST,
            "Parts belonging to this message.",
            default=[],
            schema=properties.Schema(
                properties.Schema.MAP,
                schema={
                    CONFIG: properties.Schema(
                        properties.Schema.STRING,
                        "Content of part to attach, either inline or by "
                        "referencing the ID of another software config resource.",
                        required=True,
                    ),
                    FILENAME: properties.Schema(
                        properties.Schema.STRING, "Optional filename to associate with part."
                    ),
                    TYPE: properties.Schema(
                        properties.Schema.STRING,
                        "Whether the part content is text or multipart.",
                        default=TEXT,
                        constraints=[constraints.AllowedValues([TEXT, MULTIPART])],
                    ),
                    SUBTYPE: properties.Schema(
                        properties.Schema.STRING, "Optional subtype to specify with the type."
                    ),
                },
            ),
        ),
    }

    def message(self) -> str:
        """The MIME message of the parts (a config id is replaced by that
        config's text, as Heat does for anything uuid-like)."""
        subparts = []
        for item in self.properties[self.PARTS]:
            content = item.get(self.CONFIG)
            if validation.is_uuid(content):
                config = software_config.show_config(self, content)
                if config is not None:
                    content = config["config"]
            if item.get(self.TYPE) == MULTIPART:
                parsed = email.message_from_string(content or "")
                for sub in parsed.get_payload() if parsed.is_multipart() else ():
                    if isinstance(sub, email.message.Message):
                        subparts.append(
                            _part(
                                str(sub.get_payload()),
                                sub.get_content_subtype(),
                                sub.get_filename(),
                            )
                        )
            else:
                subparts.append(
                    _part(content or "", item.get(self.SUBTYPE), item.get(self.FILENAME))
                )
        return multipart.MIMEMultipart(_subparts=subparts).as_string()

    def config_body(self) -> dict[str, Any]:
        return {
            "name": self.physical_resource_name(),
            "config": self.message(),
            "group": self.properties[self.GROUP],
        }


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::MultipartMime": MultipartMime}
