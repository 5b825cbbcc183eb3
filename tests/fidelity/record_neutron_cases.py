"""The cases ``record_neutron.py`` records: one function per fixture file,
each sending its requests through a ``Recorder`` (``rec.call`` records one
exchange; ``rec.raw`` does not). Bodies may name this run's ids as
``"{placeholder}"`` strings."""

from typing import Any


def networks(rec):
    """Networks and subnets: defaults, every field, bad bodies, member
    policy refusals, bulk create, tags and their filters, deletes."""
    c = rec.call
    _, net = c("net_create_defaults", "POST", "/networks", {"network": {}})
    rec.id_of("net", net)
    c(
        "net_create_all",
        "POST",
        "/networks",
        {
            "network": {
                "name": "n-all",
                "description": "every field",
                "admin_state_up": False,
                "mtu": 1400,
                "port_security_enabled": False,
                "availability_zone_hints": [],
            }
        },
    )
    c("net_show", "GET", "/networks/{net}")
    c("net_update", "PUT", "/networks/{net}", {"network": {"name": "n2", "mtu": 1300}})
    c("net_create_unknown_attr", "POST", "/networks", {"network": {"color": "red"}})
    c("net_create_bad_mtu", "POST", "/networks", {"network": {"mtu": "big"}})
    c("net_create_no_body", "POST", "/networks", {"net": {}})
    c("net_create_shared_member", "POST", "/networks", {"network": {"shared": True}})
    c("net_create_external_member", "POST", "/networks", {"network": {"router:external": True}})
    c(
        "net_create_provider_member",
        "POST",
        "/networks",
        {"network": {"provider:network_type": "vxlan"}},
    )
    c("net_update_shared_member", "PUT", "/networks/{net}", {"network": {"shared": True}})
    c("net_show_unknown", "GET", "/networks/00000000-0000-0000-0000-000000000000")
    # subnets
    _, sub = c(
        "subnet_create_defaults",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.1.0.0/24"}},
    )
    rec.id_of("sub", sub)
    c(
        "subnet_create_all",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "cidr": "10.2.0.0/24",
                "name": "s-all",
                "description": "every field",
                "gateway_ip": "10.2.0.254",
                "allocation_pools": [{"start": "10.2.0.10", "end": "10.2.0.20"}],
                "dns_nameservers": ["10.0.0.53"],
                "host_routes": [{"destination": "192.168.0.0/24", "nexthop": "10.2.0.1"}],
                "enable_dhcp": False,
            }
        },
    )
    c(
        "subnet_create_v6",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 6,
                "cidr": "fd00:1::/64",
                "ipv6_ra_mode": "slaac",
                "ipv6_address_mode": "slaac",
            }
        },
    )
    c("subnet_show", "GET", "/subnets/{sub}")
    bad: dict[str, dict[str, Any]] = {
        "bad_cidr_prefix": {"cidr": "10.3.0.0/33"},
        "bad_cidr_text": {"cidr": "abc"},
        "cidr_host_bits": {"cidr": "10.3.0.1/24"},
        "overlapping": {"cidr": "10.1.0.128/25"},
        "pool_outside": {
            "cidr": "10.4.0.0/24",
            "allocation_pools": [{"start": "10.5.0.2", "end": "10.5.0.9"}],
        },
        "pool_reversed": {
            "cidr": "10.4.0.0/24",
            "allocation_pools": [{"start": "10.4.0.9", "end": "10.4.0.2"}],
        },
        "pools_overlap": {
            "cidr": "10.4.0.0/24",
            "allocation_pools": [
                {"start": "10.4.0.2", "end": "10.4.0.9"},
                {"start": "10.4.0.5", "end": "10.4.0.12"},
            ],
        },
        "gateway_in_pool": {
            "cidr": "10.4.0.0/24",
            "gateway_ip": "10.4.0.5",
            "allocation_pools": [{"start": "10.4.0.2", "end": "10.4.0.9"}],
        },
        "bad_host_route": {
            "cidr": "10.4.0.0/24",
            "host_routes": [{"destination": "x", "nexthop": "10.4.0.1"}],
        },
        "bad_dns": {"cidr": "10.4.0.0/24", "dns_nameservers": ["nope"]},
        "wrong_version": {"cidr": "fd00:9::/64"},
        "unknown_attr": {"cidr": "10.4.0.0/24", "color": "red"},
        "no_cidr": {},
    }
    for name, fields in bad.items():
        body: dict[str, Any] = {"network_id": "{net}", "ip_version": 4}
        body.update(fields)
        c("subnet_create_" + name, "POST", "/subnets", {"subnet": body})
    c(
        "subnet_create_no_network",
        "POST",
        "/subnets",
        {"subnet": {"ip_version": 4, "cidr": "10.6.0.0/24"}},
    )
    c(
        "subnet_update",
        "PUT",
        "/subnets/{sub}",
        {
            "subnet": {
                "name": "s2",
                "dns_nameservers": ["10.0.0.54"],
                "host_routes": [{"destination": "172.16.0.0/16", "nexthop": "10.1.0.9"}],
            }
        },
    )
    c("subnet_update_cidr", "PUT", "/subnets/{sub}", {"subnet": {"cidr": "10.9.0.0/24"}})
    # bulk
    c(
        "bulk_networks",
        "POST",
        "/networks",
        {"networks": [{"name": "b1"}, {"name": "b2"}]},
    )
    c(
        "bulk_networks_one_bad",
        "POST",
        "/networks",
        {"networks": [{"name": "b3"}, {"name": "b4", "mtu": "x"}]},
    )
    c(
        "bulk_subnets_one_bad",
        "POST",
        "/subnets",
        {
            "subnets": [
                {"network_id": "{net}", "ip_version": 4, "cidr": "10.7.0.0/24"},
                {"network_id": "{net}", "ip_version": 4, "cidr": "10.7.0.0/33"},
            ]
        },
    )
    c("list_after_bulk", "GET", "/networks", query="name=b3")
    # tags
    c("tags_put", "PUT", "/networks/{net}/tags", {"tags": ["red", "blue"]})
    c("tags_get", "GET", "/networks/{net}/tags")
    c("tag_check", "GET", "/networks/{net}/tags/red")
    c("tag_check_missing", "GET", "/networks/{net}/tags/green")
    c("tag_add_one", "PUT", "/networks/{net}/tags/green")
    c("tags_post", "POST", "/networks/{net}/tags", {"tags": ["white"]})
    c("tags_bad_body", "PUT", "/networks/{net}/tags", {"tags": "red"})
    c("tags_filter", "GET", "/networks", query="tags=red,blue")
    c("tags_any_filter", "GET", "/networks", query="tags-any=red,nope")
    c("not_tags_filter", "GET", "/networks", query="not-tags=red")
    c("net_show_tagged", "GET", "/networks/{net}")
    c("tag_delete_one", "DELETE", "/networks/{net}/tags/red")
    c("tag_delete_missing", "DELETE", "/networks/{net}/tags/red")
    c("tags_delete", "DELETE", "/networks/{net}/tags")
    c("subnet_tags_put", "PUT", "/subnets/{sub}/tags", {"tags": ["s"]})
    c("filter_unknown", "GET", "/networks", query="color=red")
    # deletes
    # its IPv4 address from {sub}: Neutron's IPAM tries a network's subnets
    # in random order (the live comparison, tests/fidelity/test_live_neutron.py)
    _, port = c(
        "port_on_net",
        "POST",
        "/ports",
        {"port": {"network_id": "{net}", "fixed_ips": [{"subnet_id": "{sub}"}]}},
    )
    rec.id_of("port", port)
    c("net_delete_in_use", "DELETE", "/networks/{net}")
    c("subnet_delete_in_use", "DELETE", "/subnets/{sub}")
    c("port_delete", "DELETE", "/ports/{port}")
    c("subnet_delete", "DELETE", "/subnets/{sub}")
    c("subnet_delete_again", "DELETE", "/subnets/{sub}")
    c("net_delete", "DELETE", "/networks/{net}")
    c("net_delete_again", "DELETE", "/networks/{net}")


