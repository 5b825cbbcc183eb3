"""``OS::Swift::Container`` (Heat's ``swift/container.py``): a container of
the local object store in the stack's project account.

Created with ``PUT`` carrying Heat's headers (``X-Container-Meta-<key>``,
``X-Container-Read``/``Write``), the account's ``X-Account-Meta-<key>``
posted; its reference is its name. A delete refuses a container that
still holds objects unless ``PurgeOnDelete``, which deletes them one a
tick first, as Heat does; a container already gone counts as deleted. The
URL attributes are built from the object store's catalog URL; the
container's metadata and ACLs show in ``HeadContainer``.
"""

from typing import Any
from urllib.parse import urlparse

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.swift import temp_url

P = properties.Schema
A = attributes.Schema

SERVICE = "object-store"


def meta_headers(kind: str, meta: Any) -> dict[str, str]:
    """``X-<Kind>-Meta-<key>`` headers of a map (Heat's
    ``_build_meta_headers``)."""
    return {"X-%s-Meta-%s" % (kind.title(), k): str(v) for k, v in (meta or {}).items()}


class SwiftContainer(resource.Resource):
    """A Swift container."""

    default_client_name = SERVICE
    properties_schema = {
        "name": P(
            P.STRING,
            "Name for the container. If not specified, a unique name will be generated.",
        ),
        "X-Container-Read": P(
            P.STRING, "Specify the ACL permissions on who can read objects in the container."
        ),
        "X-Container-Write": P(
            P.STRING, "Specify the ACL permissions on who can write objects to the container."
        ),
        "X-Container-Meta": P(
            P.MAP,
            "A map of user-defined meta data to associate with the container. Each key in "
            "the map will set the header X-Container-Meta-{key} with the corresponding value.",
            default={},
        ),
        "X-Account-Meta": P(
            P.MAP,
            "A map of user-defined meta data to associate with the account. Each key in the "
            "map will set the header X-Account-Meta-{key} with the corresponding value.",
            default={},
        ),
        "PurgeOnDelete": P(
            P.BOOLEAN,
            "If True, delete any objects in the container when the container is deleted. "
            "Otherwise, deleting a non-empty container will result in an error.",
            default=False,
        ),
    }
    attributes_schema = {
        "DomainName": A("The host from the container URL.", type=A.STRING),
        "WebsiteURL": A("The URL of the container.", type=A.STRING),
        "RootURL": A("The parent URL of the container.", type=A.STRING),
        "ObjectCount": A("The number of objects stored in the container.", type=A.INTEGER),
        "BytesUsed": A("The number of bytes stored in the container.", type=A.INTEGER),
        "HeadContainer": A("A map containing all headers for the container.", type=A.MAP),
    }

    def physical_resource_name(self) -> str:
        return str(self.properties["name"] or super().physical_resource_name())

    def _path(self) -> str:
        return "/%s" % self.resource_id

    def handle_create(self) -> Any:
        container = self.physical_resource_name()
        headers = meta_headers("container", self.properties["X-Container-Meta"])
        for key in ("X-Container-Read", "X-Container-Write"):
            if self.properties[key] is not None:
                headers[key] = self.properties[key]
        account_headers = meta_headers("account", self.properties["X-Account-Meta"])
        clients = self.client()
        clients.put(SERVICE, "/%s" % container, headers=headers)
        if account_headers:
            clients.post(SERVICE, "", headers=account_headers)
        self.resource_id_set(container)
        return None

    def _objects(self) -> list[dict[str, Any]] | None:
        """The container's objects, None once it is gone."""
        try:
            listing = self.client().get(SERVICE, self._path(), query={"format": "json"}).body
        except ClientError as exc:
            if exc.not_found:
                return None
            raise
        return list(listing or [])

    def _delete(self, obj: str | None = None) -> None:
        path = self._path() if obj is None else "%s/%s" % (self._path(), obj)
        self.client().delete_ignoring_not_found(SERVICE, path)

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        objects = self._objects()
        if objects:
            if not self.properties["PurgeOnDelete"]:
                raise exception.ResourceActionNotSupported(
                    "Deleting non-empty container (%s) when PurgeOnDelete is False"
                    % self.resource_id
                )
            self._delete(objects.pop()["name"])
        return None if objects is None else len(objects)

    def check_delete_complete(self, handler_data: Any) -> bool:
        """One object a tick, then the container (Heat's pace)."""
        if handler_data is None:
            return True
        if handler_data:
            objects = self._objects()
            if objects is None:
                return True
            if objects:
                self._delete(objects.pop()["name"])
                if objects:
                    return False
        self._delete()
        return True

    def handle_check(self) -> Any:
        self.client().get(SERVICE, self._path())
        return None

    def get_reference_id(self) -> str:
        return str(self.resource_id)

    def _storage_url(self) -> str:
        """The object store's URL for the stack's project (the catalog's)."""
        clients = self.client()
        return temp_url.root_url(self.stack.config) + clients.endpoint(SERVICE)

    def _head(self) -> dict[str, str] | None:
        try:
            return self.client().request(SERVICE, "HEAD", self._path()).headers
        except ClientError:
            # heat logs "Head container failed" and answers None
            return None

    def _resolve_attribute(self, name: str) -> Any:
        parsed = urlparse(self._storage_url())
        if name == "DomainName":
            return parsed.netloc.split(":")[0]
        if name == "WebsiteURL":
            return "%s://%s%s/%s" % (parsed.scheme, parsed.netloc, parsed.path, self.resource_id)
        if name == "RootURL":
            return "%s://%s%s" % (parsed.scheme, parsed.netloc, parsed.path)
        if self.resource_id is None:
            return None
        headers = self._head()
        if headers is None:
            return None
        if name == "ObjectCount":
            return headers.get("x-container-object-count")
        if name == "BytesUsed":
            return headers.get("x-container-bytes-used")
        if name == "HeadContainer":
            return headers
        return None

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        return self._head()


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Swift::Container": SwiftContainer}
