"""The resources of Heat stacks (``/stacks/<name>/<id>/resources``), with
heatclient's argument names (``heatclient/v1/resources.py``), and the
failed resources of a stack as ``stack failures list`` walks them
(``heatclient/osc/v1/stack_failures.py``)."""

import builtins
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.v2.orchestration import stacks

#: The deployment types whose failures carry deploy_stdout/deploy_stderr.
DEPLOYMENT_TYPES = ("OS::Heat::SoftwareDeployment", "OS::Heat::StructuredDeployment")


class StackResource(base.Resource):
    @property
    def stack_name(self) -> str | None:
        """The name of the stack the resource is in (from its ``stack``
        link, so nested resources name their nested stack)."""
        if "stack_name" in self._info:
            return self._info["stack_name"]
        return link_ref(self, "stack", -2)


def link_ref(item: base.Resource | Mapping[str, Any], rel: str, index: int) -> str | None:
    """Part ``index`` of the path of ``item``'s link ``rel`` (``-1``: the
    id of a ``stack`` link, ``-2`` its name)."""
    links = (item.to_dict() if isinstance(item, base.Resource) else item).get("links") or ()
    for link in links:
        if isinstance(link, Mapping) and link.get("rel") == rel and link.get("href"):
            parts = str(link["href"]).rstrip("/").split("/")
            return parts[index] if len(parts) >= -index else None
    return None


def nested_identifier(resource: base.Resource | Mapping[str, Any]) -> str | None:
    """``<name>/<id>`` of the nested stack a resource is (its ``nested``
    link), None for a plain resource."""
    name, ident = link_ref(resource, "nested", -2), link_ref(resource, "nested", -1)
    return "%s/%s" % (name, ident) if name and ident else None


class StackResourceManager(stacks.StackChildManager):
    """Resources of stacks: ``client.stack_resources``."""

    resource_class = StackResource

    def list(
        self,
        stack_id: base.Resource | str,
        nested_depth: int | None = None,
        with_detail: bool = False,
        filters: Mapping[str, Any] | None = None,
    ) -> base.ListWithMeta:
        """The stack's resources (and those of its nested stacks down to
        ``nested_depth``); ``filters``: Heat's ``name``, ``status``,
        ``type``, ``action``, ``id``, ``physical_resource_id``."""
        params = dict(filters or {})
        if nested_depth:
            params["nested_depth"] = nested_depth
        if with_detail:
            params["with_detail"] = True
        return self._list_all(self._stack_url(stack_id, "resources"), "resources", params)

    def get(
        self,
        stack_id: base.Resource | str,
        resource_name: str,
        with_attr: builtins.list[str] | None = None,
    ) -> base.Resource:
        """One resource, with the attributes ``with_attr`` names resolved."""
        params = {"with_attr": builtins.list(with_attr)} if with_attr else None
        return self._get(self._resource_url(stack_id, resource_name), "resource", params=params)

    def metadata(self, stack_id: base.Resource | str, resource_name: str) -> base.DictWithMeta:
        """The resource's metadata (what an agent reads)."""
        response = self._request("GET", self._resource_url(stack_id, resource_name, "metadata"))
        body = self._body(response)
        metadata = self._value(response, body, "metadata", dict, default={})
        return base.DictWithMeta(metadata, self._result(response).request_ids)

    def signal(
        self,
        stack_id: base.Resource | str,
        resource_name: str,
        data: Mapping[str, Any] | None = None,
    ) -> base.Result:
        """Signal the resource (a wait condition, a deployment, …) with ``data``."""
        url = self._resource_url(stack_id, resource_name, "signal")
        body = dict(data) if data is not None else None
        return self._result(self._request("POST", url, body=body))

    def mark_unhealthy(
        self,
        stack_id: base.Resource | str,
        resource_name: str,
        mark_unhealthy: bool,
        resource_status_reason: str = "",
    ) -> base.Result:
        """Mark the resource unhealthy (CHECK_FAILED) or, with False, healthy."""
        body = {"mark_unhealthy": mark_unhealthy, "resource_status_reason": resource_status_reason}
        url = self._resource_url(stack_id, resource_name)
        return self._result(self._request("PATCH", url, body=body))

    def failures(self, stack_id: base.Resource | str) -> dict[str, base.Resource]:
        """The FAILED resources of a FAILED stack, keyed by their path
        (``stack.group.0.server``), in the stack's order: a failed nested
        stack is walked into and only listed itself when none of its
        resources failed. Empty when the stack has not failed."""
        stack = self.client.stacks.get(stack_id, resolve_outputs=False)
        if stack.status != "FAILED":
            return {}
        found: dict[str, base.Resource] = {}
        self._add_failures(found, self.list(stack.identifier), [stack.stack_name])
        return found

    def _add_failures(
        self,
        found: dict[str, base.Resource],
        resources: builtins.list[base.Resource],
        path: builtins.list[str],
    ) -> bool:
        added = False
        for rsc in resources:
            if not str(getattr(rsc, "resource_status", "")).endswith("FAILED"):
                continue
            here = path + [rsc.resource_name]
            inner = False
            nested = nested_identifier(rsc)
            if nested:
                try:
                    inner = self._add_failures(found, self.list(nested), here)
                except exceptions.NotFound:
                    pass  # a failed resource whose stack is gone
            if not inner:
                found[".".join(here)] = rsc
            added = True
        return added

    def _resource_url(self, stack_id: base.Resource | str, name: str, sub: str = "") -> str:
        return self._stack_url(
            stack_id, "resources/%s%s" % (quote(name, safe=""), "/" + sub if sub else ""), True
        )

    def _noun(self) -> str:
        return "stack resource"
