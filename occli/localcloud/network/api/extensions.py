"""``/v2.0/extensions``: the extensions this emulation implements."""

from occli.localcloud.app import Response

# the extensions this emulation implements (GET /v2.0/extensions)
EXTENSIONS = (
    ("external-net", "Neutron external network", "Adds external network attribute"),
    ("security-group", "security-group", "The security groups extension."),
    ("standard-attr-description", "standard-attr-description", "Extension to add descriptions"),
    (
        "standard-attr-revisions",
        "Resource revision numbers",
        "This extension will display the revision number of neutron resources.",
    ),
    (
        "standard-attr-timestamp",
        "Resource timestamps",
        "Adds created_at and updated_at fields "
        "to all Neutron resources that have Neutron standard attributes.",
    ),
    (
        "project-id",
        "project_id field enabled",
        "Extension that indicates that project_id field is enabled.",
    ),
    ("binding", "Port Binding", "Expose port bindings of a virtual port to external application"),
    ("port-security", "Port Security", "Provides port security"),
    (
        "filter-validation",
        "Filter parameters validation",
        "Provides validation on filter parameters.",
    ),
    (
        "empty-string-filtering",
        "Empty String Filtering Extension",
        "Allow filtering by attributes with empty string value",
    ),
    (
        "fip-port-details",
        "Floating IP Port Details Extension",
        "Add port_details attribute to Floating IP resource",
    ),
    # neutron_lib/api/definitions/{l3,extraroute,l3_ext_gw_mode,dvr,l3_ext_ha_mode}.py
    (
        "router",
        "Neutron L3 Router",
        "Router abstraction for basic L3 forwarding between L2 Neutron networks and access "
        "to external networks via a NAT gateway.",
    ),
    ("extraroute", "Neutron Extra Route", "Extra routes configuration for L3 router"),
    (
        "ext-gw-mode",
        "Neutron L3 Configurable external gateway mode",
        "Extension of the router abstraction for specifying whether SNAT should occur on "
        "the external gateway",
    ),
    ("dvr", "Distributed Virtual Router", "Enables configuration of Distributed Virtual Routers."),
    ("l3-ha", "HA Router extension", "Adds HA capability to routers."),
    (
        "standard-attr-tag",
        "Tag support for resources with standard attribute: "
        "network, subnet, port, router, security_group, floatingip",
        "Enables to set tag on resources with standard attribute.",
    ),
    ("tag-creation", "Tag creation extension", "Allow to create multiple tags for a resource"),
    (
        "tag-ports-during-bulk-creation",
        "Tag Ports During Bulk Creation",
        "Allow to tag ports during bulk creation",
    ),
)


def register(service):
    service.route("GET", "/v2.0/extensions", extensions)


def extensions(req):
    return Response(
        200,
        {
            "extensions": [
                {
                    "alias": alias,
                    "name": name,
                    "description": description,
                    "links": [],
                    "updated": "2013-01-01T10:00:00-00:00",
                }
                for alias, name, description in EXTENSIONS
            ]
        },
    )