def ports(rec):
    """Ports: defaults, every field, bad MACs and fixed IPs, allowed address
    pairs (and the list filter), tags on create, bulk, updates."""
    c = rec.call
    _, net = c("net", "POST", "/networks", {"network": {"name": "p-net"}})
    rec.id_of("net", net)
    _, sub = c(
        "subnet",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.20.0.0/24"}},
    )
    rec.id_of("sub", sub)
    _, port = c("port_create_defaults", "POST", "/ports", {"port": {"network_id": "{net}"}})
    rec.id_of("port", port)
    _, full = c(
        "port_create_all",
        "POST",
        "/ports",
        {
            "port": {
                "network_id": "{net}",
                "name": "p-all",
                "description": "every field",
                "admin_state_up": False,
                "mac_address": "fa:16:3e:00:00:01",
                "fixed_ips": [{"subnet_id": "{sub}", "ip_address": "10.20.0.50"}],
                "allowed_address_pairs": [
                    {"ip_address": "10.20.0.200"},
                    {"ip_address": "10.30.0.0/24", "mac_address": "fa:16:3e:00:00:02"},
                ],
                "device_id": "dev-1",
                "tags": ["t1"],
            }
        },
    )
    rec.id_of("full", full)
    c("port_show", "GET", "/ports/{full}")
    c("port_list_aap_ip", "GET", "/ports", query="allowed_address_pairs=10.20.0.200")
    c(
        "port_list_aap_ip_address",
        "GET",
        "/ports",
        query="allowed_address_pairs=ip_address%3D10.20.0.200",
    )
    c(
        "port_list_aap_ip_address_cidr",
        "GET",
        "/ports",
        query="allowed_address_pairs=ip_address%3D10.30.0.0/24",
    )
    c(
        "port_list_aap_mac",
        "GET",
        "/ports",
        query="allowed_address_pairs=mac_address%3Dfa:16:3e:00:00:02",
    )
    c("port_list_fixed_ip", "GET", "/ports", query="fixed_ips=ip_address%3D10.20.0.50")
    c("port_list_mac", "GET", "/ports", query="mac_address=fa:16:3e:00:00:01")
    c("port_list_tags", "GET", "/ports", query="tags=t1")
    bad: dict[str, dict[str, Any]] = {
        "bad_mac": {"mac_address": "zz:16:3e:00:00:01"},
        "mac_in_use": {"mac_address": "fa:16:3e:00:00:01"},
        "ip_in_use": {"fixed_ips": [{"ip_address": "10.20.0.50"}]},
        "ip_outside": {"fixed_ips": [{"ip_address": "10.99.0.5"}]},
        "ip_bad": {"fixed_ips": [{"ip_address": "10.20.0.500"}]},
        "unknown_subnet": {"fixed_ips": [{"subnet_id": "00000000-0000-0000-0000-000000000000"}]},
        "ip_not_on_subnet": {"fixed_ips": [{"subnet_id": "{sub}", "ip_address": "10.21.0.5"}]},
        "aap_bad_ip": {"allowed_address_pairs": [{"ip_address": "nope"}]},
        "aap_no_ip": {"allowed_address_pairs": [{"mac_address": "fa:16:3e:00:00:03"}]},
        "aap_unknown_key": {"allowed_address_pairs": [{"ip_address": "10.1.1.1", "x": 1}]},
        "aap_without_security": {
            "port_security_enabled": False,
            "allowed_address_pairs": [{"ip_address": "10.1.1.1"}],
        },
        "tags_not_list": {"tags": "t1"},
        "unknown_attr": {"color": "red"},
        "binding_member": {"binding:host_id": "h1"},
    }
    for name, fields in bad.items():
        body = {"network_id": "{net}", **fields}
        c("port_create_" + name, "POST", "/ports", {"port": body})
    c("port_create_no_network", "POST", "/ports", {"port": {}})
    c(
        "port_update",
        "PUT",
        "/ports/{port}",
        {
            "port": {
                "name": "p2",
                "fixed_ips": [{"subnet_id": "{sub}", "ip_address": "10.20.0.60"}],
                "allowed_address_pairs": [{"ip_address": "10.20.0.61"}],
            }
        },
    )
    c("port_update_aap_clear", "PUT", "/ports/{port}", {"port": {"allowed_address_pairs": []}})
    c("port_update_network", "PUT", "/ports/{port}", {"port": {"network_id": "{net}"}})
    c(
        "port_update_security_off_with_pairs",
        "PUT",
        "/ports/{full}",
        {"port": {"port_security_enabled": False}},
    )
    c(
        "port_update_mac_member",
        "PUT",
        "/ports/{port}",
        {"port": {"mac_address": "fa:16:3e:0:0:9"}},
    )
    c(
        "bulk_ports",
        "POST",
        "/ports",
        {"ports": [{"network_id": "{net}", "name": "bp1"}, {"network_id": "{net}"}]},
    )
    c(
        "bulk_ports_one_bad",
        "POST",
        "/ports",
        {
            "ports": [
                {"network_id": "{net}", "name": "bp3"},
                {"network_id": "{net}", "mac_address": "x"},
            ]
        },
    )
    c("list_after_bad_bulk", "GET", "/ports", query="name=bp3")
    c("port_delete", "DELETE", "/ports/{port}")
    c("port_delete_again", "DELETE", "/ports/{port}")


