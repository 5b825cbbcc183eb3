"""``/v2.0/extensions[/{alias}]``: the extensions this emulation serves.

Each line is one the routes and bodies really offer, none more (a field
shown but not settable, such as ``dns_publish_fixed_ip``, lists nothing);
names, descriptions and dates as Neutron 29 gives them
(``neutron_lib/api/definitions/*.py``, ``neutron/extensions/*.py``).
``availability_zone`` needs ``agent`` in Neutron: the local cloud lists
its zone without the agents API (see ``network/availability_zones.py``).
"""

from occli.localcloud.app import Response

# (alias, name, description, updated)
EXTENSIONS = (
    (
        "external-net",
        "Neutron external network",
        "Adds external network attribute to network resource.",
        "2013-01-14T10:00:00-00:00",
    ),
    (
        "subnet-external-network",
        "Subnet belongs to an external network",
        "Informs if the subnet belongs to an external network",
        "2024-02-05T18:00:00-00:00",
    ),
    (
        "security-group",
        "security-group",
        "The security groups extension.",
        "2012-10-05T10:00:00-00:00",
    ),
    (
        "stateful-security-group",
        "Stateful security group",
        "Indicates if the security group is stateful or not",
        "2019-11-26T09:00:00-00:00",
    ),
    (
        "security-groups-normalized-cidr",
        "Normalized CIDR field for security group rules",
        "Add new field with normalized remote_ip_prefix cidr in SG rule",
        "2020-07-28T10:00:00-00:00",
    ),
    (
        "security-groups-rules-belongs-to-default-sg",
        "Security group rule belongs to the project's default security group",
        "Flag to determine if the security group rule belongs to the project's default "
        "security group",
        "2023-05-23T10:00:00-00:00",
    ),
    (
        "standard-attr-description",
        "standard-attr-description",
        "Extension to add descriptions to standard attributes",
        "2016-02-10T10:00:00-00:00",
    ),
    (
        "standard-attr-revisions",
        "Resource revision numbers",
        "This extension will display the revision number of neutron resources.",
        "2016-04-11T10:00:00-00:00",
    ),
    (
        "standard-attr-timestamp",
        "Resource timestamps",
        "Adds created_at and updated_at fields "
        "to all Neutron resources that have Neutron standard attributes.",
        "2016-09-12T10:00:00-00:00",
    ),
    (
        "project-id",
        "project_id field enabled",
        "Extension that indicates that project_id field is enabled.",
        "2016-09-09T09:09:09-09:09",
    ),
    (
        "binding",
        "Port Binding",
        "Expose port bindings of a virtual port to external application",
        "2014-02-03T10:00:00-00:00",
    ),
    ("port-security", "Port Security", "Provides port security", "2012-07-23T10:00:00-00:00"),
    (
        "allowed-address-pairs",
        "Allowed Address Pairs",
        "Provides allowed address pairs",
        "2013-07-23T10:00:00-00:00",
    ),
    (
        "net-mtu",
        "Network MTU",
        "Provides MTU attribute for a network resource.",
        "2015-03-25T10:00:00-00:00",
    ),
    (
        "net-mtu-writable",
        "Network MTU (writable)",
        "Provides a writable MTU attribute for a network resource.",
        "2017-07-12T00:00:00-00:00",
    ),
    (
        "filter-validation",
        "Filter parameters validation",
        "Provides validation on filter parameters.",
        "2018-07-04T10:00:00-00:00",
    ),
    (
        "empty-string-filtering",
        "Empty String Filtering Extension",
        "Allow filtering by attributes with empty string value",
        "2018-05-01T10:00:00-00:00",
    ),
    (
        "pagination",
        "Pagination support",
        "Extension that indicates that pagination is enabled.",
        "2016-06-12T00:00:00-00:00",
    ),
    (
        "sorting",
        "Sorting support",
        "Extension that indicates that sorting is enabled.",
        "2016-06-12T00:00:00-00:00",
    ),
    (
        "quotas",
        "Quota management support",
        "Expose functions for quotas management per project",
        "2012-07-29T10:00:00-00:00",
    ),
    (
        "quota_details",
        "Quota details management support",
        "Expose functions for quotas usage statistics per project",
        "2017-02-10T10:00:00-00:00",
    ),
    (
        "fip-port-details",
        "Floating IP Port Details Extension",
        "Add port_details attribute to Floating IP resource",
        "2018-04-09T10:00:00-00:00",
    ),
    (
        "router",
        "Neutron L3 Router",
        "Router abstraction for basic L3 forwarding between L2 Neutron networks and access "
        "to external networks via a NAT gateway.",
        "2012-07-20T10:00:00-00:00",
    ),
    (
        "extraroute",
        "Neutron Extra Route",
        "Extra routes configuration for L3 router",
        "2013-02-01T10:00:00-00:00",
    ),
    (
        "ext-gw-mode",
        "Neutron L3 Configurable external gateway mode",
        "Extension of the router abstraction for specifying whether SNAT should occur on "
        "the external gateway",
        "2013-03-28T10:00:00-00:00",
    ),
    (
        "dvr",
        "Distributed Virtual Router",
        "Enables configuration of Distributed Virtual Routers.",
        "2014-06-1T10:00:00-00:00",
    ),
    (
        "l3-ha",
        "HA Router extension",
        "Adds HA capability to routers.",
        "2014-04-26T00:00:00-00:00",
    ),
    (
        "standard-attr-tag",
        "Tag support for resources with standard attribute: "
        "port, subnet, subnetpool, network, security_group, router, floatingip",
        "Enables to set tag on resources with standard attribute.",
        "2017-01-01T00:00:00-00:00",
    ),
    (
        "tag-creation",
        "Tag creation extension",
        "Allow to create multiple tags for a resource",
        "2024-23-07T10:00:00-00:00",
    ),
    (
        "subnet_allocation",
        "Subnet Allocation",
        "Enables allocation of subnets from a subnet pool",
        "2015-03-30T10:00:00-00:00",
    ),
    (
        "default-subnetpools",
        "Default Subnetpools",
        "Provides ability to mark and use a subnetpool as the default.",
        "2016-02-18T18:00:00-00:00",
    ),
    (
        "address-scope",
        "Address scope",
        "Address scopes extension.",
        "2015-07-26T10:00:00-00:00",
    ),
    (
        "availability_zone",
        "Availability Zone",
        "The availability zone extension.",
        "2015-01-01T10:00:00-00:00",
    ),
    (
        "network_availability_zone",
        "Network Availability Zone",
        "Availability zone support for network.",
        "2015-01-01T10:00:00-00:00",
    ),
    (
        "router_availability_zone",
        "Router Availability Zone",
        "Availability zone support for router.",
        "2015-01-01T10:00:00-00:00",
    ),
)


