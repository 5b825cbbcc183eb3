"""Swift containers: create (public or with a storage policy), list with
markers, show, properties, delete (with their objects), as
python-openstackclient's openstackclient/api/object_store_v1.py.

:class:`ContainerMixin` is the group of container methods of
:class:`occli.v2.object_store.object_store.ObjectStoreManager`."""

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any

from occli import base
from occli.v2.object_store import base as swift

if TYPE_CHECKING:
    import requests

#: ``--public``'s read ACL: anyone reads the objects and lists them.
PUBLIC_READ_ACL = ".r:*,.rlistings"
#: The container headers ``show_container`` names (OSC's keys).
_SHOWN = (
    ("object_count", "X-Container-Object-Count"),
    ("bytes_used", "X-Container-Bytes-Used"),
    ("storage_policy", "X-Storage-Policy"),
)
_IF_PRESENT = (
    ("read_acl", "X-Container-Read"),
    ("write_acl", "X-Container-Write"),
    ("sync_to", "X-Container-Sync-To"),
    ("sync_key", "X-Container-Sync-Key"),
)


class ContainerMixin(swift.SwiftManager):
    """The account's containers; ``self`` is an ObjectStoreManager."""

    def put_container(self, container: str) -> base.Result:
        """Create a container (no error if it exists)."""
        return self._result(self._put_container(container, {}))

    def create_container(
        self, container: str, public: bool = False, storage_policy: str | None = None
    ) -> dict[str, Any]:
        """Create a container (or change an existing one's ACL): readable
        and listable by anyone when ``public``; ``storage_policy`` is
        Swift's policy name (its default when None). OSC's ``account``,
        ``container`` and ``x-trans-id``."""
        headers = {}
        if public:
            headers["X-Container-Read"] = PUBLIC_READ_ACL
        if storage_policy is not None:
            headers["X-Storage-Policy"] = storage_policy
        response = self._put_container(container, headers)
        return {
            "account": self.account,
            "container": container,
            "x-trans-id": response.headers.get("X-Trans-Id"),
        }

    def _put_container(self, container: str, headers: Mapping[str, str]) -> "requests.Response":
        return self._request(
            "PUT",
            swift.container_path(container),
            headers=dict(headers, **{"Content-Length": "0"}),
        )

    def list_containers(
        self,
        prefix: str | None = None,
        marker: str | None = None,
        end_marker: str | None = None,
        limit: int | None = None,
        full: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """The account's containers (``name``, ``count``, ``bytes``,
        ``last_modified``) in name order: one page (``limit`` at most), or
        with ``full`` all of them, page after page."""
        return self._listing(
            self.endpoint, full, prefix=prefix, marker=marker, end_marker=end_marker, limit=limit
        )

    def show_container(self, container: str) -> dict[str, Any]:
        """OSC's container details: ``account``, ``container``,
        ``object_count``, ``bytes_used``, ``storage_policy``, the ACLs and
        sync settings it has, and its ``properties`` (when it has any)."""
        headers = self._request("HEAD", swift.container_path(container)).headers
        info: dict[str, Any] = {"account": self.account, "container": container}
        info.update((key, headers.get(header)) for key, header in _SHOWN)
        info.update((key, headers[header]) for key, header in _IF_PRESENT if header in headers)
        properties = swift.properties_of(headers, "Container")
        if properties:
            info["properties"] = properties
        return info

    def set_container_properties(
        self, container: str, properties: Mapping[str, str]
    ) -> base.Result:
        """Add or replace a container's ``properties`` (one POST)."""
        headers = swift.meta_headers("Container", properties)
        return self._post(swift.container_path(container), headers)

    def unset_container_properties(self, container: str, keys: Iterable[str]) -> base.Result:
        """Remove a container's properties ``keys`` (one POST)."""
        headers = swift.remove_headers("Container", keys)
        return self._post(swift.container_path(container), headers)

    def delete_container(self, container: str, recursive: bool = False) -> base.Result:
        """Delete a container: Swift refuses one with objects (Conflict)
        unless ``recursive``, which deletes them first, a page at a time."""
        path = swift.container_path(container)
        if recursive:
            for entry in self._listing(path, full=True):
                self._request("DELETE", swift.object_path(container, entry["name"]))
        return self._result(self._request("DELETE", path))