def routers(rec):
    """Routers: an admin's external network, gateways, interfaces by subnet
    and by port (and their errors), floating IPs through the router."""
    c = rec.call
    _, ext = c(
        "ext_net",
        "POST",
        "/networks",
        {
            "network": {
                "name": rec.tag + "-ext",
                "router:external": True,
                "provider:network_type": "flat",
                "provider:physical_network": "physnet1",
            }
        },
        caller="admin",
    )
    rec.id_of("ext", ext)
    _, extsub = c(
        "ext_subnet",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{ext}",
                "ip_version": 4,
                "cidr": "198.51.100.0/24",
                "enable_dhcp": False,
            }
        },
        caller="admin",
    )
    rec.id_of("extsub", extsub)
    c("ext_net_member_show", "GET", "/networks/{ext}")
    _, net = c("net", "POST", "/networks", {"network": {"name": "r-net"}})
    rec.id_of("net", net)
    _, sub = c(
        "subnet",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.40.0.0/24"}},
    )
    rec.id_of("sub", sub)
    _, sub2 = c(
        "subnet2",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.41.0.0/24"}},
    )
    rec.id_of("sub2", sub2)
    _, router = c("router_create_defaults", "POST", "/routers", {"router": {}})
    rec.id_of("router", router)
    _, r2 = c(
        "router_create_with_gateway",
        "POST",
        "/routers",
        {
            "router": {
                "name": "r-gw",
                "description": "d",
                "admin_state_up": False,
                "external_gateway_info": {"network_id": "{ext}"},
            }
        },
    )
    rec.id_of("r2", r2)
    c(
        "router_create_gw_fixed_ip_member",
        "POST",
        "/routers",
        {
            "router": {
                "external_gateway_info": {
                    "network_id": "{ext}",
                    "external_fixed_ips": [{"ip_address": "198.51.100.77"}],
                }
            }
        },
    )
    c(
        "router_create_gw_internal_net",
        "POST",
        "/routers",
        {"router": {"external_gateway_info": {"network_id": "{net}"}}},
    )
    c("router_create_unknown_attr", "POST", "/routers", {"router": {"color": "red"}})
    c("router_create_distributed_member", "POST", "/routers", {"router": {"distributed": True}})
    c("router_show", "GET", "/routers/{r2}")
    _, vm = c(
        "vm_port",
        "POST",
        "/ports",
        # on {sub}, the subnet the router gets (the IPAM's pick is random)
        {
            "port": {
                "network_id": "{net}",
                "name": "vm",
                "device_id": "vm-1",
                "fixed_ips": [{"subnet_id": "{sub}"}],
            }
        },
    )
    rec.id_of("vm", vm)
    c(
        "fip_not_reachable",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{ext}", "port_id": "{vm}"}},
    )
    c(
        "gateway_set",
        "PUT",
        "/routers/{router}",
        {"router": {"name": "r1", "external_gateway_info": {"network_id": "{ext}"}}},
    )
    c("add_by_subnet", "PUT", "/routers/{router}/add_router_interface", {"subnet_id": "{sub}"})
    c(
        "add_by_subnet_again",
        "PUT",
        "/routers/{router}/add_router_interface",
        {"subnet_id": "{sub}"},
    )
    c(
        "add_same_subnet_other_router",
        "PUT",
        "/routers/{r2}/add_router_interface",
        {"subnet_id": "{sub}"},
    )
    c("add_neither", "PUT", "/routers/{router}/add_router_interface", {})
    c(
        "add_both",
        "PUT",
        "/routers/{router}/add_router_interface",
        {"subnet_id": "{sub}", "port_id": "{vm}"},
    )
    c(
        "add_unknown_subnet",
        "PUT",
        "/routers/{router}/add_router_interface",
        {"subnet_id": "00000000-0000-0000-0000-000000000000"},
    )
    c("add_port_in_use", "PUT", "/routers/{router}/add_router_interface", {"port_id": "{vm}"})
    _, fip = c(
        "fip_create",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{ext}", "port_id": "{vm}"}},
    )
    rec.id_of("fip", fip)
    c("fip_show", "GET", "/floatingips/{fip}")
    c(
        "remove_used_by_fip",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"subnet_id": "{sub}"},
    )
    _, rport = c(
        "iface_port",
        "POST",
        "/ports",
        {"port": {"network_id": "{net}", "fixed_ips": [{"subnet_id": "{sub2}"}]}},
    )
    rec.id_of("rport", rport)
    c("add_by_port", "PUT", "/routers/{router}/add_router_interface", {"port_id": "{rport}"})
    c("iface_port_show", "GET", "/ports/{rport}")
    c("router_ports", "GET", "/ports", query="device_id={router}".format(**rec.case["ids"]))
    c(
        "remove_used_by_fip_other_iface",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"subnet_id": "{sub}"},
        note="with a second interface on the same network: still refused",
    )
    c("delete_subnet_on_router", "DELETE", "/subnets/{sub2}")
    c("delete_port_on_router", "DELETE", "/ports/{rport}")
    c("delete_router_in_use", "DELETE", "/routers/{router}")
    c(
        "gateway_clear_with_fip",
        "PUT",
        "/routers/{router}",
        {"router": {"external_gateway_info": {}}},
    )
    c("fip_disassociate", "PUT", "/floatingips/{fip}", {"floatingip": {"port_id": None}})
    c(
        "fip_create_unattached",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{ext}"}},
    )
    c(
        "fip_create_internal_net",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{net}"}},
    )
    c(
        "remove_by_subnet",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"subnet_id": "{sub}"},
    )
    c(
        "remove_not_attached",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"subnet_id": "{sub}"},
    )
    c(
        "remove_port_not_attached",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"port_id": "{vm}"},
    )
    c("remove_neither", "PUT", "/routers/{router}/remove_router_interface", {})
    c(
        "remove_by_port",
        "PUT",
        "/routers/{router}/remove_router_interface",
        {"port_id": "{rport}"},
    )
    c("iface_port_gone", "GET", "/ports/{rport}")
    c("fip_delete", "DELETE", "/floatingips/{fip}")
    c("gateway_clear", "PUT", "/routers/{router}", {"router": {"external_gateway_info": {}}})
    c("router_delete", "DELETE", "/routers/{router}")
    c("router_delete_again", "DELETE", "/routers/{router}")


