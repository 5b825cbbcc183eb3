"""Nova's network interfaces of a server (``client.interface_attachments``,
``/servers/{id}/os-interface``): attach a port, or a new port on a
network, and detach.

Nova creates the port of a network attachment (and deletes it on
detach); a port given by the caller is only unbound. A ``tag`` needs
compute API 2.49.
"""

from collections.abc import Iterator

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute


class InterfaceAttachment(base.Resource):
    """An interface of a server (``port_id``, ``net_id``, ``fixed_ips``,
    ``mac_addr``, ``port_state``; ``tag`` from 2.70)."""


class InterfaceAttachmentManager(compute.ComputeManager):
    resource_class = InterfaceAttachment

    def _url(self, server: base.Resource | str, port: base.Resource | str | None = None) -> str:
        url = "/servers/%s/os-interface" % base.getid(server)
        return url if port is None else "%s/%s" % (url, base.getid(port))

    def list(self, server: base.Resource | str) -> base.ListWithMeta:
        """The server's interfaces: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's. :meth:`iter`
        yields them lazily."""
        return self._list_all(*self._list_request(server))

    def iter(self, server: base.Resource | str) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(server))

    list_iter = iter

    def _list_request(self, server: base.Resource | str) -> tuple[str, str]:
        """``(url, response key)`` of an interface list."""
        return self._url(server), "interfaceAttachments"

    def get(self, server: base.Resource | str, port: base.Resource | str) -> base.Resource:
        return self._get(self._url(server, port), "interfaceAttachment")

    def create(
        self,
        server: base.Resource | str,
        port: base.Resource | str | None = None,
        network: base.Resource | str | None = None,
        fixed_ip: str | None = None,
        tag: str | None = None,
    ) -> base.Resource:
        """Attach ``port``, or a new port on ``network`` (with ``fixed_ip``
        if given); ``tag`` needs 2.49. Returns the interface."""
        body = self.check_create(port, network, fixed_ip, tag)
        return self._create(
            self._url(server), {"interfaceAttachment": body}, "interfaceAttachment"
        )

    def check_create(
        self,
        port: base.Resource | str | None = None,
        network: base.Resource | str | None = None,
        fixed_ip: str | None = None,
        tag: str | None = None,
    ) -> dict[str, object]:
        """:meth:`create`'s body: ValidationError unless exactly one of
        ``port`` and ``network`` is given (a ``fixed_ip`` needs the
        network); UnsupportedVersion for a tag before 2.49."""
        if (port is None) == (network is None):
            raise exceptions.ValidationError(
                "Give one of {port} and {network}.", params=("port", "network")
            )
        if fixed_ip is not None and network is None:
            raise exceptions.ValidationError(
                "A {fixed_ip} is chosen on a {network}, not on a port.",
                params=("fixed_ip", "network"),
            )
        body: dict[str, object] = {}
        if port is not None:
            body["port_id"] = str(base.getid(port))
        else:
            body["net_id"] = str(base.getid(network))
        if fixed_ip is not None:
            body["fixed_ips"] = [{"ip_address": fixed_ip}]
        if tag is not None:
            self._require(self.api_version, "2.49", what="an interface tag")
            body["tag"] = tag
        return body

    def delete(self, server: base.Resource | str, port: base.Resource | str) -> base.Result:
        """Detach the interface of ``port``; a Result."""
        return self._delete(self._url(server, port))
