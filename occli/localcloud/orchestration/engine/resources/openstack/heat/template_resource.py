"""Template resources (Heat's ``heat/engine/resources/template_resource.py``):
a resource type that is a template.

A template of the request's ``files`` named as a type (``type: my.yaml``)
or mapped to one by an environment (``My::Server: my.yaml``) is a nested
stack: the resource's properties are the nested template's parameters
(one property per parameter, Heat's ``schema_from_params``: a
``CommaDelimitedList`` a list, a ``Json`` a map, every one updatable in
place), its attributes are the nested stack's outputs, its reference the
``OS::stack_id`` output when the template has one, else the nested
stack's ARN. :func:`template_resource_class` makes the class of one
template; the environment's registry calls it
(:meth:`.environment.TemplateResourceInfo.get_class`).
"""

import copy
import functools
import urllib.parse
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import parameters
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import template
from occli.localcloud.orchestration.engine.resources.openstack.heat import stack_resource

STACK_ID_OUTPUT = "OS::stack_id"
# a facade's property type a provider's parameter may give (Heat's
# ``Schema.allowed_param_prop_type``: an Integer comes from a Number)
_PARAM_PROP_TYPES = {properties.Schema.INTEGER: properties.Schema.NUMBER}


def template_resource_class(url: str, files: Mapping[str, str]) -> type["TemplateResource"]:
    """The resource class of the template ``files[url]`` (made once per
    template text)."""
    return _generate_class(url, files[url])


@functools.lru_cache(maxsize=256)
def _generate_class(url: str, text: str) -> type["TemplateResource"]:
    """Heat's ``generate_class_from_template``: the schemas from the
    template's parameters and outputs."""
    try:
        body = template.parse(text)
        tmpl = template.Template(body)
        schemata = tmpl.param_schemata()
    except errors.Error as exc:
        raise errors.BadRequest(exc.message, type="StackValidationFailed") from None
    outputs = tmpl.section("outputs")
    attrs = {
        name: attributes.Schema(out.get("description") if isinstance(out, Mapping) else None)
        for name, out in outputs.items()
    }
    return type(
        url,
        (TemplateResource,),
        {
            "template_url": url,
            "template_body": body,
            "param_schemata": schemata,
            "properties_schema": TemplateResource.schema_from_params(schemata),
            "attributes_schema": attrs,
            "resource_type": url,
            "__doc__": tmpl.t.get("description"),
        },
    )