def pools(rec):
    """Address scopes and subnet pools, subnets allocated from a pool,
    tags on both, member refusals."""
    c = rec.call
    _, scope = c(
        "scope_create",
        "POST",
        "/address-scopes",
        {"address_scope": {"name": "sc", "ip_version": 4}},
    )
    rec.id_of("scope", scope)
    c("scope_show", "GET", "/address-scopes/{scope}")
    c("scope_update", "PUT", "/address-scopes/{scope}", {"address_scope": {"name": "sc2"}})
    c(
        "scope_create_bad_version",
        "POST",
        "/address-scopes",
        {"address_scope": {"name": "x", "ip_version": 5}},
    )
    c(
        "scope_create_shared_member",
        "POST",
        "/address-scopes",
        {"address_scope": {"name": "x", "ip_version": 4, "shared": True}},
    )
    c("scope_tags_put", "PUT", "/address-scopes/{scope}/tags", {"tags": ["a"]})
    _, pool = c(
        "pool_create",
        "POST",
        "/subnetpools",
        {
            "subnetpool": {
                "name": "pl",
                "prefixes": ["10.80.0.0/16"],
                "default_prefixlen": 24,
                "address_scope_id": "{scope}",
            }
        },
    )
    rec.id_of("pool", pool)
    c("pool_show", "GET", "/subnetpools/{pool}")
    c(
        "pool_update",
        "PUT",
        "/subnetpools/{pool}",
        {"subnetpool": {"name": "pl2", "prefixes": ["10.80.0.0/16", "10.81.0.0/16"]}},
    )
    c(
        "pool_create_bad_prefix",
        "POST",
        "/subnetpools",
        {"subnetpool": {"name": "x", "prefixes": ["10.0.0.0/33"]}},
    )
    c("pool_create_no_prefixes", "POST", "/subnetpools", {"subnetpool": {"name": "x"}})
    c(
        "pool_create_shared_member",
        "POST",
        "/subnetpools",
        {"subnetpool": {"name": "x", "prefixes": ["10.90.0.0/16"], "shared": True}},
    )
    c(
        "pool_create_default_member",
        "POST",
        "/subnetpools",
        {"subnetpool": {"name": "x", "prefixes": ["10.91.0.0/16"], "is_default": True}},
    )
    c(
        "pool_create_scope_overlap",
        "POST",
        "/subnetpools",
        {"subnetpool": {"name": "x", "prefixes": ["10.80.0.0/20"], "address_scope_id": "{scope}"}},
    )
    c("pool_tags_put", "PUT", "/subnetpools/{pool}/tags", {"tags": ["p1", "p2"]})
    c("pool_tags_get", "GET", "/subnetpools/{pool}/tags")
    c("pool_list_tags", "GET", "/subnetpools", query="tags=p1")
    c("pool_show_tagged", "GET", "/subnetpools/{pool}")
    _, net = c("net", "POST", "/networks", {"network": {"name": "pool-net"}})
    rec.id_of("net", net)
    _, sub = c(
        "subnet_from_pool",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "subnetpool_id": "{pool}"}},
    )
    rec.id_of("sub", sub)
    c(
        "subnet_from_pool_prefixlen",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "subnetpool_id": "{pool}",
                "prefixlen": 26,
            }
        },
    )
    c(
        "subnet_from_pool_cidr",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "subnetpool_id": "{pool}",
                "cidr": "10.81.5.0/24",
            }
        },
    )
    c(
        "subnet_from_pool_cidr_outside",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "subnetpool_id": "{pool}",
                "cidr": "10.99.5.0/24",
            }
        },
    )
    c(
        "subnet_from_pool_bad_prefixlen",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "subnetpool_id": "{pool}",
                "prefixlen": 8,
            }
        },
    )
    c("net_show_scoped", "GET", "/networks/{net}")
    c("pool_delete_in_use", "DELETE", "/subnetpools/{pool}")
    c("scope_delete_in_use", "DELETE", "/address-scopes/{scope}")
    c("pool_tags_delete", "DELETE", "/subnetpools/{pool}/tags")