#: attributes the views show as Neutron 29's do, though their extension is
#: not listed (its routes or settable values are not served): ML2's
#: ``vlan-transparent`` and ``qinq`` (always false), and
#: ``auto-allocated-topology``'s ``is_default`` of an external network
#: (no ``/auto-allocated-topology``); ``subnet-service-types``' subnet
#: ``service_types`` and ``extra_dhcp_opt``'s port ``extra_dhcp_opts``
#: (always empty: no DHCP agent to give them to), ``l3-flavors``' router
#: ``flavor_id`` (always null: no ``/flavors``), a security group's
#: ``shared`` (always false: no RBAC) and a rule's
#: ``remote_address_group_id`` (always null: no ``/address-groups``)
SHOWN_UNLISTED = {
    "networks": ("vlan_transparent", "qinq", "is_default"),
    "subnets": ("service_types",),
    "ports": ("extra_dhcp_opts",),
    "routers": ("flavor_id",),
    "security_groups": ("shared",),
    "security_group_rules": ("remote_address_group_id",),
}


def register(service):
    service.route("GET", "/v2.0/extensions", extensions)
    service.route("GET", "/v2.0/extensions/{alias}", show_extension)


def _view(extension):
    alias, name, description, updated = extension
    return {
        "alias": alias,
        "name": name,
        "description": description,
        "links": [],
        "updated": updated,
    }


def extensions(req):
    return Response(200, {"extensions": [_view(e) for e in EXTENSIONS]})


def show_extension(req):
    """One extension by alias; neutron's pecan 404 otherwise
    (``neutron/pecan_wsgi/controllers/extensions.py``)."""
    alias = req.params["alias"]
    for extension in EXTENSIONS:
        if extension[0] == alias:
            return Response(200, {"extension": _view(extension)})
    # pecan's abort(404, detail=…): webob's own JSON error, not a NeutronError
    message = (
        "The resource could not be found.<br /><br />\nExtension with alias %s does not exist\n\n"
    )
    return Response(
        404, {"message": message % alias, "code": "404 Not Found", "title": "Not Found"}
    )
