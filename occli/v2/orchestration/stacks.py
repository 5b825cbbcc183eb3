"""Heat stacks (``/stacks``), with heatclient's argument names.

Heat names a stack by ``<name>/<id>``; ``/stacks/<name or id>`` (and its
``resources``, ``events``, ``template``, ``environment``, ``files`` and
``actions`` sub-paths) answers 302 Found to that canonical URL. GETs follow
the redirect (same host only, :mod:`occli.transport`); every other verb is
sent to the canonical URL, which :meth:`StackChildManager.identifier` finds
first, as heatclient's ``_resolve_stack_id`` does (``heatclient/v1/stacks.py``).
"""

import builtins
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote
from urllib.parse import unquote

from occli import base
from occli import exceptions
from occli.v2.orchestration import base as heat

#: The actions of ``POST …/actions`` (heat/api/openstack/v1/actions.py).
ACTIONS = ("suspend", "resume", "check", "cancel_update", "cancel_without_rollback")
#: ``list()`` keywords sent as they are (heatclient's names, Heat's query).
LIST_PARAMS = (
    "sort_keys",
    "sort_dir",
    "show_deleted",
    "show_nested",
    "show_hidden",
    "tags",
    "tags_any",
    "not_tags",
    "not_tags_any",
    "global_tenant",
    "tenant",
)


class Stack(base.Resource):
    """A stack: ``action``/``status`` split ``stack_status`` as heatclient's."""

    @property
    def action(self) -> str:
        """``CREATE`` of ``CREATE_COMPLETE``."""
        return str(self.stack_status).partition("_")[0]

    @property
    def status(self) -> str:
        """``COMPLETE`` of ``CREATE_COMPLETE``."""
        return str(self.stack_status).partition("_")[2]

    @property
    def identifier(self) -> str:
        """``<stack_name>/<id>``, the stack's canonical path."""
        return "%s/%s" % (self.stack_name, self.id)


def quote_path(identifier: str) -> str:
    """Each part of a stack identifier (``name/id``) URL-quoted."""
    return "/".join(quote(part, safe="") for part in str(identifier).split("/"))


class StackChildManager(heat.HeatManager):
    """A manager of things under ``/stacks/<name>/<id>``."""

    def identifier(self, stack: base.Resource | str) -> str:
        """``<name>/<id>`` of ``stack`` (a Stack, an identifier, a name or an
        id): a name or id is looked up with Heat's 302, not followed."""
        if isinstance(stack, base.Resource) and "stack_name" in stack and "id" in stack:
            return "%s/%s" % (stack.stack_name, stack.id)
        ref = str(base.getid(stack))
        if "/" in ref.strip("/"):
            return ref.strip("/")
        url = "/stacks/%s" % quote(ref, safe="")
        response = self.api.request(url, "GET", redirect=False)
        if response.status_code >= 400:
            raise exceptions.from_response(response, "GET", url)
        location = response.headers.get("Location") or ""
        if "/stacks/" not in location:
            if response.status_code == 200:  # an API that answers in place
                found = self._member(response, self._body(response), "stack")
                return "%s/%s" % (found.get("stack_name"), found.get("id"))
            raise exceptions.UnexpectedResponse(
                "GET %s named no stack Location (HTTP %d)." % (url, response.status_code),
                code=response.status_code,
            )
        tail = location.split("/stacks/", 1)[1].split("?", 1)[0]
        return "/".join(unquote(part) for part in tail.split("/")[:2])

    def _stack_url(self, stack: base.Resource | str, sub: str = "", resolve: bool = False) -> str:
        """``/stacks/<ref>[/sub]``: the canonical path with ``resolve`` (or
        when the stack is known), else the name or id for Heat to redirect."""
        if resolve or isinstance(stack, base.Resource) or "/" in str(stack):
            ref = quote_path(self.identifier(stack))
        else:
            ref = quote(str(stack), safe="")
        return "/stacks/%s%s" % (ref, "/" + sub if sub else "")

    def _json(self, method: str, url: str, **kwargs: Any) -> base.DictWithMeta:
        """The JSON object an answer carries, with its request id."""
        response = self._request(method, url, **kwargs)
        return base.DictWithMeta(self._body(response), self._result(response).request_ids)


