"""The Swift account: its headers, its properties (``X-Account-Meta-*``)
and the summary ``object store account show`` gives, as
python-openstackclient's openstackclient/api/object_store_v1.py does.

:class:`AccountMixin` is the group of account methods of
:class:`occli.v2.object_store.object_store.ObjectStoreManager`."""

from collections.abc import Iterable
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any

from occli import base
from occli.v2.object_store import base as swift

if TYPE_CHECKING:
    from requests.structures import CaseInsensitiveDict


class AccountMixin(swift.SwiftManager):
    """Read and change the project's account; ``self`` is an
    ObjectStoreManager."""

    def head_account(self) -> "CaseInsensitiveDict[str]":
        """The account's headers (a case-insensitive dict)."""
        return self._request("HEAD", self.endpoint).headers

    def show_account(self) -> dict[str, Any]:
        """OSC's account details: ``Account``, ``Bytes``, ``Containers``,
        ``Objects`` and the ``properties`` (when it has any)."""
        headers = self.head_account()
        info: dict[str, Any] = {
            "Account": self.account,
            "Bytes": headers.get("X-Account-Bytes-Used"),
            "Containers": headers.get("X-Account-Container-Count"),
            "Objects": headers.get("X-Account-Object-Count"),
        }
        properties = swift.properties_of(headers, "Account")
        if properties:
            info["properties"] = properties
        return info

    def set_account_properties(self, properties: Mapping[str, str]) -> base.Result:
        """Add or replace the account's ``properties`` (one POST)."""
        headers = swift.meta_headers("Account", properties)
        return self._post(self.endpoint, headers)

    def unset_account_properties(self, keys: Iterable[str]) -> base.Result:
        """Remove the account's properties ``keys`` (one POST; a key it
        does not have is no error, as in Swift)."""
        headers = swift.remove_headers("Account", keys)
        return self._post(self.endpoint, headers)
