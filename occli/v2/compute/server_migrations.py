"""A server's live migrations in progress (``/servers/{id}/migrations``,
admin by default): list and show (2.23), force complete (2.22), abort
(2.24; a queued or preparing one too from 2.65). novaclient's names."""

from collections.abc import Iterator

from occli import base
from occli.v2.compute import base as compute


class ServerMigration(base.Resource):
    pass


class ServerMigrationManager(compute.ComputeManager):
    resource_class = ServerMigration

    def _url(self, server: base.Resource | str, *parts: str) -> str:
        return "/".join(("/servers", str(base.getid(server)), "migrations") + parts)

    def check_list(self) -> None:
        self._require(self.api_version, "2.23", what="listing a server's migrations")

    def check_show(self) -> None:
        self._require(self.api_version, "2.23", what="showing a server's migration")

    def check_force_complete(self) -> None:
        self._require(self.api_version, "2.22", what="forcing a live migration to complete")

    def check_abort(self) -> None:
        self._require(self.api_version, "2.24", what="aborting a live migration")

    def list(self, server: base.Resource | str) -> base.ListWithMeta:
        """The live migrations of ``server`` in progress (2.23): a list
        with ``request_ids`` (:class:`occli.base.ListWithMeta`), as
        novaclient's. :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(server))

    def iter(self, server: base.Resource | str) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(server))

    list_iter = iter

    def _list_request(self, server: base.Resource | str) -> tuple[str, str]:
        """``(url, response key)`` of a migration list; UnsupportedVersion
        before 2.23 (raised before anything is sent)."""
        self.check_list()
        return self._url(server), "migrations"

    def get(
        self, server: base.Resource | str, migration: base.Resource | int | str
    ) -> base.Resource:
        """One live migration in progress of ``server`` (2.23)."""
        self.check_show()
        return self._get(self._url(server, str(base.getid(migration))), "migration")

    def live_migrate_force_complete(
        self, server: base.Resource | str, migration: base.Resource | int | str
    ) -> base.Result:
        """Make a running live migration complete now (2.22); a Result."""
        self.check_force_complete()
        url = self._url(server, str(base.getid(migration)), "action")
        return self._action(url, "force_complete")

    def live_migration_abort(
        self, server: base.Resource | str, migration: base.Resource | int | str
    ) -> base.Result:
        """Abort a live migration in progress (2.24); a Result."""
        self.check_abort()
        return self._delete(self._url(server, str(base.getid(migration))))
