"""Who asks: the facts compute's rules check, without the request."""

import dataclasses

from occli.localcloud import errors


@dataclasses.dataclass(frozen=True)
class Caller:
    """The caller's project, user, admin flag and role names, in the
    token's order (from the token)."""

    project_id: str
    user_id: str
    is_admin: bool = False
    roles: tuple[str, ...] = ()

    def require_admin(self, rule):
        """Nova's default admin-only policy ``rule``: Forbidden otherwise."""
        if not self.is_admin:
            raise policy_forbidden(rule)


def policy_forbidden(rule):
    """Nova's 403 for a policy ``rule`` the caller does not pass."""
    return errors.Forbidden("Policy doesn't allow %s to be performed." % rule)
