"""Nova flavors: list and show, flavor-manage (create, description,
delete), extra specs (``properties``) and flavor access (the projects that
may use a private flavor).

Creating, changing and deleting flavors and their access are admin-only
by default; a project without access to a private flavor neither sees nor
boots it (404, and 400 for a server's ``flavorRef``).
"""

import builtins
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any

from occli import api_versions
from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

if TYPE_CHECKING:
    import requests

DESCRIPTION_VERSION = "2.55"
# nova 2.102 removed rxtx_factor (create body, views, sort key)
RXTX_FACTOR_LAST_VERSION = "2.101"
SORT_KEYS = (
    "created_at",
    "description",
    "disabled",
    "ephemeral_gb",
    "flavorid",
    "id",
    "is_public",
    "memory_mb",
    "name",
    "root_gb",
    "rxtx_factor",
    "swap",
    "updated_at",
    "vcpu_weight",
    "vcpus",
)


class Flavor(base.Resource):
    """A Nova flavor, with novaclient's ``Flavor`` accessors and methods
    (novaclient/v2/flavors.py)."""

    manager: "FlavorManager"

    @property
    def ephemeral(self) -> Any:
        """``OS-FLV-EXT-DATA:ephemeral`` (GiB); ``"N/A"`` when absent."""
        return self._info.get("OS-FLV-EXT-DATA:ephemeral", "N/A")

    @property
    def is_public(self) -> Any:
        """``os-flavor-access:is_public``; ``"N/A"`` when absent."""
        return self._info.get("os-flavor-access:is_public", "N/A")

    def get_keys(self) -> base.DictWithMeta:
        """The extra specs ``{key: value}``, with ``request_ids``."""
        return self.manager.get_extra_specs(self)

    def set_keys(self, metadata: Mapping[str, str]) -> base.DictWithMeta:
        """Add or change extra specs; the specs Nova answered."""
        result = self.manager.set_extra_specs(self, metadata)
        return base.DictWithMeta(result.body.get("extra_specs") or {}, result.request_ids)

    def unset_keys(self, keys: Iterable[str]) -> base.Result:
        """Remove the extra specs ``keys`` (one DELETE each); a Result with
        every request id."""
        request_ids: builtins.list[str] = []
        for key in keys:
            request_ids.extend(self.manager.unset_extra_spec(self, key).request_ids)
        return base.Result(None, request_ids)

    def delete(self) -> base.Result:
        """Delete this flavor (admin)."""
        return self.manager.delete(self)

    def update(self, description: str | None = None) -> base.Resource:
        """Set this flavor's description (API 2.55)."""
        return self.manager.update(self, description)


class FlavorAccess(base.Resource):
    """One entry of a private flavor's access list (``flavor_id``,
    ``tenant_id``)."""

    @property
    def id(self) -> str | None:
        return self._info.get("tenant_id")


