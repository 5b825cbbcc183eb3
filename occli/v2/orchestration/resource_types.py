"""Heat's resource types, template versions and build info
(``/resource_types``, ``/template_versions``, ``/build_info``), with
heatclient's argument names (``heatclient/v1/resource_types.py``,
``template_versions.py``, ``build_info.py``)."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli import base
from occli.v2.orchestration import base as heat


class ResourceType(base.Resource):
    """A type name (``resource_type``), with ``description`` when asked."""


class ResourceTypeManager(heat.HeatManager):
    """The types the cloud's Heat registry knows: ``client.resource_types``."""

    resource_class = ResourceType

    def list(
        self, filters: Mapping[str, Any] | None = None, with_description: bool = False
    ) -> base.ListWithMeta:
        """Every type (``filters``: ``name``, ``version``, ``support_status``):
        Heat answers names, or objects with ``with_description``."""
        params = dict(filters or {})
        if with_description:
            params["with_description"] = True
        response = self._request("GET", "/resource_types", params=params)
        items = self._value(response, self._body(response), "resource_types", list, default=[])
        types = [
            self._resource(i if isinstance(i, dict) else {"resource_type": i}, response)
            for i in items
        ]
        return base.ListWithMeta(types, self._result(response).request_ids)

    def get(self, resource_type: str, with_description: bool = False) -> base.DictWithMeta:
        """The type's schema: ``resource_type``, ``properties``,
        ``attributes``, ``support_status`` (and ``description``)."""
        params = {"with_description": True} if with_description else None
        return self._json("GET", "/resource_types/%s" % quote(resource_type, safe=""), params)

    def generate_template(
        self, resource_type: str, template_type: str = "cfn"
    ) -> base.DictWithMeta:
        """A template using the type (``template_type``: ``hot`` or ``cfn``)."""
        url = "/resource_types/%s/template" % quote(resource_type, safe="")
        return self._json("GET", url, {"template_type": template_type} if template_type else None)

    def _json(self, method: str, url: str, params: Mapping[str, Any] | None) -> base.DictWithMeta:
        response = self._request(method, url, params=params)
        return base.DictWithMeta(self._body(response), self._result(response).request_ids)

    def _noun(self) -> str:
        return "resource type"


class TemplateVersion(base.Resource):
    pass


class TemplateVersionManager(heat.HeatManager):
    """Template versions and their functions: ``client.template_versions``."""

    resource_class = TemplateVersion

    def list(self) -> base.ListWithMeta:
        """``version``, ``type`` (hot, cfn) and ``aliases`` of each version."""
        return self._list_all("/template_versions", "template_versions")

    def get(self, template_version: str, with_condition_func: bool = False) -> base.ListWithMeta:
        """The functions of a version (``functions``, ``description``),
        with the condition functions when ``with_condition_func``."""
        params = {"with_condition_func": True} if with_condition_func else None
        url = "/template_versions/%s/functions" % quote(template_version, safe="")
        return self._list_all(url, "template_functions", params)

    def _noun(self) -> str:
        return "template version"


class BuildInfoManager(heat.HeatManager):
    """Heat's build: ``client.heat_build_info``."""

    def build_info(self) -> base.DictWithMeta:
        """``{"api": {"revision"}, "engine": {"revision"}}``."""
        response = self._request("GET", "/build_info")
        return base.DictWithMeta(self._body(response), self._result(response).request_ids)
