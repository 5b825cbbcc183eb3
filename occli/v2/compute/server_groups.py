"""Nova server groups (``/os-server-groups``).

A group has one policy: ``affinity``, ``anti-affinity`` and, from
microversion 2.15, ``soft-affinity`` and ``soft-anti-affinity``. From 2.64
the API names it ``policy`` (before: a one-item ``policies`` list) and an
anti-affinity group may have the rule ``max_server_per_host``. Servers join
a group when created with the scheduler hint ``group`` (``server create
--server-group``); the scheduler then places them by the policy.
"""

from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute
from occli.v2.compute import servers

POLICIES = ("affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity")
SOFT_VERSION = "2.15"
RULES_VERSION = "2.64"
RULES = ("max_server_per_host",)


class ServerGroup(base.Resource):
    """A server group; ``policy`` is read from ``policies`` before 2.64."""

    @property
    def policy(self) -> str | None:
        if "policy" in self._info:
            return self._info["policy"]
        return (self._info.get("policies") or [None])[0]


class ServerGroupManager(compute.ComputeManager):
    resource_class = ServerGroup

    def list(
        self, all_projects: bool = False, limit: int | None = None, offset: int | None = None
    ) -> base.ListWithMeta:
        """The project's groups (every project's with ``all_projects``, for
        admins; others get their own), novaclient's signature: a list with
        ``request_ids``. ``limit``/``offset`` page on the server side."""
        params = self._params(all_projects, limit, offset)
        return self._list_all("/os-server-groups", "server_groups", params, limit=limit)

    def iter(
        self, all_projects: bool = False, limit: int | None = None, offset: int | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        params = self._params(all_projects, limit, offset)
        return self._list("/os-server-groups", "server_groups", params, limit=limit)

    list_iter = iter

    @staticmethod
    def _params(all_projects: bool, limit: int | None, offset: int | None) -> dict[str, object]:
        for value, param in ((limit, "limit"), (offset, "offset")):
            if value is not None and int(value) < 0:
                raise exceptions.ValidationError(
                    "{%s} must be 0 or more, got %s." % (param, value), params=(param,)
                )
        return {
            "all_projects": "True" if all_projects else None,
            "offset": offset,
        }

    def _noun(self) -> str:
        return "server group"

    def get(self, group: base.Resource | str) -> base.Resource:
        return self._get("/os-server-groups/%s" % base.getid(group), "server_group")

    def find_resource(self, name_or_id: base.Resource | str) -> base.Resource:
        """A group by uuid, else by exact name among the project's groups."""
        if isinstance(name_or_id, base.Resource) or servers.is_uuid(name_or_id):
            return super().find_resource(name_or_id)
        return self._one_named(self._find_by_name(str(name_or_id)), name_or_id)

    def check_create(
        self,
        policy: str | Sequence[str] | None = None,
        rules: Mapping[str, int | str] | None = None,
        policies: Sequence[str] | None = None,
    ) -> str:
        """Check :meth:`create`'s arguments, sending nothing: a known
        policy (ValidationError), soft policies from 2.15 and rules from
        2.64 (UnsupportedVersion), rules for anti-affinity only, each a
        positive integer."""
        policy = self._one_policy(policy, policies)
        if not isinstance(policy, str) or policy not in POLICIES:
            raise exceptions.ValidationError(
                "Unknown {policy} %r: choose one of %s." % (policy, ", ".join(POLICIES)),
                params=("policy",),
            )
        if policy.startswith("soft-"):
            self._require(self.api_version, SOFT_VERSION, what="the %s policy" % policy)
        for key, value in (rules or {}).items():
            if key not in RULES:
                raise exceptions.ValidationError(
                    "Unknown rule %r ({rules}): the only one is max_server_per_host." % key,
                    params=("rules",),
                )
            if not str(value).isdigit() or int(value) < 1:
                raise exceptions.ValidationError(
                    "Rule %s ({rules}) must be a positive integer, got %r." % (key, value),
                    params=("rules",),
                )
        if rules:
            if policy != "anti-affinity":
                raise exceptions.ValidationError(
                    "Only the anti-affinity policy has rules ({rules}).", params=("rules",)
                )
            self._require(self.api_version, RULES_VERSION, what="server group rules")
        return policy

    @staticmethod
    def _one_policy(
        policy: str | Sequence[str] | None, policies: Sequence[str] | None
    ) -> str | Sequence[str] | None:
        if isinstance(policy, (list, tuple)) and policies is None:
            policy, policies = None, policy  # novaclient's create(name, policies) before 2.64
        if policies is not None:
            if policy is not None or len(policies) != 1:
                raise exceptions.ValidationError(
                    "Give one policy ({policy}), got %r." % ([policy] + list(policies)),
                    params=("policy",),
                )
            policy = policies[0]
        return policy

    def create(
        self,
        name: str,
        policy: str | Sequence[str] | None = None,
        rules: Mapping[str, int | str] | None = None,
        policies: Sequence[str] | None = None,
    ) -> base.Resource:
        """Create a group (novaclient's ``create(name, policy, rules=None)``;
        ``policies=[policy]`` or a one-policy list in ``policy``'s place, as
        novaclient took before 2.64, is accepted too). The body
        follows the microversion: ``policy`` and ``rules`` from 2.64, a
        ``policies`` list before."""
        policy = self.check_create(policy, rules, policies)
        body: dict[str, object] = {"name": name}
        if self.api_version.matches(RULES_VERSION):
            body["policy"] = policy
            if rules:
                body["rules"] = {k: int(v) for k, v in rules.items()}
        else:
            body["policies"] = [policy]
        return self._create("/os-server-groups", {"server_group": body}, "server_group")

    def delete(self, group: base.Resource | str) -> base.Result:
        """Delete a group (its servers stay); a Result."""
        return self._delete("/os-server-groups/%s" % base.getid(group))
