"""Service catalog commands (Keystone): ``service …``, ``endpoint …``,
``region …``, ``catalog …``, with OpenStackClient's names, options and
columns (``openstackclient/identity/v3/service.py``, ``endpoint.py``,
``region.py``, ``catalog.py``).

A service is named by type, name or ID, an endpoint by ID, a region by
its ID. Managing services, endpoints and regions needs the admin role;
any token lists and shows regions. ``catalog list``/``show`` read the
catalog of the token in use (a cached token keeps the catalog it was
issued with).
"""

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.identity.commands.identity_admin import enable_options

# OSC's _format_service, _format_endpoint (region twice: region and
# region_id), _format_region
_SERVICE = ("id", "name", "type", "enabled", "description")
_ENDPOINT = (
    "enabled",
    "id",
    "interface",
    "region",
    "region_id",
    "service_id",
    "url",
    "service_name",
    "service_type",
)
_REGION = ("region", "description", "parent_region")
_INTERFACES = ("admin", "public", "internal")


class EndpointsColumn(cliff_columns.FormattableColumn):
    """A catalog entry's endpoints as OSC shows them: per endpoint its
    region (``<none>``) and an indented ``interface: url`` line; the list
    in JSON."""

    def human_readable(self):
        text = ""
        for endpoint in self._value or ():
            text += (endpoint.get("region_id") or endpoint.get("region") or "<none>") + "\n"
            text += "  %s: %s\n" % (endpoint["interface"], endpoint["url"])
        return text

    def machine_readable(self):
        return list(self._value or ())


def _service(client, name_type_or_id):
    return client.identity_services.find_resource(name_type_or_id)


def _endpoint_info(endpoint, service):
    info = endpoint.to_dict()
    info.update(
        region=info.get("region_id"),
        service_name=getattr(service, "name", ""),
        service_type=service.type,
    )
    return info


def _region_info(region):
    info = region.to_dict()
    return {
        "region": info.get("id"),
        "description": info.get("description"),
        "parent_region": info.get("parent_region_id"),
    }


# -- services -------------------------------------------------------------------


@utils.arg("type", metavar="<type>", help="New service type (compute, image, identity, ...).")
@utils.arg("--name", metavar="<name>", help="New service name.")
@utils.arg("--description", metavar="<description>", help="New service description.")
@enable_options("service")
@utils.output("show")
def do_service_create(client, args):
    """Create a service in the catalog (admin).

    Example: occli service create --name glance --description 'Image service' image
    """
    service = client.identity_services.create(
        args.type,
        name=args.name,
        description=args.description,
        enabled=args.enabled is not False,
    )
    return columns.show(service, _SERVICE)


@utils.arg("--long", action="store_true", help="Also list description and enabled.")
@utils.output("list")
def do_service_list(client, args):
    """List the catalog's services (admin).

    Example: occli service list --long
    """
    cols = ["id", "name", "type"]
    headers = ["ID", "Name", "Type"]
    if args.long:
        cols += ["description", "enabled"]
        headers += ["Description", "Enabled"]
    return columns.table(client.identity_services.iter(), cols, headers=headers)


@utils.arg("service", metavar="<service>", help="Service to display (type, name or ID).")
@utils.output("show")
def do_service_show(client, args):
    """Show a service of the catalog (admin).

    Example: occli service show image
    """
    return columns.show(_service(client, args.service), _SERVICE)


@utils.arg("service", metavar="<service>", help="Service to modify (type, name or ID).")
@utils.arg("--type", metavar="<type>", help="New service type.")
@utils.arg("--name", metavar="<service-name>", help="New service name.")
@utils.arg("--description", metavar="<description>", help="New service description.")
@enable_options("service", default="")
def do_service_set(client, args):
    """Change a service's type, name, description or state (admin).

    A disabled service and its endpoints leave new tokens' catalogs.

    Example: occli service set --disable image
    """
    changes = (args.type, args.name, args.description, args.enabled)
    if all(value is None for value in changes):
        raise exceptions.ValidationError(
            "Nothing to change: give --type, --name, --description, --enable or --disable."
        )
    client.identity_services.update(
        _service(client, args.service),
        type=args.type,
        name=args.name,
        description=args.description,
        enabled=args.enabled,
    )


