"""Server actions of the life cycle beyond power: shelve and unshelve,
rescue, the admin's state reset, password changes, crash dumps,
diagnostics and the NUMA topology. Mixed into
:class:`occli.v2.compute.servers.ServerManager` (``client.servers.shelve(…)``).

Versions: an unshelve zone needs 2.77, a host (and unpinning the zone)
2.91; crash dumps 2.17; the topology 2.78. Nova's default policy keeps
shelve offload, the state reset and diagnostics for admins.
"""

from collections.abc import Callable

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

UNSHELVE_ZONE_VERSION = "2.77"
UNSHELVE_HOST_VERSION = "2.91"
CRASH_DUMP_VERSION = "2.17"
TOPOLOGY_VERSION = "2.78"
RESET_STATES = ("active", "error")


#: ``unshelve(server, availability_zone=NO_ZONE)``: unpin the server from
#: its availability zone (sent as null, 2.91); :data:`occli.base.CLEAR`.
NO_ZONE = base.CLEAR


class LifecycleMixin(compute.ComputeManager):
    """The methods; ``self`` is a ServerManager (its ``_server_action``
    posts them)."""

    _server_action: Callable[..., base.Result]

    def shelve(self, server: base.Resource | str) -> base.Result:
        """Shelve (offloaded at once unless the cloud keeps shelved
        servers on their host); a Result."""
        return self._server_action(server, "shelve")

    def shelve_offload(self, server: base.Resource | str) -> base.Result:
        """Remove a shelved server from its host (admin); a Result."""
        return self._server_action(server, "shelveOffload")

    def unshelve(
        self,
        server: base.Resource | str,
        availability_zone: str | base.Clear | None = None,
        host: str | None = None,
    ) -> base.Result:
        """Unshelve; an offloaded server may be sent to
        ``availability_zone`` (2.77; :data:`NO_ZONE` unpins it, 2.91) or
        ``host`` (2.91, admin). A Result."""
        return self._server_action(
            server, "unshelve", self.check_unshelve(availability_zone, host)
        )

    def check_unshelve(
        self, availability_zone: str | base.Clear | None = None, host: str | None = None
    ) -> dict[str, object] | None:
        """The unshelve body (None when nothing is asked); UnsupportedVersion
        for a zone before 2.77, a host or NO_ZONE before 2.91."""
        version = self.api_version
        info: dict[str, object] = {}
        if availability_zone is NO_ZONE:
            self._require(
                version,
                UNSHELVE_HOST_VERSION,
                what="unpinning the availability zone",
                params=("availability_zone",),
            )
            info["availability_zone"] = None
        elif availability_zone is not None:
            self._require(
                version,
                UNSHELVE_ZONE_VERSION,
                what="{availability_zone}",
                params=("availability_zone",),
            )
            info["availability_zone"] = str(availability_zone)
        if host is not None:
            self._require(version, UNSHELVE_HOST_VERSION, what="{host}", params=("host",))
            info["host"] = str(host)
        return info or None

    def rescue(
        self,
        server: base.Resource | str,
        password: str | None = None,
        image: base.Resource | str | None = None,
    ) -> base.Result:
        """Boot the server from a rescue image (``image``, else its own)
        with ``password`` (else one Nova makes up); a Result whose body
        holds the ``adminPass``."""
        info: dict[str, str] = {}
        if password is not None:
            info["adminPass"] = password
        if image is not None:
            info["rescue_image_ref"] = str(base.getid(image))
        return self._server_action(server, "rescue", info or None)

    def unrescue(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "unrescue")

    def reset_state(self, server: base.Resource | str, state: str = "error") -> base.Result:
        """Set the server's vm_state to ``active`` or ``error`` and clear
        its task (admin); a Result."""
        self.check_reset_state(state)
        return self._server_action(server, "os-resetState", {"state": state})

    def check_reset_state(self, state: str) -> None:
        if state not in RESET_STATES:
            raise exceptions.ValidationError(
                "{state} must be active or error, not %r." % (state,), params=("state",)
            )

    def change_password(self, server: base.Resource | str, password: str) -> base.Result:
        """Set the guest's administrator password; a Result."""
        self.check_change_password(password)
        return self._server_action(server, "changePassword", {"adminPass": password})

    def check_change_password(self, password: str) -> None:
        if not isinstance(password, str) or not password:
            raise exceptions.ValidationError(
                "{password} must be a non-empty string.", params=("password",)
            )

    def trigger_crash_dump(self, server: base.Resource | str) -> base.Result:
        """Trigger a crash dump in the guest (2.17); a Result."""
        self.check_trigger_crash_dump()
        return self._server_action(server, "trigger_crash_dump")

    def check_trigger_crash_dump(self) -> None:
        self._require(self.api_version, CRASH_DUMP_VERSION, what="a crash dump")

    def diagnostics(self, server: base.Resource | str) -> base.DictWithMeta:
        """The hypervisor's figures for the server (admin), as a dict
        with ``request_ids``; the standard form from 2.48."""
        response = self._request("GET", "/servers/%s/diagnostics" % base.getid(server))
        return base.DictWithMeta(self._body(response), base._request_ids(response))

    def topology(self, server: base.Resource | str) -> base.DictWithMeta:
        """The server's NUMA topology (2.78): ``nodes`` and
        ``pagesize_kb``, a dict with ``request_ids``."""
        self.check_topology()
        response = self._request("GET", "/servers/%s/topology" % base.getid(server))
        return base.DictWithMeta(self._body(response), base._request_ids(response))

    def check_topology(self) -> None:
        self._require(self.api_version, TOPOLOGY_VERSION, what="a server topology")