def discovery(rec):
    """The v2.0 document, extensions (list, show, unknown) and availability
    zones."""
    c = rec.call
    c("version", "GET", "/")
    c("extensions", "GET", "/extensions")
    c("extension_router", "GET", "/extensions/router")
    c("extension_tags", "GET", "/extensions/standard-attr-tag")
    c("extension_unknown", "GET", "/extensions/nope")
    c("zones", "GET", "/availability_zones")
    c("zones_admin", "GET", "/availability_zones", caller="admin")


def cidrs(rec):
    """Subnet CIDRs with host bits (IPv4 and IPv6): what Neutron stores,
    shows, lists and derives (gateway, pools) from them (issue 23)."""
    c = rec.call
    _, net = c("net", "POST", "/networks", {"network": {"name": "hostbits"}})
    rec.id_of("net", net)
    _, sub = c(
        "subnet_v4_host_bits",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.99.99.0/16"}},
    )
    rec.id_of("sub", sub)
    _, sub6 = c(
        "subnet_v6_host_bits",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 6, "cidr": "fd00:99:99:1::5/48"}},
    )
    rec.id_of("sub6", sub6)
    c("subnet_v4_show", "GET", "/subnets/{sub}")
    c("subnet_v6_show", "GET", "/subnets/{sub6}")
    c("subnet_list", "GET", "/subnets", query="network_id={net}".format(**rec.case["ids"]))
    c("subnet_list_by_cidr", "GET", "/subnets", query="cidr=10.99.0.0/16")
    c("subnet_list_by_sent_cidr", "GET", "/subnets", query="cidr=10.99.99.0/16")
    c(
        "subnet_v4_overlap_host_bits",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.99.5.0/24"}},
    )
    c(
        "subnet_v4_host_bits_gateway",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{net}",
                "ip_version": 4,
                "cidr": "10.98.7.9/16",
                "gateway_ip": "10.98.7.1",
            }
        },
    )
    c("net_show", "GET", "/networks/{net}")


