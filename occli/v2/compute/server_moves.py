"""Server moves: resize (confirmed or reverted), cold and live migration
and evacuation (admin by default; see also ``client.server_migrations``).
Mixed into :class:`occli.v2.compute.servers.ServerManager`
(``client.servers.migrate(…)``).
"""

from collections.abc import Callable

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute


class MovesMixin(compute.ComputeManager):
    """The methods; ``self`` is a ServerManager (its ``_server_action``
    posts them)."""

    _server_action: Callable[..., base.Result]

    def resize(
        self,
        server: base.Resource | str,
        flavor: base.Resource | str,
        disk_config: str | None = None,
    ) -> base.Result:
        info = {"flavorRef": str(base.getid(flavor))}
        if disk_config is not None:
            info["OS-DCF:diskConfig"] = disk_config
        return self._server_action(server, "resize", info)

    def confirm_resize(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "confirmResize")

    def revert_resize(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "revertResize")

    def check_migrate(self, host: str | None = None) -> None:
        """The checks of :meth:`migrate`, before any lookup."""
        if host is not None:
            self._require(
                self.api_version, "2.56", what="a {host} for a cold migration", params=("host",)
            )

    def migrate(self, server: base.Resource | str, host: str | None = None) -> base.Result:
        """Cold-migrate (admin by default): to ``host`` (2.56) or where the
        scheduler says; the server ends in VERIFY_RESIZE, then
        :meth:`confirm_resize` or :meth:`revert_resize`. A Result."""
        self.check_migrate(host)
        return self._server_action(server, "migrate", None if host is None else {"host": host})

    def check_live_migrate(
        self,
        host: str | None = None,
        block_migration: bool | str = "auto",
        disk_over_commit: bool | None = None,
        force: bool | None = None,
    ) -> None:
        """The checks of :meth:`live_migrate`, before any lookup."""
        if block_migration not in ("auto", True, False):
            raise exceptions.ValidationError(
                "{block_migration} must be 'auto', True or False, not %r." % (block_migration,),
                params=("block_migration",),
            )
        if force and host is None:
            raise exceptions.ValidationError(
                "{force} needs a {host}: nova forces only to a given host.",
                params=("force", "host"),
            )
        version = self.api_version
        if disk_over_commit is not None:
            self._require(
                version, "2.1", "2.24", what="{disk_over_commit}", params=("disk_over_commit",)
            )
        if force is not None:
            self._require(version, "2.30", "2.67", what="{force}", params=("force",))

    def live_migrate(
        self,
        server: base.Resource | str,
        host: str | None = None,
        block_migration: bool | str = "auto",
        disk_over_commit: bool | None = None,
        force: bool | None = None,
    ) -> base.Result:
        """Live-migrate (admin by default) to ``host`` or where the
        scheduler says. ``block_migration``: ``"auto"`` (2.25; False
        before), True or False; ``disk_over_commit`` before 2.25 only;
        ``force`` (2.30-2.67) skips the scheduler's checks of ``host``.
        Follow it with :attr:`occli.client.Client.server_migrations`. A
        Result."""
        self.check_live_migrate(host, block_migration, disk_over_commit, force)
        info: dict[str, object] = {"host": host}
        if self.api_version >= "2.25":
            info["block_migration"] = block_migration
        else:
            info["block_migration"] = block_migration is True
            info["disk_over_commit"] = bool(disk_over_commit)
        if force is not None:
            info["force"] = bool(force)
        return self._server_action(server, "os-migrateLive", info)

    def check_evacuate(
        self,
        host: str | None = None,
        password: str | None = None,
        on_shared_storage: bool | None = None,
        force: bool | None = None,
    ) -> None:
        """The checks of :meth:`evacuate`, before any lookup."""
        if force and host is None:
            raise exceptions.ValidationError(
                "{force} needs a {host}: nova forces only to a given host.",
                params=("force", "host"),
            )
        if on_shared_storage and password is not None:
            raise exceptions.ValidationError(
                "{password} cannot be set on a server kept on shared storage.",
                params=("password", "on_shared_storage"),
            )
        version = self.api_version
        if on_shared_storage is not None:
            self._require(
                version, "2.1", "2.13", what="{on_shared_storage}", params=("on_shared_storage",)
            )
        if force is not None:
            self._require(version, "2.29", "2.67", what="{force}", params=("force",))

    def evacuate(
        self,
        server: base.Resource | str,
        host: str | None = None,
        password: str | None = None,
        on_shared_storage: bool | None = None,
        force: bool | None = None,
    ) -> base.Result:
        """Rebuild (admin by default) a server of a failed host (its
        compute service down or forced down) on ``host`` or where the
        scheduler says; ``password`` sets the admin password of the rebuilt
        server; ``on_shared_storage`` before 2.14 (False unless given);
        ``force`` (2.29-2.67). A Result; before 2.14 its body carries the
        ``adminPass``."""
        self.check_evacuate(host, password, on_shared_storage, force)
        info: dict[str, object] = {}
        if host is not None:
            info["host"] = host
        if password is not None:
            info["adminPass"] = password
        if self.api_version < "2.14":
            info["onSharedStorage"] = bool(on_shared_storage)
        if force is not None:
            info["force"] = bool(force)
        return self._server_action(server, "evacuate", info)
