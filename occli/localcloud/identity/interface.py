"""What other services may ask of Keystone.

Heat's engine makes a trust from a stack's owner to its service user at
stack create and deletes it with the stack (:mod:`.stack_trusts`); the
calls it then makes are authenticated through that trust
(``LocalCloud.authenticate``, :func:`.stack_trusts.trust_context`).
"""

from occli.localcloud.identity.stack_trusts import create_trust
from occli.localcloud.identity.stack_trusts import delete_trust

__all__ = ["create_trust", "delete_trust"]