class TemplateResource(stack_resource.StackResource):
    """A resource implemented by a nested stack: properties in as the
    nested stack's parameters, outputs back as attributes."""

    template_body: dict[str, Any] = {}
    param_schemata: dict[str, parameters.Schema] = {}

    def __init__(self, name: str, definition: Mapping[str, Any], stack: Any) -> None:
        super().__init__(name, definition, stack)
        env = self.parent.env
        self._schema = self.properties_schema
        defaults = env.parameter_defaults
        if any(key in defaults for key in self.param_schemata):
            # a parameter the environment gives a default is not required
            # (Heat's param_schemata(param_defaults))
            schemata = {}
            for key, schema in self.param_schemata.items():
                if key in defaults:
                    schema = copy.copy(schema)
                    schema.set_default(defaults[key])
                schemata[key] = schema
            self._schema = self.schema_from_params(schemata)
        try:
            self.resource_info = env.get_resource_info(
                self.type_name, self.name, registry_type=environment.TemplateResourceInfo
            )
        except errors.NotFound:
            self.resource_info = None

    @staticmethod
    def schema_from_params(
        schemata: Mapping[str, parameters.Schema],
    ) -> dict[str, properties.Schema]:
        """One property per parameter (Heat's ``schema_from_params``)."""
        return {name: properties.Schema.from_parameter(s) for name, s in schemata.items()}

    def make_properties(self, snippet: Mapping[str, Any]) -> properties.Properties:
        return properties.Properties(
            self._schema, self.resolve_properties(snippet), resource_name=self.name
        )

    def validate(self) -> None:
        """Properties and the nested stack; when the template stands in
        for an existing type (a facade: ``OS::Nova::Server: server.yaml``),
        the two interfaces must agree (Heat's ``_validate_against_facade``)."""
        super().validate()
        try:
            facade = self.parent.env.get_resource_info(
                self.type_name, self.name, ignore=self.resource_info
            )
        except errors.NotFound:
            return
        self._validate_against_facade(facade.get_class(files=self.parent.files))

    def _validate_against_facade(self, facade_cls: type) -> None:
        def failed(message: str) -> errors.BadRequest:
            return errors.BadRequest(message, type="StackValidationFailed")

        facade_props: dict[str, properties.Schema] = getattr(facade_cls, "properties_schema", {})
        for name, schema in facade_props.items():
            if schema.required and name not in self._schema:
                raise failed(
                    "Required property %s for facade %s missing in provider"
                    % (name, self.type_name)
                )
            provider = self._schema.get(name)
            allowed = _PARAM_PROP_TYPES.get(schema.type, schema.type)
            if provider is not None and allowed != provider.type:
                raise failed(
                    "Property %s type mismatch between facade %s (%s) and provider (%s)"
                    % (name, self.type_name, schema.type, provider.type)
                )
        for name, schema in self._schema.items():
            if schema.required and name not in facade_props:
                raise failed(
                    "Provider requires property %s unknown in facade %s" % (name, self.type_name)
                )
        facade_attrs = {
            **getattr(facade_cls, "attributes_schema", {}),
            **attributes.BASE_ATTRIBUTES,
        }
        provider_attrs = {**self.attributes_schema, **attributes.BASE_ATTRIBUTES}
        for name in facade_attrs:
            if name not in provider_attrs:
                raise failed(
                    "Attribute %s for facade %s missing in provider" % (name, self.type_name)
                )

    def child_template(self) -> dict[str, Any]:
        return copy.deepcopy(self.template_body)

    def child_params(self) -> dict[str, Any]:
        """The nested stack's parameters from the properties the template
        gives (Heat's ``child_params``: a list becomes a comma-delimited
        string, a list of maps ``.member.<i>.<key>=<value>`` items)."""
        params: dict[str, Any] = {}
        for name, schema in self._schema.items():
            if not schema.implemented:
                continue
            value = self.properties.get_user_value(name)
            if value is None:
                continue
            if schema.type == properties.Schema.LIST and isinstance(value, list):
                if not value:
                    params[name] = ""
                elif isinstance(value[0], Mapping):
                    params[name] = ",".join(
                        ".member.%d.%s=%s" % (i, k, v)
                        for i, item in enumerate(value)
                        for k, v in item.items()
                    )
                else:
                    params[name] = ",".join("" if x is None else str(x) for x in value)
            else:
                params[name] = value
        return params

    def handle_create(self) -> None:
        self.create_with_template(self.child_template(), self.child_params())

    def needs_update(self, prop_diff: Mapping[str, Any], tmpl_diff: Mapping[str, Any]) -> bool:
        """Heat always passes an update down to a template resource: its
        template file may have changed with its properties unchanged."""
        nested = self.nested()
        return (
            super().needs_update(prop_diff, tmpl_diff)
            or nested is None
            or nested.row.get("template") != self.child_template()
        )

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> None:
        """New property values or a new template: the nested stack updated."""
        self.update_with_template(self.child_template(), self.child_params())

    def get_reference_id(self) -> str:
        """The ``OS::stack_id`` output if the template has one, else the
        nested stack's ARN (the resource's name before it exists)."""
        if self.resource_id is None:
            return str(self.name)
        if STACK_ID_OUTPUT in self.attributes_schema:
            try:
                return str(self.get_output(STACK_ID_OUTPUT))
            except errors.Error:
                pass
        return "arn:openstack:heat::%s:stacks/%s/%s" % (
            urllib.parse.quote(self.parent.project_id, ""),
            urllib.parse.quote(self.physical_resource_name(), ""),
            urllib.parse.quote(self.resource_id, ""),
        )

    def get_attribute(self, key: str, *path: Any) -> Any:
        """A nested stack's output (``resource.<name>[.<attr>]``: one of its
        resources); an unknown one is Heat's ``InvalidTemplateAttribute``."""
        if self.resource_id is None:
            return None
        if key.startswith("resource."):
            parts = key.split(".", 2)[1:] + list(path)
            nested = self.nested()
            if nested is None or parts[0] not in nested.resources:
                return None
            if len(parts) > 1:
                return nested.resource_attr(parts[0], parts[1], parts[2:])
            return nested.resource_ref(parts[0])
        try:
            value = self.get_output(key)
        except errors.NotFound:
            raise errors.BadRequest(
                "The Referenced Attribute (%s %s) is incorrect." % (self.name, key),
                type="InvalidTemplateAttribute",
            ) from None
        return attributes.select_from_attribute(value, list(path))
