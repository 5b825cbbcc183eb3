"""Nova compute services (``os-services``).

Enabling, disabling and forcing down take the route the negotiated
microversion calls for: from 2.53 ``PUT /os-services/{uuid}`` with
``{"status"?, "disabled_reason"?, "forced_down"?}`` (the answer is the full
service); before 2.53 ``PUT /os-services/enable|disable|disable-log-reason``
and, from 2.11, ``/force-down``, with the service named by ``host`` and
``binary`` in the body (the answer holds only those and what changed).
"""

from collections.abc import Iterator
from typing import Any

from occli import api_versions
from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

UUID_FOR_ID_VERSION = "2.53"
FORCE_DOWN_VERSION = "2.11"


class Service(base.Resource):
    pass


class ServiceManager(compute.ComputeManager):
    resource_class = Service

    def list(self, host: str | None = None, binary: str | None = None) -> base.ListWithMeta:
        """Compute services: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's."""
        return self._list_all("/os-services", "services", params={"host": host, "binary": binary})

    def iter(self, host: str | None = None, binary: str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list("/os-services", "services", params={"host": host, "binary": binary})

    list_iter = iter

    def find_by_host(self, host: str, binary: str = "nova-compute") -> base.Resource:
        """The one service ``binary`` on ``host`` (server-side filters);
        NotFound when there is none."""
        found = [
            s for s in self.list(host=host, binary=binary) if s.host == host and s.binary == binary
        ]
        if not found:
            raise exceptions.NotFound(
                "No compute service %s on host '%s'." % (binary, host), code=404
            )
        if len(found) > 1:
            raise self._ambiguous("host '%s' and binary %s" % (host, binary), found)
        return found[0]

    def delete(self, service: base.Resource | str | int) -> base.Result:
        """Delete a compute service (admin): a Service or its id (an
        integer before 2.53, a uuid from 2.53). Nova refuses (409) while
        its host runs servers; a Result."""
        return self._delete("/os-services/%s" % base.getid(service))

    def enable(self, service: base.Resource | tuple[str, str] | str) -> base.Resource:
        """Let the scheduler use ``service`` again (clears the reason)."""
        if self._by_uuid():
            return self._put_uuid(service, {"status": "enabled"})
        return self._put_action(service, "enable", {})

    def disable(
        self, service: base.Resource | tuple[str, str] | str, reason: str | None = None
    ) -> base.Resource:
        """Stop scheduling to ``service``; ``reason`` is recorded."""
        if self._by_uuid():
            body = {"status": "disabled"}
            if reason:
                body["disabled_reason"] = reason
            return self._put_uuid(service, body)
        if reason:
            return self._put_action(service, "disable-log-reason", {"disabled_reason": reason})
        return self._put_action(service, "disable", {})

    def force_down(
        self, service: base.Resource | tuple[str, str] | str, forced_down: bool = True
    ) -> base.Resource:
        """Mark ``service`` down (or, with False, no longer forced down);
        compute API 2.11 or later (see :meth:`check_force_down`)."""
        self.check_force_down()
        forced_down = bool(forced_down)
        if self._by_uuid():
            return self._put_uuid(service, {"forced_down": forced_down})
        return self._put_action(service, "force-down", {"forced_down": forced_down})

    def check_force_down(self) -> None:
        """UnsupportedVersion unless :meth:`force_down` is available."""
        self._require(
            self.api_version, FORCE_DOWN_VERSION, what="forcing a compute service down or up"
        )

    # ``service`` is a Service (from list()), a ``(host, binary)`` pair, or
    # from 2.53 a service uuid.

    def _by_uuid(self) -> bool:
        return api_versions.APIVersion(self.api_version) >= api_versions.APIVersion(
            UUID_FOR_ID_VERSION
        )

    def _put_uuid(
        self, service: base.Resource | tuple[str, str] | str, body: dict[str, Any]
    ) -> base.Resource:
        if isinstance(service, tuple):
            service = self.find_by_host(*service)
        service_id = base.getid(service)
        return self._update("/os-services/%s" % service_id, body, "service")

    def _put_action(
        self, service: base.Resource | tuple[str, str] | str, action: str, extra: dict[str, Any]
    ) -> base.Resource:
        if isinstance(service, tuple):
            host, binary = service
        elif isinstance(service, Service):
            host, binary = service.host, service.binary
        else:
            raise exceptions.CommandError(
                "Compute API %s needs the service's host and binary, not an "
                "id (give a Service or a (host, binary) pair)." % self.api_version
            )
        body = dict({"host": host, "binary": binary}, **extra)
        return self._update("/os-services/%s" % action, body, "service")