@utils.arg(
    "services", metavar="<service>", nargs="+", help="Service(s) to delete (type, name or ID)."
)
@utils.concurrency_option
def do_service_delete(client, args):
    """Delete services with their endpoints (admin).

    Example: occli service delete things
    """
    return utils.for_each(
        args.services,
        lambda s: client.identity_services.delete(_service(client, s)),
        "delete service",
        concurrency=args.concurrency,
    )


# -- endpoints ------------------------------------------------------------------


@utils.arg("service", metavar="<service>", help="Service of the new endpoint (name or ID).")
@utils.arg(
    "interface",
    metavar="<interface>",
    choices=_INTERFACES,
    help="Interface (admin, public or internal).",
)
@utils.arg("url", metavar="<url>", help="New endpoint URL.")
@utils.arg("--region", metavar="<region-id>", help="New endpoint region ID.")
@enable_options("endpoint")
@utils.output("show")
def do_endpoint_create(client, args):
    """Create an endpoint of a service (admin).

    Example: occli endpoint create --region RegionOne image public http://images.example:9292
    """
    service = _service(client, args.service)
    region = client.regions.find_resource(args.region) if args.region else None
    endpoint = client.endpoints.create(
        service, args.url, args.interface, region=region, enabled=args.enabled is not False
    )
    return columns.show(_endpoint_info(endpoint, service), _ENDPOINT)


@utils.arg("--service", metavar="<service>", help="Filter by service (type, name or ID).")
@utils.arg(
    "--interface",
    metavar="<interface>",
    choices=_INTERFACES,
    help="Filter by interface type (admin, public or internal).",
)
@utils.arg("--region", metavar="<region-id>", help="Filter by region ID.")
@utils.output("list")
def do_endpoint_list(client, args):
    """List endpoints (admin).

    Example: occli endpoint list --service image --interface public
    """
    service = _service(client, args.service) if args.service else None
    region = client.regions.find_resource(args.region) if args.region else None
    services = {s.id: s for s in client.identity_services.iter()}
    rows = []
    for endpoint in client.endpoints.iter(
        service=service, interface=args.interface, region=region
    ):
        owner = services.get(endpoint.service_id) or _service(client, endpoint.service_id)
        rows.append(_endpoint_info(endpoint, owner))
    cols = ["id", "region_id", "service_name", "service_type", "enabled", "interface", "url"]
    headers = ["ID", "Region", "Service Name", "Service Type", "Enabled", "Interface", "URL"]
    return columns.table(rows, cols, headers=headers)


@utils.arg("endpoint", metavar="<endpoint-id>", help="Endpoint to display (ID).")
@utils.output("show")
def do_endpoint_show(client, args):
    """Show an endpoint (admin).

    Example: occli endpoint show 1b7f0c6d2e8a4c8e9d3f5a6b7c8d9e0f
    """
    endpoint = client.endpoints.find_resource(args.endpoint)
    return columns.show(_endpoint_info(endpoint, _service(client, endpoint.service_id)), _ENDPOINT)


@utils.arg("endpoint", metavar="<endpoint-id>", help="Endpoint to modify (ID).")
@utils.arg("--region", metavar="<region-id>", help="New endpoint region ID.")
@utils.arg(
    "--interface",
    metavar="<interface>",
    choices=_INTERFACES,
    help="New endpoint interface type (admin, public or internal).",
)
@utils.arg("--url", metavar="<url>", help="New endpoint URL.")
@utils.arg("--service", metavar="<service>", help="New endpoint service (name or ID).")
@enable_options("endpoint", default="")
def do_endpoint_set(client, args):
    """Change an endpoint's URL, interface, region, service or state (admin).

    A disabled endpoint leaves new tokens' catalogs; its service still
    answers on its URL.

    Example: occli endpoint set --disable 1b7f0c6d2e8a4c8e9d3f5a6b7c8d9e0f
    """
    changes = (args.region, args.interface, args.url, args.service, args.enabled)
    if all(value is None for value in changes):
        raise exceptions.ValidationError(
            "Nothing to change: give --region, --interface, --url, --service,"
            " --enable or --disable."
        )
    client.endpoints.update(
        args.endpoint,
        service=_service(client, args.service) if args.service else None,
        url=args.url,
        interface=args.interface,
        region=args.region,
        enabled=args.enabled,
    )


