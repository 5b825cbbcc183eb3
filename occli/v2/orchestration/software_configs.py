"""Heat software configs (``/software_configs``)."""

import builtins
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli import base
from occli.v2.orchestration import base as heat


class SoftwareConfig(base.Resource):
    pass


class SoftwareConfigManager(heat.HeatManager):
    """Software configs of the project. Configs are immutable: no update."""

    resource_class = SoftwareConfig
    page_size = 100

    def list(self, limit: int | None = None, marker: str | None = None) -> base.ListWithMeta:
        """Every config, newest first, fetching pages of :attr:`page_size`:
        a :class:`~occli.base.ListWithMeta` (with the ``request_ids`` of its
        pages); :meth:`iter` yields them lazily.

        ``limit`` caps the total (None or -1: all); ``marker`` starts after
        that config id. List items carry no ``config/inputs/outputs/options``.
        """
        request_ids: builtins.list[str] = []
        configs = list(self._list_request(limit, marker, request_ids))
        return base.ListWithMeta(configs, request_ids)

    def iter(self, limit: int | None = None, marker: str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list_request(limit, marker)

    def _list_request(
        self,
        limit: int | None,
        marker: str | None,
        request_ids: builtins.list[str] | None = None,
    ) -> Iterator[base.Resource]:
        """Yield the configs of a list, a page at a time, the request id of
        each page appended to ``request_ids``: Heat names no next page, so
        a full page's last id is the marker of the next one."""
        remaining = None if limit is None or limit < 0 else limit
        seen: set[str] = set()
        while remaining is None or remaining > 0:
            size = self.page_size if remaining is None else min(remaining, self.page_size)
            response = self._request(
                "GET",
                "/software_configs",
                params={k: v for k, v in (("limit", size), ("marker", marker)) if v is not None},
            )
            if request_ids is not None:
                request_ids.extend(self._result(response).request_ids)
            items = self._items(response, self._body(response), "software_configs")
            for item in items:
                if remaining is not None:
                    if remaining <= 0:
                        return
                    remaining -= 1
                yield self._resource(item, response)
            if len(items) < size:
                return
            marker = items[-1].get("id")
            if marker is None or marker in seen:
                return
            seen.add(marker)

    def get(self, config: base.Resource | str) -> base.Resource:
        """A config with its ``config``, ``inputs``, ``outputs``, ``options``."""
        return self._get("/software_configs/%s" % _quote(config), "software_config")

    def create(
        self,
        name: str,
        group: str = "Heat::Ungrouped",
        config: str = "",
        inputs: Iterable[Mapping[str, Any]] = (),
        outputs: Iterable[Mapping[str, Any]] = (),
        options: Mapping[str, Any] | None = None,
    ) -> base.Resource:
        """Create a config; ``inputs``/``outputs`` are lists of dicts."""
        body = {
            "name": name,
            "group": group,
            "config": config,
            "inputs": list(inputs or ()),
            "outputs": list(outputs or ()),
            "options": dict(options or {}),
        }
        return self._create("/software_configs", body, "software_config")

    def delete(self, config: base.Resource | str) -> base.Result:
        return self._delete("/software_configs/%s" % _quote(config))

    def find_resource(self, name_or_id: base.Resource | str) -> base.Resource:
        """A full config by id, else by unique name (the list has no body)."""
        found = super().find_resource(name_or_id)
        if "config" not in found and "id" in found:
            found = self.get(found.id)
        return found

    def _noun(self) -> str:
        return "software config"


def _quote(resource: base.Resource | str) -> str:
    return quote(str(base.getid(resource)), safe="")
