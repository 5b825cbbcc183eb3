"""Subnet pool commands (Neutron): ``subnet pool …``, with OpenStackClient's
names, options and columns: a pool's prefixes give subnets their ranges
(``subnet create --subnet-pool``), within its prefix-length bounds."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network.commands import options

_POOL_ARG = dict(metavar="<subnet-pool>", help="Subnet pool (name or ID).")
_LENGTH = utils.int_at_least(0, "%r must be 0 or more", "prefix-length")


def _show(pool):
    info = pool.to_dict()
    info.pop("tenant_id", None)
    return columns.show(info)


def _pool_options(func):
    """The options ``subnet pool create`` and ``set`` share (OSC's)."""
    decorators = [
        utils.arg("--default-prefix-length", type=_LENGTH, metavar="<default-prefix-length>",
                  help="Prefix length of the subnets taken without one."),
        utils.arg("--min-prefix-length", type=_LENGTH, metavar="<min-prefix-length>",
                  help="Shortest prefix a subnet may take (default 8, 64 for IPv6)."),
        utils.arg("--max-prefix-length", type=_LENGTH, metavar="<max-prefix-length>",
                  help="Longest prefix a subnet may take (default 32, 128 for IPv6)."),
        options.switch("is_default", "--default", "--no-default",
                       "The default pool of its IP version (admin).", "Not the default pool."),
        utils.arg("--description", metavar="<description>", help="Description."),
        utils.arg("--default-quota", type=_LENGTH, metavar="<num-ip-addresses>",
                  help="Addresses each project may take from the pool."),
    ]  # fmt: skip
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _pool_attributes(client, args):
    """The Neutron attributes of ``subnet pool create``/``set`` options,
    the address scope resolved (one request)."""
    given = {
        "name": getattr(args, "name", None),
        "description": args.description,
        "default_prefixlen": args.default_prefix_length,
        "min_prefixlen": args.min_prefix_length,
        "max_prefixlen": args.max_prefix_length,
        "is_default": args.is_default,
        "default_quota": args.default_quota,
        "shared": getattr(args, "shared", None),
        "project_id": getattr(args, "project", None),
    }
    attributes = {k: v for k, v in given.items() if v is not None}
    if args.address_scope is not None:
        attributes["address_scope_id"] = client.address_scopes.find_resource(args.address_scope).id
    if getattr(args, "no_address_scope", False):
        attributes["address_scope_id"] = None
    return attributes


@utils.arg("--long", action="store_true", help="Also list the default prefix length, scope, …")
@options.switch("shared", "--share", "--no-share", "Only the pools shared between projects.",
                "Only the pools not shared between projects.")  # fmt: skip
@options.switch("is_default", "--default", "--no-default", "Only the default pools.",
                "Only the pools that are not a default.")  # fmt: skip
@utils.arg("--project", metavar="<project-id>", help="Only the pools of this project.")
@utils.arg("--name", metavar="<name>", help="Only the pools of this exact name.")
@utils.arg("--address-scope", metavar="<address-scope>",
           help="Only the pools of this address scope (name or ID).")  # fmt: skip
@options.tag_filters("subnet pools")
@utils.output("list")
def do_subnet_pool_list(client, args):
    """List subnet pools.

    Example: occli subnet pool list --long
    """
    scope = None
    if args.address_scope is not None:
        scope = client.address_scopes.find_resource(args.address_scope).id
    pools = client.subnet_pools.iter(
        shared=args.shared,
        is_default=args.is_default,
        project_id=args.project,
        name=args.name,
        address_scope_id=scope,
        **options.tag_filter_values(args),
    )
    keys = ["id", "name", "prefixes"]
    headers = ["ID", "Name", "Prefixes"]
    if args.long:
        keys += ["default_prefixlen", "address_scope_id", "is_default", "shared", "tags"]
        headers += ["Default Prefix Length", "Address Scope", "Default Subnet Pool", "Shared",
                    "Tags"]  # fmt: skip
    return columns.table(pools, keys, headers)


@utils.arg("subnet_pool", **_POOL_ARG)
@utils.output("show")
def do_subnet_pool_show(client, args):
    """Show a subnet pool.

    Example: occli subnet pool show web-pool
    """
    return _show(client.subnet_pools.find_resource(args.subnet_pool))


@utils.arg("name", metavar="<name>", help="Name of the new subnet pool.")
@utils.arg(
    "--pool-prefix",
    dest="prefixes",
    action="append",
    required=True,
    metavar="<pool-prefix>",
    help="Prefix in CIDR notation (repeat for several).",
)
@_pool_options
@utils.arg(
    "--address-scope",
    metavar="<address-scope>",
    help="Address scope of the pool (name or ID); prefixes are unique in a scope.",
)
@options.switch("shared", "--share", "--no-share", "Share the pool between projects (admin).",
                "Do not share the pool.")  # fmt: skip
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@options.tags("subnet pool", "create")
@utils.output("show")
def do_subnet_pool_create(client, args):
    """Create a subnet pool.

    Example: occli subnet pool create --pool-prefix 10.10.0.0/16 --default-prefix-length 24 pool1
    """
    attributes = _pool_attributes(client, args)
    pool = client.subnet_pools.create(attributes.pop("name"), args.prefixes, **attributes)
    options.apply_tags(client.subnet_pools, pool, args, "create")
    return _show(pool)


@utils.arg("subnet_pool", **_POOL_ARG)
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--pool-prefix", dest="prefixes", action="append", metavar="<pool-prefix>",
           help="Prefix to add, in CIDR notation (repeat for several).")  # fmt: skip
