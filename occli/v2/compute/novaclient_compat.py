"""What novaclient 18 has beyond occli's own managers: the server methods
of its ``ServerManager`` (interfaces, consoles by protocol) and the name
lookups ``client.glance`` and ``client.neutron``
(novaclient/v2/servers.py, images.py, networks.py).

Each reaches occli's manager of that API (``interface_attachments``,
``servers.get_console_url``, ``images``, ``networks``) and answers in
novaclient's shapes.
"""

import builtins
from collections.abc import Callable

from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.compute import base as compute


class ServerMixin(compute.ComputeManager):
    """novaclient's ``ServerManager`` methods that occli names otherwise."""

    # the servers manager's
    get_console_url: Callable[..., base.DictWithMeta]

    def interface_list(self, server: base.Resource | str) -> base.ListWithMeta:
        """The server's interfaces (``client.interface_attachments.list``)."""
        return self.client.interface_attachments.list(server)

    def interface_attach(
        self,
        server: base.Resource | str,
        port_id: str | None,
        net_id: str | None,
        fixed_ip: str | None,
        tag: str | None = None,
    ) -> base.Resource:
        """Attach the port ``port_id``, or a new port on ``net_id``."""
        return self.client.interface_attachments.create(
            server, port=port_id, network=net_id, fixed_ip=fixed_ip, tag=tag
        )

    def interface_detach(self, server: base.Resource | str, port_id: str) -> base.Result:
        """Detach the interface of the port ``port_id``."""
        return self.client.interface_attachments.delete(server, port_id)

    def get_vnc_console(self, server: base.Resource | str, console_type: str) -> base.DictWithMeta:
        """A VNC console (``novnc``, ``xvpvnc``) in novaclient's shape:
        ``{"remote_console": {…}}`` from 2.6, ``{"console": {…}}`` before."""
        return self._console(server, console_type)

    def get_spice_console(
        self, server: base.Resource | str, console_type: str
    ) -> base.DictWithMeta:
        """A SPICE console (``spice-html5``), as :meth:`get_vnc_console`."""
        return self._console(server, console_type)

    def get_rdp_console(self, server: base.Resource | str, console_type: str) -> base.DictWithMeta:
        """An RDP console (``rdp-html5``), as :meth:`get_vnc_console`."""
        return self._console(server, console_type)

    def get_serial_console(
        self, server: base.Resource | str, console_type: str
    ) -> base.DictWithMeta:
        """A serial console (``serial``), as :meth:`get_vnc_console`."""
        return self._console(server, console_type)

    def get_mks_console(self, server: base.Resource | str) -> base.DictWithMeta:
        """A WebMKS console (API 2.8), as :meth:`get_vnc_console`."""
        return self._console(server, "webmks")

    def _console(self, server: base.Resource | str, console_type: str) -> base.DictWithMeta:
        console = self.get_console_url(server, console_type)
        key = "remote_console" if self.api_version >= "2.6" else "console"
        return base.DictWithMeta({key: dict(console)}, console.request_ids)


def _one(matches: builtins.list[base.Resource], kind: str, name: str) -> base.Resource:
    """The one match of ``name``, with novaclient's errors for none or many."""
    if not matches:
        raise exceptions.NotFound("No %s matching %s." % (kind, name), code=404)
    if len(matches) > 1:
        raise exceptions.NoUniqueMatch(
            "Multiple %s matches found for '%s', use an ID to be more specific."
            % (kind.lower(), name)
        )
    return matches[0]


class GlanceManager(base.Manager):
    """novaclient's ``client.glance``: image lookups by name or id (the
    images are :mod:`occli.v2.image.images`')."""

    service_type = "image"

    def find_image(self, name_or_id: str) -> base.Resource:
        """The image of this id (a uuid) or exact name; NotFound
        (``No Image matching …``) or NoUniqueMatch."""
        if strutils.is_uuid(name_or_id):
            return self.client.images.get(name_or_id)
        return _one(self.client.images.list(name=name_or_id), "Image", name_or_id)

    def find_images(self, names_or_ids: builtins.list[str]) -> builtins.list[base.Resource]:
        """The image of each name or id, in order; NotFound naming the
        ones missing (``Unable to find image(s): …``)."""
        found: builtins.list[base.Resource] = []
        missed = []
        for name_or_id in names_or_ids:
            try:
                found.append(self.find_image(name_or_id))
            except exceptions.NotFound:
                missed.append(name_or_id)
        if missed:
            raise exceptions.NotFound("Unable to find image(s): %s" % ",".join(missed), code=404)
        return found

    def list(self) -> base.ListWithMeta:
        """Every image the project sees (all pages)."""
        return self.client.images.list()


class NeutronManager(base.Manager):
    """novaclient's ``client.neutron``: a network lookup by name (the
    networks are :mod:`occli.v2.network.networks`')."""

    service_type = "network"

    def find_network(self, name: str) -> base.Resource:
        """The network of exactly this name; NotFound (``No Network
        matching …``) or NoUniqueMatch."""
        return _one(self.client.networks.list(name=name), "Network", name)