def port_security(rec):
    """port_security_enabled on a network: stored, shown, filtered and
    inherited by its ports, and the port-security extension's refusals
    (issue 23)."""
    c = rec.call
    _, net = c(
        "net_create_insecure",
        "POST",
        "/networks",
        {"network": {"name": "insecure", "port_security_enabled": False}},
    )
    rec.id_of("net", net)
    c("net_show", "GET", "/networks/{net}")
    c("net_list_filter_false", "GET", "/networks", query="port_security_enabled=False")
    c("net_list_filter_true", "GET", "/networks", query="port_security_enabled=True&name=insecure")
    _, sub = c(
        "subnet",
        "POST",
        "/subnets",
        {"subnet": {"network_id": "{net}", "ip_version": 4, "cidr": "10.60.0.0/24"}},
    )
    rec.id_of("sub", sub)
    _, port = c("port_inherits", "POST", "/ports", {"port": {"network_id": "{net}"}})
    rec.id_of("port", port)
    _, secured = c(
        "port_own_value_wins",
        "POST",
        "/ports",
        {"port": {"network_id": "{net}", "port_security_enabled": True}},
    )
    rec.id_of("secured", secured)
    rec.case["ids"]["sg_default"] = secured["port"]["security_groups"][0]
    rec.created.insert(0, ("admin", "/security-groups/" + rec.case["ids"]["sg_default"]))
    c(
        "port_with_groups_refused",
        "POST",
        "/ports",
        {"port": {"network_id": "{net}", "security_groups": ["{sg_default}"]}},
    )
    c(
        "port_with_pairs_refused",
        "POST",
        "/ports",
        {
            "port": {
                "network_id": "{net}",
                "allowed_address_pairs": [{"ip_address": "10.60.0.200"}],
            }
        },
    )
    c(
        "port_update_add_groups",
        "PUT",
        "/ports/{port}",
        {"port": {"security_groups": ["{sg_default}"]}},
    )
    c(
        "port_update_add_pairs",
        "PUT",
        "/ports/{port}",
        {"port": {"allowed_address_pairs": [{"ip_address": "10.60.0.200"}]}},
    )
    c(
        "port_disable_with_groups",
        "PUT",
        "/ports/{secured}",
        {"port": {"port_security_enabled": False}},
    )
    c(
        "port_disable_and_clear_groups",
        "PUT",
        "/ports/{secured}",
        {"port": {"port_security_enabled": False, "security_groups": []}},
    )
    c(
        "port_enable",
        "PUT",
        "/ports/{port}",
        {"port": {"port_security_enabled": True}},
    )
    c("port_list_filter", "GET", "/ports", query="port_security_enabled=False")
    c(
        "net_update_secure",
        "PUT",
        "/networks/{net}",
        {"network": {"port_security_enabled": True}},
    )
    _, later = c("port_after_update", "POST", "/ports", {"port": {"network_id": "{net}"}})
    rec.id_of("later", later)
    c(
        "net_update_insecure",
        "PUT",
        "/networks/{net}",
        {"network": {"port_security_enabled": False}},
    )
    c("port_show_after_net_update", "GET", "/ports/{later}")
    c("net_update_bad", "PUT", "/networks/{net}", {"network": {"port_security_enabled": "x"}})