@_pool_options
@utils.arg("--address-scope", metavar="<address-scope>",
           help="Address scope of the pool (name or ID).")  # fmt: skip
@utils.arg("--no-address-scope", action="store_true", help="Take the pool out of its scope.")
@options.tags("subnet pool", "set")
def do_subnet_pool_set(client, args):
    """Change a subnet pool; its prefixes are kept, --pool-prefix adds some.

    Example: occli subnet pool set --pool-prefix 10.11.0.0/16 web-pool
    """
    options.not_both(args.address_scope, "--address-scope", args.no_address_scope,
                     "--no-address-scope")  # fmt: skip
    attributes = _pool_attributes(client, args)
    if not attributes and not args.prefixes and not options.tags_given(args, "set"):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --pool-prefix, --default-prefix-length, "
            "--address-scope, --default, --tag, …"
        )
    pool = client.subnet_pools.find_resource(args.subnet_pool)
    if args.prefixes:
        attributes["prefixes"] = list(args.prefixes) + list(pool.prefixes)
    if attributes:
        client.subnet_pools.update(pool, **attributes)
    options.apply_tags(client.subnet_pools, pool, args, "set")


@utils.arg("subnet_pool", **_POOL_ARG)
@options.tags("subnet pool", "unset")
def do_subnet_pool_unset(client, args):
    """Remove a subnet pool's tags.

    Example: occli subnet pool unset --tag blue web-pool
    """
    if not options.tags_given(args, "unset"):
        raise exceptions.ValidationError("Nothing to unset: give --tag or --all-tag.")
    pool = client.subnet_pools.find_resource(args.subnet_pool)
    options.apply_tags(client.subnet_pools, pool, args, "unset")


@utils.arg("subnet_pools", nargs="+", metavar="<subnet-pool>",
           help="Subnet pool(s) to delete (name or ID).")  # fmt: skip
def do_subnet_pool_delete(client, args):
    """Delete subnet pools.

    A pool a subnet was taken from cannot be deleted (400).

    Example: occli subnet pool delete web-pool
    """

    def delete(ref):
        client.subnet_pools.delete(client.subnet_pools.find_resource(ref))

    return utils.for_each(args.subnet_pools, delete, "delete subnet pool")
