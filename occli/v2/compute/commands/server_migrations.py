"""Migration commands (admin by default): ``server migrate`` (cold or
live), ``server evacuate``, ``server migration list/show/abort/force
complete`` and OSC's ``server migrate confirm/revert`` aliases of ``server
resize confirm/revert``. Option names are OSC's."""

from occli import api_versions
from occli import columns
from occli import exceptions
from occli import utils
from occli import waiters
from occli.v2.compute.commands import server_events
from occli.v2.compute.commands import servers as server_commands

# OSC's --type values → nova's migration_type
_TYPES = {
    "evacuation": "evacuation",
    "live-migration": "live-migration",
    "cold-migration": "migration",
    "resize": "resize",
}


def _wait(client, args, server, until, what):
    message = "Server %s (id %s) %s but waiting failed" % (server.name, server.id, what)
    with waiters.accepted(message):
        return waiters.wait_for_server(client.servers, server, until, **utils.wait_args(args))


def _host(server):
    return server.to_dict().get("OS-EXT-SRV-ATTR:host")


def _check_moved(client, before, after):
    """A move Nova accepted and its conductor then refused (no host fits)
    leaves the server where it was, without a fault: exit 1, saying so
    (and why, from the move's instance action)."""
    if _host(before) is not None and _host(before) == _host(after):
        why = server_events.failure(client, before) or (
            "See occli server migration list --server %s" % before.id
        )
        raise exceptions.ResourceInErrorState(
            "Server %s was not migrated: it is still on %s. %s"
            % (waiters.server_label(before), _host(before), why)
        )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg(
    "--live-migration",
    action="store_true",
    help="Live-migrate: the server keeps running (ACTIVE or PAUSED servers).",
)
@utils.arg(
    "--host",
    metavar="<hostname>",
    help="Destination host (cold migration: compute API 2.56+); the scheduler still checks it.",
)
@utils.arg(
    "--shared-migration",
    action="store_true",
    help="Live migration on shared storage (default before compute API 2.25).",
)
@utils.arg(
    "--block-migration",
    action="store_true",
    help="Live migration copying the disks (default from compute API 2.25: let nova choose).",
)
@utils.arg(
    "--disk-overcommit",
    action="store_true",
    help="Allow disk over-commit on the destination (live, before compute API 2.25).",
)
@utils.arg(
    "--no-disk-overcommit",
    action="store_true",
    help="Do not over-commit disk on the destination (live, before compute API 2.25).",
)
@utils.wait_options("the move is done (VERIFY_RESIZE for a cold migration)")
@utils.option_names(
    host="--host", disk_over_commit="--disk-overcommit", block_migration="--block-migration"
)
def do_server_migrate(client, args):
    """Move a server to another host (admin).

    A cold migration (the default) ends in VERIFY_RESIZE on the new host:
    confirm it with server resize confirm, or go back with server resize
    revert. With --live-migration the server keeps running. Nova accepts
    the request before choosing a host; server migration list shows how it
    went (status error when no host fits), and --wait exits 1 when the
    server stayed where it was.

    Example: occli server migrate --live-migration --host host2 --wait vm1
    """
    for one, other in (
        ("shared_migration", "block_migration"),
        ("disk_overcommit", "no_disk_overcommit"),
    ):
        if getattr(args, one) and getattr(args, other):
            raise exceptions.ValidationError(
                "--%s and --%s cannot be combined."
                % (one.replace("_", "-"), other.replace("_", "-"))
            )
    block: bool | str | None = (
        True if args.block_migration else False if args.shared_migration else None
    )
    overcommit = True if args.disk_overcommit else False if args.no_disk_overcommit else None
    if not args.live_migration and (block is not None or overcommit is not None):
        raise exceptions.ValidationError(
            "--live-migration must be given with --block-migration, --shared-migration "
            "or --disk-overcommit."
        )
    if args.live_migration:
        block = "auto" if block is None else block
        client.servers.check_live_migrate(
            args.host, block_migration=block, disk_over_commit=overcommit
        )
        server = client.servers.find_resource(args.server)
        client.servers.live_migrate(
            server, args.host, block_migration=block, disk_over_commit=overcommit
        )
        until = {"ACTIVE", "PAUSED"}
    else:
        if args.host is not None:
            client.servers.check_migrate(args.host)
        server = client.servers.find_resource(args.server)
        client.servers.migrate(server, host=args.host)
        until = {"VERIFY_RESIZE", "ACTIVE", "SHUTOFF"}
    if args.wait:
        _check_moved(client, server, _wait(client, args, server, until, "is being migrated"))


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--host", metavar="<hostname>", help="Destination host (default: the scheduler's).")
@utils.arg(
    "--password", metavar="<password>", help="Administrator password of the rebuilt server."
)
@utils.arg(
    "--shared-storage",
    action="store_true",
    default=None,
    help="The server's disk is on shared storage: kept as is (before compute API 2.14).",
)
@utils.wait_options("the evacuated server is ACTIVE (or SHUTOFF)")
@utils.option_names(on_shared_storage="--shared-storage", password="--password", host="--host")
@utils.output("show")
def do_server_evacuate(client, args):
    """Rebuild a server of a failed host on another host (admin).

    Nova refuses it (exit 1) while the server's compute service is up:
    force it down first (compute service set --down). From compute API 2.95
    the evacuated server is stopped.

    Example: occli server evacuate --host host2 --wait vm1
    """
    client.servers.check_evacuate(
        args.host, password=args.password, on_shared_storage=args.shared_storage
    )
    server = client.servers.find_resource(args.server)
    result = client.servers.evacuate(
        server, host=args.host, password=args.password, on_shared_storage=args.shared_storage
    )
    if args.wait:
        _wait(client, args, server, {"ACTIVE", "SHUTOFF"}, "is being evacuated")
    extra = {}
    if isinstance(result.body, dict) and "adminPass" in result.body:
        extra["adminPass"] = result.body["adminPass"]
    return server_commands.show_server(client, client.servers.get(server), extra)


# -- server migration … ----------------------------------------------------------

_MIGRATION_ARG = dict(metavar="<migration>", help="Migration (ID, or UUID from compute API 2.59).")


def _migration_id(client, server, ref):
    """The integer id of ``ref`` (an id, or a uuid among the server's
    migrations in progress)."""
    if ref.isdigit():
        return int(ref)
    for migration in client.server_migrations.iter(server):
        if getattr(migration, "uuid", None) == ref:
            return migration.id
    raise exceptions.NotFound(
        "No migration in progress of server %s has the UUID %s." % (server.id, ref)
    )


@utils.arg("--server", metavar="<server>", help="Only migrations of this server (name or ID).")
@utils.arg("--host", metavar="<host>", help="Only migrations from or to this host.")
@utils.arg("--status", metavar="<status>", help="Only migrations in this status.")
@utils.arg(
    "--type",
    choices=sorted(_TYPES),
    help="Only migrations of this type (compute API 2.23+ shows it).",
)
@utils.arg("--marker", metavar="<uuid>", help="Start after this migration (compute API 2.59+).")
@utils.arg(
    "--limit",
    type=utils.list_limit,
    metavar="<n>",
    help="At most this many migrations (compute API 2.59+).",
)
@utils.arg(
    "--changes-since",
    metavar="<time>",
    help="Only migrations changed since this ISO 8601 time (compute API 2.59+).",
)
@utils.arg(
    "--changes-before",
    metavar="<time>",
    help="Only migrations changed before this ISO 8601 time (compute API 2.66+).",
)
@utils.arg(
    "--project",
    metavar="<project>",
    help="Only migrations this project started (name or ID; compute API 2.80+).",
)
@utils.arg(
    "--user",
    metavar="<user>",
    help="Only migrations this user started (name or ID; compute API 2.80+).",
)
@utils.option_names(
    changes_since="--changes-since",
    changes_before="--changes-before",
    marker="--marker",
    limit="--limit",
    project_id="--project",
    user_id="--user",
)
@utils.output("list")
def do_server_migration_list(client, args):
    """List migrations (admin).

    Resizes, cold and live migrations and evacuations.

    Newest first from compute API 2.59 (before: oldest first).

    Example: occli server migration list --type live-migration --status running
    """
    filters = {
        "host": args.host,
        "status": args.status,
        "migration_type": _TYPES.get(args.type) if args.type else None,
        "changes_since": args.changes_since,
        "changes_before": args.changes_before,
        "marker": args.marker,
        "user_id": args.user,
        "project_id": args.project,
    }
    client.migrations.check_list(limit=args.limit, **filters)
    if args.server:
        filters["instance_uuid"] = client.servers.find_resource(args.server).id
    if args.project:
        filters["project_id"] = client.projects.find_resource(args.project).id
    if args.user:
        filters["user_id"] = client.users.find_resource(args.user).id
    pages = client.migrations.pages(limit=args.limit, **filters)
    version = api_versions.APIVersion(client.migrations.api_version)
    keys = ["id"]
    headers = ["Id"]
    if version >= "2.59":
        keys.append("uuid")
        headers.append("UUID")
    keys += [
        "source_node",
        "dest_node",
        "source_compute",
        "dest_compute",
        "dest_host",
        "status",
        "instance_uuid",
        "old_instance_type_id",
        "new_instance_type_id",
    ]
    headers += [
        "Source Node",
        "Dest Node",
        "Source Compute",
        "Dest Compute",
        "Dest Host",
        "Status",
        "Server UUID",
        "Old Flavor",
        "New Flavor",
    ]
    if version >= "2.23":
        keys.append("migration_type")
        headers.append("Type")
    keys += ["created_at", "updated_at"]
    headers += ["Created At", "Updated At"]
    if version >= "2.80":
        keys += ["project_id", "user_id"]
        headers += ["Project", "User"]
    out = utils.stdout(args)

    def rows():
        for page in pages:
            yield from page
            out.flush()

    return columns.table(rows(), keys, headers)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("migration", **_MIGRATION_ARG)
@utils.output("show")
def do_server_migration_show(client, args):
    """Show a live migration in progress of a server (admin).

    Compute API 2.23+.

    Example: occli server migration show vm1 7
    """
    client.server_migrations.check_show()
    server = client.servers.find_resource(args.server)
    migration = client.server_migrations.get(server, _migration_id(client, server, args.migration))
    return columns.show(migration)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("migration", **_MIGRATION_ARG)
def do_server_migration_abort(client, args):
    """Abort a live migration in progress (admin).

    The server stays where it was. Compute API 2.24+; a queued or
    preparing migration from 2.65.

    Example: occli server migration abort vm1 7
    """
    client.server_migrations.check_abort()
    server = client.servers.find_resource(args.server)
    client.server_migrations.live_migration_abort(
        server, _migration_id(client, server, args.migration)
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("migration", **_MIGRATION_ARG)
def do_server_migration_force_complete(client, args):
    """Make a running live migration complete now (admin).

    Nova pauses the server for the last copy. Compute API 2.22+.

    Example: occli server migration force complete vm1 7
    """
    client.server_migrations.check_force_complete()
    server = client.servers.find_resource(args.server)
    client.server_migrations.live_migrate_force_complete(
        server, _migration_id(client, server, args.migration)
    )


def do_server_migrate_confirm(client, args):
    """Confirm a cold migration or resize.

    OSC's alias of server resize confirm.

    Example: occli server migrate confirm vm1
    """
    return server_commands.do_server_resize_confirm(client, args)


def do_server_migrate_revert(client, args):
    """Revert a cold migration or resize.

    The server goes back to the source host and flavor (OSC's alias of
    server resize revert).

    Example: occli server migrate revert vm1
    """
    return server_commands.do_server_resize_revert(client, args)


for _alias, _target in (
    (do_server_migrate_confirm, server_commands.do_server_resize_confirm),
    (do_server_migrate_revert, server_commands.do_server_resize_revert),
):
    _alias.__dict__.update(
        {k: v for k, v in _target.__dict__.items() if k not in ("__wrapped__",)}
    )
del _alias, _target