class StackManager(StackChildManager):
    """Stacks of the project: ``client.stacks`` (heatclient's ``stacks``
    and ``actions`` managers in one)."""

    resource_class = Stack

    def list(self, **kwargs: Any) -> base.ListWithMeta:
        """Stacks, every page read: heatclient's keywords ``limit``,
        ``marker``, ``filters`` (a dict of Heat's filters: ``id``, ``name``,
        ``status``, ``action``, …) and those of :data:`LIST_PARAMS`. A
        :class:`~occli.base.ListWithMeta`; :meth:`iter` yields lazily."""
        return self._list_all(*self._list_request(kwargs))

    def iter(self, **kwargs: Any) -> Iterator[base.Resource]:
        """Like :meth:`list`, a page at a time."""
        return self._list(*self._list_request(kwargs))

    def _list_request(self, kwargs: dict[str, Any]) -> tuple[str, str, dict[str, Any], Any, str]:
        kwargs = dict(kwargs)
        params = dict(kwargs.pop("filters", None) or {})
        limit = kwargs.pop("limit", None)
        marker = kwargs.pop("marker", None)
        unknown = sorted(set(kwargs) - set(LIST_PARAMS))
        if unknown:
            raise TypeError("list() got unexpected keyword(s) %s" % ", ".join(unknown))
        params.update({k: v for k, v in kwargs.items() if v})
        if marker:
            params["marker"] = marker
        return "/stacks", "stacks", params, limit, "links"

    def get(self, stack_id: base.Resource | str, resolve_outputs: bool = True) -> base.Resource:
        """A stack by name, id or identifier; its outputs resolved unless
        ``resolve_outputs`` is False."""
        params = None if resolve_outputs else {"resolve_outputs": False}
        return self._get(self._stack_url(stack_id), "stack", params=params)

    def create(self, **fields: Any) -> base.DictWithMeta:
        """POST the stack (heatclient's fields: ``stack_name``,
        ``template``, ``files``, ``environment``, ``parameters``,
        ``disable_rollback``, ``timeout_mins``, ``tags``, ``adopt_stack_data``,
        ``environment_files``…); Heat's answer ``{"stack": {"id", "links"}}``."""
        return self._json("POST", "/stacks", body=fields)

    def preview(self, **fields: Any) -> base.Resource:
        """What :meth:`create` would make (``POST /stacks/preview``)."""
        return self._create("/stacks/preview", fields, "stack")

    def update(
        self, stack_id: base.Resource | str, existing: bool = False, **fields: Any
    ) -> base.Result:
        """PUT the new template/parameters/environment (PATCH with
        ``existing``: only what is given changes, as ``--existing``)."""
        url = self._stack_url(stack_id, resolve=True)
        return self._result(self._request("PATCH" if existing else "PUT", url, body=fields))

    def preview_update(
        self,
        stack_id: base.Resource | str,
        existing: bool = False,
        show_nested: bool = False,
        **fields: Any,
    ) -> base.DictWithMeta:
        """What :meth:`update` would change: ``{"resource_changes":
        {"unchanged", "updated", "replaced", "added", "deleted"}}``."""
        url = self._stack_url(stack_id, "preview", resolve=True)
        params = {"show_nested": True} if show_nested else None
        return self._json("PATCH" if existing else "PUT", url, body=fields, params=params)

    def delete(self, stack_id: base.Resource | str) -> base.Result:
        return self._delete(self._stack_url(stack_id, resolve=True))

    def abandon(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """Delete the stack's record, keep its resources: the data that
        ``adopt_stack_data`` takes back."""
        return self._json("DELETE", self._stack_url(stack_id, "abandon", resolve=True))

    def export(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """The stack's data as :meth:`abandon` gives it, the stack kept."""
        return self._json("GET", self._stack_url(stack_id, "export", resolve=True))

    def template(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """The stack's template, parsed."""
        return self._json("GET", self._stack_url(stack_id, "template"))

    def environment(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """The stack's environment (``parameters``, ``resource_registry``,
        ``parameter_defaults``, …)."""
        return self._json("GET", self._stack_url(stack_id, "environment"))

    def files(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """The stack's files map (``{url: content}``)."""
        return self._json("GET", self._stack_url(stack_id, "files"))

    def output_list(self, stack_id: base.Resource | str) -> base.DictWithMeta:
        """``{"outputs": [{"output_key", "description"}]}``."""
        return self._json("GET", self._stack_url(stack_id, "outputs", resolve=True))

    def output_show(self, stack_id: base.Resource | str, output_key: str) -> base.DictWithMeta:
        """``{"output": {"output_key", "output_value", "description"
        (, "output_error")}}``, resolved now."""
        url = self._stack_url(stack_id, "outputs/" + quote(output_key, safe=""), resolve=True)
        return self._json("GET", url)

    def validate(
        self, show_nested: bool = False, ignore_errors: str | None = None, **fields: Any
    ) -> base.DictWithMeta:
        """Validate a template (``template``, ``files``, ``environment``,
        ``parameters``…): its ``Description``, ``Parameters``,
        ``ParameterGroups``…; a refusal is a BadRequest with Heat's text."""
        params: dict[str, Any] = {}
        if show_nested:
            params["show_nested"] = True
        if ignore_errors:
            params["ignore_errors"] = ignore_errors
        return self._json("POST", "/validate", body=fields, params=params or None)

    # -- actions (heatclient's ``actions`` manager) --------------------------

    def action(self, stack_id: base.Resource | str, action: str) -> base.Result:
        """POST ``{action: null}`` to the stack's ``actions``: one of
        :data:`ACTIONS`."""
        if action not in ACTIONS:
            raise exceptions.ValidationError(
                "Unknown stack action %r (expected one of %s)." % (action, ", ".join(ACTIONS))
            )
        url = self._stack_url(stack_id, "actions", resolve=True)
        return self._result(self._request("POST", url, body={action: None}))

    def suspend(self, stack_id: base.Resource | str) -> base.Result:
        return self.action(stack_id, "suspend")

    def resume(self, stack_id: base.Resource | str) -> base.Result:
        return self.action(stack_id, "resume")

    def check(self, stack_id: base.Resource | str) -> base.Result:
        return self.action(stack_id, "check")

    def cancel_update(self, stack_id: base.Resource | str) -> base.Result:
        return self.action(stack_id, "cancel_update")

    def cancel_without_rollback(self, stack_id: base.Resource | str) -> base.Result:
        return self.action(stack_id, "cancel_without_rollback")

    def find_resource(self, name_or_id: Any) -> base.Resource:
        """A stack by name or id: Heat looks either up itself."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        return self.get(str(name_or_id))

    def _find_by_name(self, name: str) -> builtins.list[base.Resource]:
        return builtins.list(self.iter(filters={"name": name}))

    def _noun(self) -> str:
        return "stack"
