"""Keystone v3's implied roles (``client.inference_rules``, as
keystoneclient's ``InferenceRuleManager``): a prior role implies others,
which its holders then have too (``/v3/roles/{prior}/implies/{implied}``,
``/v3/role_inferences``)."""

from collections.abc import Iterator

from occli import base
from occli import exceptions
from occli.v2.identity import base as identity


class InferenceRule(base.Resource):
    """A rule: ``prior_role`` (``id``, ``name``) and ``implies`` (one role,
    or for a listing the list of the roles it implies)."""


class InferenceRuleManager(identity.IdentityManager):
    resource_class = InferenceRule

    def _rule_url(self, prior: base.Resource | str, implied: base.Resource | str) -> str:
        return self._url("roles", base.getid(prior), "implies", base.getid(implied))

    def _rule(self, method: str, url: str) -> base.Resource:
        response = self._request(method, url)
        body = self._body(response)
        return self._resource(self._member(response, body, "role_inference"), response)

    def create(self, prior: base.Resource | str, implied: base.Resource | str) -> base.Resource:
        """``prior`` implies ``implied`` from now on (PUT); the rule. An
        ``admin`` role cannot be implied (keystone's 403)."""
        return self._rule("PUT", self._rule_url(prior, implied))

    def get(  # type: ignore[override]
        self, prior: base.Resource | str, implied: base.Resource | str
    ) -> base.Resource:
        """The rule ``prior`` ⇒ ``implied`` (NotFound if there is none)."""
        return self._rule("GET", self._rule_url(prior, implied))

    def check(self, prior: base.Resource | str, implied: base.Resource | str) -> bool:
        """Whether ``prior`` implies ``implied`` directly."""
        try:
            self._request("HEAD", self._rule_url(prior, implied))
        except exceptions.NotFound:
            return False
        return True

    def delete(  # type: ignore[override]
        self, prior: base.Resource | str, implied: base.Resource | str
    ) -> base.Result:
        """Remove the rule (NotFound if there is none)."""
        return self._delete(self._rule_url(prior, implied))

    def list_implied(self, prior: base.Resource | str) -> base.Resource:
        """The rule of ``prior``: its ``implies`` lists the roles it implies."""
        return self._rule("GET", self._url("roles", base.getid(prior), "implies"))

    def list_inference_roles(self) -> list[base.Resource]:
        """Every rule (``GET /v3/role_inferences``): one per prior role."""
        return list(self.iter())

    def iter(self) -> Iterator[base.Resource]:
        """Like :meth:`list_inference_roles`, lazily."""
        return self._list(self._url("role_inferences"), "role_inferences")