@utils.arg(
    "endpoints", metavar="<endpoint-id>", nargs="+", help="Endpoint(s) to delete (ID only)."
)
@utils.concurrency_option
def do_endpoint_delete(client, args):
    """Delete endpoints (admin).

    Example: occli endpoint delete 1b7f0c6d2e8a4c8e9d3f5a6b7c8d9e0f
    """
    return utils.for_each(
        args.endpoints, client.endpoints.delete, "delete endpoint", concurrency=args.concurrency
    )


# -- regions --------------------------------------------------------------------


@utils.arg("region", metavar="<region-id>", help="New region ID.")
@utils.arg("--parent-region", metavar="<region-id>", help="Parent region ID.")
@utils.arg("--description", metavar="<description>", help="New region description.")
@utils.output("show")
def do_region_create(client, args):
    """Create a region (admin).

    Example: occli region create --parent-region RegionOne RegionOne-East
    """
    region = client.regions.create(
        args.region, description=args.description, parent_region=args.parent_region
    )
    return columns.show(_region_info(region), _REGION)


@utils.arg("--parent-region", metavar="<region-id>", help="Filter by parent region ID.")
@utils.output("list")
def do_region_list(client, args):
    """List regions (any token).

    Example: occli region list
    """
    rows = [_region_info(r) for r in client.regions.iter(parent_region=args.parent_region)]
    cols = ["region", "parent_region", "description"]
    return columns.table(rows, cols, headers=["Region", "Parent Region", "Description"])


@utils.arg("region", metavar="<region-id>", help="Region to display.")
@utils.output("show")
def do_region_show(client, args):
    """Show a region (any token).

    Example: occli region show RegionOne
    """
    return columns.show(_region_info(client.regions.find_resource(args.region)), _REGION)


@utils.arg("region", metavar="<region-id>", help="Region to modify.")
@utils.arg("--parent-region", metavar="<region-id>", help="New parent region ID.")
@utils.arg("--description", metavar="<description>", help="New region description.")
def do_region_set(client, args):
    """Change a region's parent or description (admin).

    Example: occli region set --description 'Main site' RegionOne
    """
    if args.parent_region is None and args.description is None:
        raise exceptions.ValidationError(
            "Nothing to change: give --parent-region or --description."
        )
    client.regions.update(
        args.region, description=args.description, parent_region=args.parent_region
    )


@utils.arg("regions", metavar="<region-id>", nargs="+", help="Region ID(s) to delete.")
@utils.concurrency_option
def do_region_delete(client, args):
    """Delete regions and their child regions (admin).

    Refused while any of them has endpoints.

    Example: occli region delete RegionOne-East
    """
    return utils.for_each(
        args.regions, client.regions.delete, "delete region", concurrency=args.concurrency
    )


# -- the token's catalog -------------------------------------------------------------


def _token_catalog(client):
    session = client.session
    return session.auth.get_access(session).service_catalog.catalog or []


@utils.output("list")
def do_catalog_list(client, args):
    """List the services in the token's catalog with their endpoints.

    Example: occli catalog list
    """
    return columns.table(
        _token_catalog(client),
        ["name", "type", "endpoints"],
        headers=["Name", "Type", "Endpoints"],
        formatters={"endpoints": EndpointsColumn},
    )


@utils.arg("service", metavar="<service>", help="Service to display (type or name).")
@utils.output("show")
def do_catalog_show(client, args):
    """Show one service of the token's catalog (its type or name).

    Example: occli catalog show image
    """
    for service in _token_catalog(client):
        if args.service in (service.get("name"), service.get("type")):
            info = {k: v for k, v in service.items() if k != "links"}
            return columns.show(info, formatters={"endpoints": EndpointsColumn})
    raise exceptions.CommandError("service %s not found" % args.service)
