"""Heat's template-handling routes of its stack controller: the resource
types of the registry (``/resource_types``, a type's schema and its
generated template) and the template versions and their functions
(``/template_versions``)."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import environment_registry
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import support

TYPES = common.BASE + "/resource_types"
TYPE = TYPES + "/{type_name}"
VERSIONS = common.BASE + "/template_versions"
POLICY_ACTIONS = {("GET", TYPE + "/template"): "generate_template"}


def register(service):
    service.route("GET", TYPES, list_resource_types)
    service.route("GET", TYPE, resource_schema)
    service.route("GET", TYPE + "/template", generate_template, role=service.write_role)
    service.route("GET", VERSIONS, list_template_versions)
    service.route("GET", VERSIONS + "/{template_version}/functions", list_template_functions)


def _global_env(req):
    return req.cloud.orchestration.engine.global_env


def _flag(req, name):
    value = req.arg(name)
    return sc.extract_bool(name, value) if value is not None else False


def list_resource_types(req):
    """``GET /resource_types`` (``support_status``, ``name``, ``version``,
    ``with_description``)."""
    types = _global_env(req).get_types(
        support_status=req.arg("support_status"),
        type_name=req.arg("name"),
        version=req.arg("version"),
        with_description=_flag(req, "with_description"),
    )
    return Response(200, {"resource_types": types})


def _resource_class(req):
    name = req.params["type_name"]
    cls = _global_env(req).find_class(name)
    status, _ = environment.support_of(cls)
    if status == environment_registry.HIDDEN:
        raise errors.BadRequest("%s is not supported." % name, type="NotSupported")
    return name, cls


def resource_schema(req):
    """``GET /resource_types/{type}``: properties, attributes and support
    status."""
    name, cls = _resource_class(req)
    status = getattr(cls, "support_status", None)
    if not isinstance(status, support.SupportStatus):
        status = support.SupportStatus(*environment.support_of(cls)[:1])
    schema = {
        "resource_type": name,
        "properties": properties.Properties.schema_view(cls.properties_schema),
        "attributes": attributes.schema_view(cls.attributes_schema),
        "support_status": status.to_dict(),
    }
    # heat's resource_schema takes with_description as a keyword the route
    # never fills from the query: a type's schema has no description
    return Response(200, schema)


def generate_template(req):
    """``GET /resource_types/{type}/template`` (``template_type`` cfn, the
    default, or hot): Heat's ``resource_to_template``, a provider template
    whose parameters are the type's properties and whose outputs are its
    attributes."""
    template_type = req.arg("template_type") or "cfn"
    if template_type.lower() not in ("cfn", "hot"):
        raise sc.bad_request(
            'Template type is not supported: Invalid template type "%s", valid types are: '
            "cfn, hot." % template_type
        )
    hot = template_type.lower() == "hot"
    name, cls = _resource_class(req)
    res_name = cls.__name__
    params, props = properties.Properties.schema_to_parameters_and_properties(
        cls.properties_schema, hot
    )
    outputs = attributes.as_outputs(res_name, cls.attributes_schema, hot)
    description = "Initial template of %s" % res_name
    if hot:
        template = {
            "heat_template_version": "2016-10-14",
            "description": description,
            "parameters": params,
            "outputs": outputs,
            "resources": {res_name: {"type": name, "properties": props}},
        }
    else:
        template = {
            "HeatTemplateFormatVersion": "2012-12-12",
            "Description": description,
            "Parameters": params,
            "Resources": {res_name: {"Type": name, "Properties": props}},
            "Outputs": outputs,
        }
    return Response(200, template)


def list_template_versions(req):
    from occli.localcloud.orchestration.engine import template

    return Response(200, {"template_versions": template.Template.versions()})


def list_template_functions(req):
    """``GET /template_versions/{v}/functions`` (``with_condition_func``)."""
    from occli.localcloud.orchestration.engine import template

    functions = template.Template.functions(
        req.params["template_version"], _flag(req, "with_condition_func")
    )
    return Response(200, {"template_functions": functions})