def external(rec):
    """Another project's external network: its subnets and ports hidden
    from a member; deleting an external network with floating IPs on it,
    and with a router's gateway on it (issue 23)."""
    c = rec.call
    _, ext = c(
        "ext_net",
        "POST",
        "/networks",
        {"network": {"name": rec.tag + "-ext1", "router:external": True}},
        caller="admin",
    )
    rec.id_of("ext", ext)
    _, extsub = c(
        "ext_subnet",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{ext}",
                "ip_version": 4,
                "cidr": "203.0.113.0/24",
                "enable_dhcp": False,
            }
        },
        caller="admin",
    )
    rec.id_of("extsub", extsub)
    _, extport = c(
        "ext_port",
        "POST",
        "/ports",
        {"port": {"network_id": "{ext}"}},
        caller="admin",
    )
    rec.id_of("extport", extport)
    q = "network_id={ext}".format(**rec.case["ids"])
    c("member_net_show", "GET", "/networks/{ext}")
    c("member_subnet_list", "GET", "/subnets", query=q)
    c("member_subnet_show", "GET", "/subnets/{extsub}")
    c("member_port_list", "GET", "/ports", query=q)
    c("member_port_show", "GET", "/ports/{extport}")
    _, fip = c(
        "member_fip",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{ext}"}},
    )
    rec.id_of("fip", fip)
    c("member_port_list_with_fip", "GET", "/ports", query=q)
    c("member_subnet_list_with_fip", "GET", "/subnets", query=q)
    c("admin_subnet_list", "GET", "/subnets", query=q, caller="admin")
    c("admin_port_list", "GET", "/ports", query=q, caller="admin")
    c("ext_port_delete", "DELETE", "/ports/{extport}", caller="admin")
    c("ext_delete_with_fip", "DELETE", "/networks/{ext}", caller="admin")
    c("fip_gone", "GET", "/floatingips/{fip}")
    c("ext_gone", "GET", "/networks/{ext}", caller="admin")
    c("ext_subnet_gone", "GET", "/subnets/{extsub}", caller="admin")
    _, ext2 = c(
        "ext_net2",
        "POST",
        "/networks",
        {"network": {"name": rec.tag + "-ext2", "router:external": True}},
        caller="admin",
    )
    rec.id_of("ext2", ext2)
    c(
        "ext_subnet2",
        "POST",
        "/subnets",
        {
            "subnet": {
                "network_id": "{ext2}",
                "ip_version": 4,
                "cidr": "203.0.114.0/24",
                "enable_dhcp": False,
            }
        },
        caller="admin",
    )
    _, router = c(
        "router_gw",
        "POST",
        "/routers",
        {"router": {"name": "gw", "external_gateway_info": {"network_id": "{ext2}"}}},
    )
    rec.id_of("router", router)
    _, fip2 = c(
        "member_fip2",
        "POST",
        "/floatingips",
        {"floatingip": {"floating_network_id": "{ext2}"}},
    )
    rec.id_of("fip2", fip2)
    c(
        "router_gateway_port",
        "GET",
        "/ports",
        query="device_id={router}&device_owner=network:router_gateway".format(**rec.case["ids"]),
        caller="admin",
    )
    c("ext_delete_with_gateway", "DELETE", "/networks/{ext2}", caller="admin")
    c(
        "fip2_gone_though_refused",
        "GET",
        "/floatingips/{fip2}",
        note="the refused delete still deleted the floating IP without a port",
    )
    c("gateway_clear", "PUT", "/routers/{router}", {"router": {"external_gateway_info": {}}})
    c("ext2_delete", "DELETE", "/networks/{ext2}", caller="admin")
    c("fip2_still_gone", "GET", "/floatingips/{fip2}")


