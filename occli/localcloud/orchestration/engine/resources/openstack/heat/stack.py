"""``OS::Heat::Stack`` (Heat's ``openstack/heat/remote_stack.py``): a stack
made by a resource, in the cloud the resource's ``context`` names.

Unlike a nested stack it is a stack of its own (no owner: ``stack list``
shows it), made, updated and deleted through the engine as Heat's
``RemoteStack`` does through heatclient, as the parent stack's delegated
caller. The local cloud is one region: a ``context`` naming another region
or a remote cloud's credential (kept in Barbican, which the local cloud
does not run) is refused as Heat refuses an unreachable endpoint.
"""

from collections.abc import Mapping
from typing import Any
from typing import cast

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import template
from occli.localcloud.orchestration.engine.stack import Stack

# the local cloud's one region when its Config names none
DEFAULT_REGION = "RegionOne"


def _validation_failed(message: str) -> errors.BadRequest:
    return errors.BadRequest(message, type="StackValidationFailed")


class RemoteStack(resource.Resource):
    """A stack, with its template (HOT text), parameters and timeout."""

    PROPERTIES = (CONTEXT, TEMPLATE, TIMEOUT, PARAMETERS) = (
        "context",
        "template",
        "timeout",
        "parameters",
    )
    _CONTEXT_KEYS = (REGION_NAME, CREDENTIAL_SECRET_ID, CA_CERT, SSL_INSECURE) = (
        "region_name",
        "credential_secret_id",
        "ca_cert",
        "insecure",
    )
    ATTRIBUTES = (NAME_ATTR, OUTPUTS) = ("stack_name", "outputs")

    properties_schema = {
        CONTEXT: properties.Schema(
            properties.Schema.MAP,
            "Context for this stack.",
            update_allowed=True,
            schema={
                REGION_NAME: properties.Schema(
                    properties.Schema.STRING,
                    "Region name in which this stack will be created.",
                ),
                CREDENTIAL_SECRET_ID: properties.Schema(
                    properties.Schema.STRING,
                    "A Barbican secret ID. The Barbican secret should contain an OpenStack "
                    "credential that can be used to access a remote cloud.",
                    update_allowed=True,
                ),
                CA_CERT: properties.Schema(
                    properties.Schema.STRING, "CA Cert for SSL.", update_allowed=True
                ),
                SSL_INSECURE: properties.Schema(
                    properties.Schema.BOOLEAN,
                    "If set, then the server's certificate will not be verified.",
                    default=False,
                    update_allowed=True,
                ),
            },
        ),
        TEMPLATE: properties.Schema(
            properties.Schema.STRING,
            "Template that specifies the stack to be created as a resource.",
            required=True,
            update_allowed=True,
        ),
        TIMEOUT: properties.Schema(
            properties.Schema.INTEGER,
            "Number of minutes to wait for this stack creation.",
            update_allowed=True,
        ),
        PARAMETERS: properties.Schema(
            properties.Schema.MAP,
            "Set of parameters passed to this stack.",
            default={},
            update_allowed=True,
        ),
    }
    attributes_schema = {
        NAME_ATTR: attributes.Schema("Name of the stack.", type=attributes.Schema.STRING),
        OUTPUTS: attributes.Schema(
            "A dict of key-value pairs output from the stack.", type=attributes.Schema.MAP
        ),
    }
    default_client_name = "orchestration"

    @property
    def parent(self) -> Stack:
        return cast(Stack, self.stack)

    @property
    def engine(self) -> Any:
        return self.parent.engine

    # -- the stack's request ----------------------------------------------

    def _location(self) -> tuple[str, bool]:
        """Where the stack is to be made (Heat's texts) and whether that is
        this cloud."""
        ctx = self.properties[self.CONTEXT] or {}
        local = str(getattr(self.stack.config, "region", None) or DEFAULT_REGION)
        if ctx.get(self.CREDENTIAL_SECRET_ID):
            return "remote cloud", False
        region = ctx.get(self.REGION_NAME) or local
        return 'region "%s"' % region, region == local

    def _request(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """(template, parameters, environment) the stack is made of."""
        params = dict(self.properties[self.PARAMETERS] or {})
        env = environment.get_child_environment(self.parent.env, params)
        return template.parse(self.properties[self.TEMPLATE]), params, env.user_env_as_dict()

    def validate(self) -> None:
        """Properties, the endpoint, then the template as the other
        cloud's Heat validates it (Heat's texts)."""
        super().validate()
        location, local = self._location()
        if not local:
            raise _validation_failed(
                'Cannot establish connection to Heat endpoint at %s due to "%s"'
                % (location, exception.EndpointNotFound())
            )
        try:
            tmpl, params, env = self._request()
        except errors.Error as exc:
            reason = exc.message
        else:
            try:
                self.engine.validate_template(
                    self.parent.context, tmpl, params, self.parent.files, env
                )
                return
            except errors.Error as exc:
                # heatclient's HTTPException text
                reason = "ERROR: %s" % exc.message
        raise _validation_failed(
            'Failed validating stack template using Heat endpoint at %s due to "%s"'
            % (location, reason)
        )

    # -- actions ------------------------------------------------------------

    def handle_create(self) -> None:
        tmpl, params, env = self._request()
        made = self.engine.create_stack(
            self.parent.context,
            self.physical_resource_name(),
            tmpl,
            params,
            self.parent.files,
            env,
            {"timeout_mins": self.properties[self.TIMEOUT], "disable_rollback": True},
        )
        self.resource_id_set(made["id"])

    def _check_action_complete(self, action: str) -> bool:
        """Heat's ``_check_action_complete``: the stack's FAILED is its
        ``ResourceInError``."""
        assert self.resource_id is not None
        stack_action, status, reason = self.parent.nested_status(self.resource_id)
        if stack_action != action or status == resource.IN_PROGRESS:
            return False
        if status == resource.COMPLETE:
            return True
        if status == resource.FAILED:
            raise exception.ResourceInError(
                resource_status="%s_%s" % (stack_action, status), status_reason=reason
            )
        raise exception.ResourceUnknownStatus(
            resource_status="%s_%s" % (stack_action, status), status_reason=reason
        )

    def check_create_complete(self, handler_data: Any) -> bool:
        return self._check_action_complete(resource.CREATE)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> None:
        """The stack updated (its resources decide what changes)."""
        if self.resource_id is None:
            return
        tmpl, params, env = self._request()
        self.engine.update_stack(
            self.parent.context,
            self.resource_id,
            tmpl,
            params,
            self.parent.files,
            env,
            {
                "timeout_mins": self.properties[self.TIMEOUT],
                "disable_rollback": self.parent.row.get("disable_rollback", 1),
            },
        )

    def check_update_complete(self, handler_data: Any) -> bool:
        if self.resource_id is None:
            return True
        return self._check_action_complete(resource.UPDATE)

    def handle_delete(self) -> str | None:
        """Delete the stack (one already gone counts as deleted)."""
        if self.resource_id is None:
            return None
        try:
            self.engine.delete_stack(self.parent.context, self.resource_id)
        except errors.NotFound:
            return None
        return self.resource_id

    def check_delete_complete(self, handler_data: Any) -> bool:
        if handler_data is None:
            return True
        try:
            return self._check_action_complete(resource.DELETE)
        except errors.NotFound:
            return True

    def _stack_action(self, verb: str) -> None:
        if self.resource_id is None:
            raise exception.Error("Cannot %s %s, resource not found" % (verb, self.name))
        self.engine.stack_action(self.parent.context, self.resource_id, verb)

    def handle_suspend(self) -> None:
        self._stack_action("suspend")

    def check_suspend_complete(self, handler_data: Any) -> bool:
        return self._check_action_complete(resource.SUSPEND)

    def handle_resume(self) -> None:
        self._stack_action("resume")

    def check_resume_complete(self, handler_data: Any) -> bool:
        return self._check_action_complete(resource.RESUME)

    def handle_check(self) -> None:
        self._stack_action("check")

    def check_check_complete(self, handler_data: Any) -> bool:
        return self._check_action_complete(resource.CHECK)

    # -- attributes ---------------------------------------------------------

    def get_reference_id(self) -> str:
        return str(self.resource_id) if self.resource_id is not None else str(self.name)

    def show(self) -> Any:
        """The stack as the Heat API shows it (Heat's ``_show_resource`` of
        the ``stacks`` entity: heatclient's ``stacks.get``)."""
        if self.resource_id is None:
            return None
        path = "/stacks/%s/%s" % (self.physical_resource_name(), self.resource_id)
        return self.client().get("orchestration", path).body["stack"]

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        try:
            made = Stack.load(self.engine, self.resource_id)
        except errors.NotFound:
            return None
        if name == self.NAME_ATTR:
            return made.name
        if name == self.OUTPUTS:
            return {out["output_key"]: out.get("output_value") for out in made.outputs()}
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::Stack": RemoteStack}
