"""``OS::Heat::CloudConfig`` (Heat's ``openstack/heat/cloud_config.py``):
cloud-init's cloud-config as YAML, stored as a software config."""

from typing import Any

import yaml

from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.heat import software_config


class CloudConfig(software_config.SoftwareConfig):
    """A ``#cloud-config`` document built from a map (boot-only: a change
    replaces it, and the servers that use it)."""

    support_status = support.SupportStatus(version="2014.1")

    CLOUD_CONFIG = "cloud_config"

    properties_schema = {
        CLOUD_CONFIG: properties.Schema(
            properties.Schema.MAP,
            "Map representing the cloud-config data structure which will be formatted as YAML.",
        ),
    }

    def config_body(self) -> dict[str, Any]:
        # Heat's yaml_dumper is PyYAML's safe dumper: block style, keys sorted
        text = yaml.safe_dump(self.properties[self.CLOUD_CONFIG])
        return {
            "name": self.physical_resource_name(),
            "config": "#cloud-config\n%s" % text,
            "group": "Heat::Ungrouped",
        }


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::CloudConfig": CloudConfig}