class FlavorManager(compute.ComputeManager):
    resource_class = Flavor

    def list(
        self,
        detailed: bool = True,
        is_public: bool | str | None = None,
        marker: str | None = None,
        min_disk: int | None = None,
        min_ram: int | None = None,
        limit: int | None = None,
        sort_key: str | None = None,
        sort_dir: str | None = None,
    ) -> base.ListWithMeta:
        """Every flavor (all pages unless ``limit``), in novaclient's
        positional order: a list carrying the ``request_ids`` of its pages
        (:class:`occli.base.ListWithMeta`), as novaclient returns;
        :meth:`iter` yields them lazily, page by page.

        ``is_public`` (admins; nova ignores it for others): None or True
        (public ones and the private ones the project may use), False
        (private only) or ``"all"``. ``min_ram`` (MiB), ``min_disk`` (GiB),
        ``sort_key`` (one of :data:`SORT_KEYS`), ``sort_dir`` (``asc`` or
        ``desc``) are nova's filters and sorting.
        """
        return self._list_all(
            *self._list_request(
                detailed, is_public, marker, min_disk, min_ram, sort_key, sort_dir
            ),
            limit=limit,
        )

    list_all = list

    def iter(
        self,
        detailed: bool = True,
        is_public: bool | str | None = None,
        marker: str | None = None,
        min_disk: int | None = None,
        min_ram: int | None = None,
        limit: int | None = None,
        sort_key: str | None = None,
        sort_dir: str | None = None,
        *,
        read_ahead: bool = True,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield flavors page by page, the next
        one asked for ahead unless ``read_ahead`` is False (a search that
        stops once it found its flavors)."""
        return self._list(
            *self._list_request(
                detailed, is_public, marker, min_disk, min_ram, sort_key, sort_dir
            ),
            limit=limit,
            read_ahead=read_ahead,
        )

    list_iter = iter

    def _list_request(
        self,
        detailed: bool,
        is_public: bool | str | None,
        marker: str | None,
        min_disk: int | None,
        min_ram: int | None,
        sort_key: str | None,
        sort_dir: str | None,
    ) -> tuple[str, str, dict[str, Any]]:
        self.check_list(sort_key=sort_key, sort_dir=sort_dir)
        url = "/flavors/detail" if detailed else "/flavors"
        params: dict[str, Any] = {
            "marker": marker,
            "minRam": min_ram,
            "minDisk": min_disk,
            "sort_key": sort_key,
            "sort_dir": sort_dir,
        }
        if is_public is not None:
            params["is_public"] = "None" if is_public == "all" else is_public
        return url, "flavors", params

    def check_list(self, sort_key: str | None = None, sort_dir: str | None = None) -> None:
        """ValidationError for a sort key or direction nova refuses."""
        if sort_key is not None and sort_key not in SORT_KEYS:
            raise exceptions.ValidationError(
                "{sort_key} must be one of %s, not %r." % (", ".join(SORT_KEYS), sort_key),
                params=("sort_key",),
            )
        if sort_dir is not None and sort_dir not in ("asc", "desc"):
            raise exceptions.ValidationError(
                "{sort_dir} must be asc or desc, not %r." % sort_dir, params=("sort_dir",)
            )

    def get(self, flavor: base.Resource | str) -> base.Resource:
        return self._get("/flavors/%s" % base.getid(flavor), "flavor")

    def _find_by_name(self, name: str) -> builtins.list[base.Resource]:
        # private flavors too (nova ignores is_public for non-admins)
        return [f for f in self.list(is_public="all") if getattr(f, "name", None) == name]

    # -- flavor-manage -----------------------------------------------------

    def create(
        self,
        name: str,
        ram: int,
        vcpus: int,
        disk: int,
        flavor_id: str | None = None,
        ephemeral: int = 0,
        swap: int = 0,
        rxtx_factor: float | None = None,
        is_public: bool = True,
        description: str | None = None,
    ) -> base.Resource:
        """Create a flavor (admin); ``flavor_id`` None: the cloud picks a
        uuid. ``description`` needs compute API 2.55, ``rxtx_factor`` at
        most 2.101 (see :meth:`check_create`)."""
        self.check_create(rxtx_factor=rxtx_factor, description=description)
        body: dict[str, Any] = {
            "name": name,
            "ram": ram,
            "vcpus": vcpus,
            "disk": disk,
            "id": flavor_id,
            "OS-FLV-EXT-DATA:ephemeral": ephemeral,
            "swap": swap,
            "os-flavor-access:is_public": bool(is_public),
        }
        if rxtx_factor is not None:
            body["rxtx_factor"] = rxtx_factor
        if description is not None:
            body["description"] = description
        return self._create("/flavors", {"flavor": body}, "flavor")

    def check_create(
        self, rxtx_factor: float | None = None, description: str | None = None
    ) -> None:
        """UnsupportedVersion for what the compute version lacks."""
        if description is not None:
            self.check_update()
        if rxtx_factor is not None:
            self._require(
                self.api_version,
                api_versions.MIN_VERSION,
                RXTX_FACTOR_LAST_VERSION,
                what="{rxtx_factor}",
                params=("rxtx_factor",),
            )

    def update(self, flavor: base.Resource | str, description: str | None) -> base.Resource:
        """Set a flavor's description (None clears it): API 2.55."""
        self.check_update()
        return self._update(
            "/flavors/%s" % base.getid(flavor), {"flavor": {"description": description}}, "flavor"
        )

    def check_update(self) -> None:
        self._require(
            self.api_version,
            DESCRIPTION_VERSION,
            what="a flavor {description}",
            params=("description",),
        )

    def delete(self, flavor: base.Resource | str) -> base.Result:
        """Delete a flavor (servers keep their copy of it); a Result."""
        return self._delete("/flavors/%s" % base.getid(flavor))

    # -- extra specs -------------------------------------------------------

    def get_extra_specs(self, flavor: base.Resource | str) -> base.DictWithMeta:
        """``{key: value}`` of a flavor's extra specs, with ``request_ids``."""
        response = self._request("GET", "/flavors/%s/os-extra_specs" % base.getid(flavor))
        return base.DictWithMeta(
            self._value(response, self._body(response), "extra_specs", dict, {}),
            base._request_ids(response),
        )

    def set_extra_specs(
        self, flavor: base.Resource | str, specs: Mapping[str, str]
    ) -> base.Result:
        """Add or change extra specs (``{key: value}``); a Result."""
        response = self._request(
            "POST",
            "/flavors/%s/os-extra_specs" % base.getid(flavor),
            body={"extra_specs": dict(specs)},
        )
        return self._result(response, self._body(response))

    def unset_extra_spec(self, flavor: base.Resource | str, key: str) -> base.Result:
        """Remove one extra spec; a Result (NotFound if it is not set)."""
        return self._delete("/flavors/%s/os-extra_specs/%s" % (base.getid(flavor), key))

    # -- flavor access -----------------------------------------------------

    def access_list(self, flavor: base.Resource | str) -> base.ListWithMeta:
        """The projects given access to a private flavor (admin):
        :class:`FlavorAccess` items; NotFound for a public flavor."""
        response = self._request("GET", "/flavors/%s/os-flavor-access" % base.getid(flavor))
        return self._access_list(response)

    def add_tenant_access(
        self, flavor: base.Resource | str, project: base.Resource | str
    ) -> base.ListWithMeta:
        """Let ``project`` (an id) use a private flavor; the new list."""
        return self._access(flavor, "addTenantAccess", project)

    def remove_tenant_access(
        self, flavor: base.Resource | str, project: base.Resource | str
    ) -> base.ListWithMeta:
        """Take a private flavor from ``project``; the new list."""
        return self._access(flavor, "removeTenantAccess", project)

    def _access(
        self, flavor: base.Resource | str, action: str, project: base.Resource | str
    ) -> base.ListWithMeta:
        response = self._request(
            "POST",
            "/flavors/%s/action" % base.getid(flavor),
            body={action: {"tenant": base.getid(project)}},
        )
        return self._access_list(response)

    def _access_list(self, response: "requests.Response") -> base.ListWithMeta:
        """The :class:`FlavorAccess` items answered: a list with the
        ``request_ids`` (novaclient's ``ListWithMeta``)."""
        request_ids = base._request_ids(response)
        return base.ListWithMeta(
            (
                FlavorAccess(self, item, request_ids, loaded=True)
                for item in self._items(response, self._body(response), "flavor_access")
            ),
            request_ids,
        )