def security_groups(rec):
    """The default group's name, rules' remote groups and port ranges in
    Neutron's texts, rules removed with their remote group (issue 23)."""
    c = rec.call
    _, listed = c("sg_list_default", "GET", "/security-groups", query="name=default")
    rec.case["ids"]["sg_default"] = listed["security_groups"][0]["id"]
    rec.created.insert(0, ("admin", "/security-groups/" + rec.case["ids"]["sg_default"]))
    c("sg_create_default", "POST", "/security-groups", {"security_group": {"name": "default"}})
    c(
        "sg_create_default_case",
        "POST",
        "/security-groups",
        {"security_group": {"name": "Default"}},
    )
    _, sg = c("sg_create", "POST", "/security-groups", {"security_group": {"name": "web"}})
    rec.id_of("sg", sg)
    c(
        "sg_rename_to_default",
        "PUT",
        "/security-groups/{sg}",
        {"security_group": {"name": "default"}},
    )
    c(
        "sg_default_rename",
        "PUT",
        "/security-groups/{sg_default}",
        {"security_group": {"name": "other"}},
    )
    c(
        "sg_default_same_name",
        "PUT",
        "/security-groups/{sg_default}",
        {"security_group": {"name": "default"}},
    )
    c(
        "sg_default_description",
        "PUT",
        "/security-groups/{sg_default}",
        {"security_group": {"description": "changed"}},
    )
    _, other = c(
        "sg_admin",
        "POST",
        "/security-groups",
        {"security_group": {"name": rec.tag + "-admin"}},
        caller="admin",
    )
    rec.id_of("sg_admin", other)
    base = {"security_group_id": "{sg}", "direction": "ingress"}
    rules: dict[str, dict[str, Any]] = {
        "remote_group_not_uuid": {"remote_group_id": "not-a-uuid"},
        "remote_group_unknown": {"remote_group_id": "00000000-0000-0000-0000-000000000000"},
        "remote_group_other_project": {"remote_group_id": "{sg_admin}"},
        "remote_address_group_unknown": {
            "remote_address_group_id": "00000000-0000-0000-0000-000000000000"
        },
        "range_reversed": {"protocol": "tcp", "port_range_min": 90, "port_range_max": 80},
        "range_too_high": {"protocol": "tcp", "port_range_min": 80, "port_range_max": 70000},
        "range_negative": {"protocol": "udp", "port_range_min": -1, "port_range_max": 80},
        "range_not_int": {"protocol": "tcp", "port_range_min": "x", "port_range_max": 80},
        "range_zero_tcp": {"protocol": "tcp", "port_range_min": 0, "port_range_max": 0},
        "range_without_protocol": {"port_range_min": 22, "port_range_max": 22},
        "range_protocol_gre": {"protocol": "gre", "port_range_min": 22, "port_range_max": 22},
        "range_protocol_number_47": {
            "protocol": "47",
            "port_range_min": 22,
            "port_range_max": 22,
        },
        "icmp_type_too_high": {"protocol": "icmp", "port_range_min": 256},
        "icmp_code_too_high": {"protocol": "icmp", "port_range_min": 8, "port_range_max": 256},
        "icmp_code_without_type": {"protocol": "icmp", "port_range_max": 0},
        "icmp_ok": {"protocol": "icmp", "port_range_min": 8, "port_range_max": 0},
        "prefix_host_bits": {"protocol": "tcp", "remote_ip_prefix": "10.2.3.124/24"},
        "bad_protocol": {"protocol": "nope"},
        "prefix_nonsense": {"remote_ip_prefix": "nonsense"},
        "prefix_address_only": {"protocol": "udp", "remote_ip_prefix": "10.2.3.7"},
        "prefix_and_group": {"remote_ip_prefix": "10.9.0.0/16", "remote_group_id": "{sg}"},
        "protocol_ip": {"protocol": "ip", "remote_ip_prefix": "10.8.0.0/16"},
        "protocol_upper": {"protocol": "UDP", "remote_ip_prefix": "10.7.0.0/16"},
        "full_port_range": {"protocol": "sctp", "port_range_min": 1, "port_range_max": 65535},
        "ipv6_legacy_icmp": {"ethertype": "IPv6", "protocol": "icmp"},
        "ports_as_text": {"protocol": "tcp", "port_range_min": "8080", "port_range_max": "8081"},
    }
    for name, fields in rules.items():
        c(
            "rule_" + name,
            "POST",
            "/security-group-rules",
            {"security_group_rule": {**base, **fields}},
        )
    _, remote = c("sg_remote", "POST", "/security-groups", {"security_group": {"name": "remote"}})
    rec.id_of("sg_remote", remote)
    _, rule = c(
        "rule_remote_group",
        "POST",
        "/security-group-rules",
        {"security_group_rule": {**base, "protocol": "tcp", "remote_group_id": "{sg_remote}"}},
    )
    rec.id_of("rule", rule)
    c("rule_show", "GET", "/security-group-rules/{rule}")
    c(
        "rule_list",
        "GET",
        "/security-group-rules",
        query="remote_group_id={sg_remote}".format(**rec.case["ids"]),
    )
    c("sg_remote_delete", "DELETE", "/security-groups/{sg_remote}")
    c("rule_gone_with_remote", "GET", "/security-group-rules/{rule}")
    c("sg_show", "GET", "/security-groups/{sg}")


CASES = {
    "networks": networks,
    "ports": ports,
    "routers": routers,
    "pools": pools,
    "discovery": discovery,
    "cidrs": cidrs,
    "port_security": port_security,
    "external": external,
    "security_groups": security_groups,
}
