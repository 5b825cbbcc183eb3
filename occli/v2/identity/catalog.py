"""Keystone v3's catalog API: services (``client.identity_services``:
``client.services`` is Nova's os-services), endpoints
(``client.endpoints``) and regions (``client.regions``), as
keystoneclient's ``services``, ``endpoints`` and ``regions`` managers.

A service is named as OpenStackClient's ``find_service`` names it: its id,
else its name, else its type. Endpoints are named by id only (they have no
name); regions by id (chosen by whoever creates them).
"""

from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.identity import base as identity
from occli.v2.identity.identity import _given
from occli.v2.identity.identity import _id_or_none


class Service(base.Resource):
    pass


class Endpoint(base.Resource):
    pass


class Region(base.Resource):
    pass


class ServiceManager(identity.IdentityManager):
    resource_class = Service
    collection, member = "services", "service"

    def list(self, type: str | None = None, name: str | None = None) -> base.ListWithMeta:
        """Every service (of ``type``, named ``name``), following pages: a
        :class:`~occli.base.ListWithMeta`; :meth:`iter` yields them lazily."""
        return self._list_all(self._url("services"), "services", {"type": type, "name": name})

    def iter(self, type: str | None = None, name: str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(self._url("services"), "services", {"type": type, "name": name})

    def create(
        self,
        type: str,
        name: str | None = None,
        description: str | None = None,
        enabled: bool = True,
        **extra: Any,
    ) -> base.Resource:
        """Create a service (``extra``: other attributes keystone keeps)."""
        body = dict(extra, type=type, enabled=enabled)
        body.update(_given(name=name, description=description))
        return self._create_body(body)

    def update(
        self,
        service: base.Resource | str,
        type: str | None = None,
        name: str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        **extra: Any,
    ) -> base.Resource:
        body = dict(extra, **_given(type=type, name=name, description=description))
        body.update(_given(enabled=enabled))
        return self._patch(service, body)

    def find_resource(
        self, name_or_id: base.Resource | str, domain: base.Resource | str | None = None
    ) -> base.Resource:
        """OSC's ``find_service``: by id, else by name, else by type
        (NoUniqueMatch when a name or type has several)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        text = str(name_or_id)
        try:
            return self.get(text)
        except exceptions.NotFound:
            pass
        for key in ("name", "type"):
            matches = [s for s in self.list(**{key: text}) if getattr(s, key, None) == text]
            if len(matches) > 1:
                raise exceptions.NoUniqueMatch(
                    "Multiple service matches found for '%s', use an ID to be more specific."
                    % text
                )
            if matches:
                return matches[0]
        raise exceptions.NotFound(
            "No service with a type, name or ID of '%s' exists." % text, code=404
        )


class EndpointManager(identity.IdentityManager):
    resource_class = Endpoint
    collection, member = "endpoints", "endpoint"

    def list(
        self,
        service: base.Resource | str | None = None,
        interface: str | None = None,
        region: base.Resource | str | None = None,
    ) -> base.ListWithMeta:
        """Every endpoint (of ``service``, ``interface``, ``region``: ids or
        resources), following pages: a :class:`~occli.base.ListWithMeta`;
        :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(service, interface, region))

    def iter(
        self,
        service: base.Resource | str | None = None,
        interface: str | None = None,
        region: base.Resource | str | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(*self._list_request(service, interface, region))

    def _list_request(
        self,
        service: base.Resource | str | None,
        interface: str | None,
        region: base.Resource | str | None,
    ) -> tuple[str, str, dict[str, Any]]:
        params = {
            "service_id": _id_or_none(service),
            "interface": interface,
            "region_id": _id_or_none(region),
        }
        return self._url("endpoints"), "endpoints", params

    def create(
        self,
        service: base.Resource | str,
        url: str,
        interface: str,
        region: base.Resource | str | None = None,
        enabled: bool = True,
        **extra: Any,
    ) -> base.Resource:
        """Create an endpoint of ``service`` (a resource or id)."""
        body = dict(
            extra, service_id=base.getid(service), url=url, interface=interface, enabled=enabled
        )
        if region is not None:
            body["region_id"] = base.getid(region)
        return self._create_body(body)

    def update(
        self,
        endpoint: base.Resource | str,
        service: base.Resource | str | None = None,
        url: str | None = None,
        interface: str | None = None,
        region: base.Resource | str | None = None,
        enabled: bool | None = None,
        **extra: Any,
    ) -> base.Resource:
        body = dict(extra, **_given(url=url, interface=interface, enabled=enabled))
        body.update(_given(service_id=_id_or_none(service), region_id=_id_or_none(region)))
        return self._patch(endpoint, body)

    def find_resource(
        self, name_or_id: base.Resource | str, domain: base.Resource | str | None = None
    ) -> base.Resource:
        """An endpoint by id (endpoints have no name)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        return self.get(str(name_or_id))


class RegionManager(identity.IdentityManager):
    resource_class = Region
    collection, member = "regions", "region"

    def list(self, parent_region: base.Resource | str | None = None) -> base.ListWithMeta:
        """Every region (children of ``parent_region`` only, when given),
        following pages: a :class:`~occli.base.ListWithMeta`; :meth:`iter`
        yields them lazily."""
        params = {"parent_region_id": _id_or_none(parent_region)}
        return self._list_all(self._url("regions"), "regions", params)

    def iter(self, parent_region: base.Resource | str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        params = {"parent_region_id": _id_or_none(parent_region)}
        return self._list(self._url("regions"), "regions", params)

    def create(
        self,
        id: str | None = None,
        description: str | None = None,
        parent_region: base.Resource | str | None = None,
        **extra: Any,
    ) -> base.Resource:
        """Create a region (``id``: None lets keystone choose one)."""
        body = dict(extra, **_given(id=id, description=description))
        body.update(_given(parent_region_id=_id_or_none(parent_region)))
        return self._create_body(body)

    def update(
        self,
        region: base.Resource | str,
        description: str | None = None,
        parent_region: base.Resource | str | None = None,
        **extra: Any,
    ) -> base.Resource:
        body = dict(extra, **_given(description=description))
        body.update(_given(parent_region_id=_id_or_none(parent_region)))
        return self._patch(region, body)

    def find_resource(
        self, name_or_id: base.Resource | str, domain: base.Resource | str | None = None
    ) -> base.Resource:
        """A region by id (its only name)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        return self.get(str(name_or_id))
