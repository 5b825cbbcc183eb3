"""Cinder volume transfers (``client.volume_transfers``): a request to
give a volume to another project, its one-time ``auth_key`` in the
create's answer only; the recipient accepts with the id and the key and
then owns the volume (and its snapshots, unless ``no_snapshots``).

Requests go to ``/os-volume-transfer``, which every Cinder v3 serves; a
create with ``no_snapshots`` goes to ``/volume-transfers`` at volume API
3.55 (Cinder's ``TRANSFER_WITH_SNAPSHOTS``), as OSC sends it.
"""

from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder

#: ``no_snapshots`` and the ``/volume-transfers`` route
TRANSFER_WITH_SNAPSHOTS_VERSION = "3.55"


class VolumeTransfer(base.Resource):
    """A volume transfer request (``volume_id``; ``auth_key`` once)."""


class VolumeTransferManager(cinder.CinderManager):
    """Create, accept, list, show and delete volume transfer requests."""

    resource_class = VolumeTransfer
    collection = "os-volume-transfer"
    member = "transfer"
    noun = "volume transfer request"

    def _list_request(
        self, detailed: bool, all_projects: bool, marker: str | None, filters: Any
    ) -> tuple[str, str, dict[str, Any]]:
        """Cinder answers a transfer list under ``transfers``."""
        url, _key, params = super()._list_request(detailed, all_projects, marker, filters)
        return url, "transfers", params

    def create(
        self, volume: base.Resource | str, name: str | None = None, no_snapshots: bool = False
    ) -> base.Resource:
        """Offer ``volume`` (``available``) for transfer; it goes
        ``awaiting-transfer``. The answer's ``auth_key`` is shown this
        once: Cinder keeps only its hash."""
        body: dict[str, Any] = {"volume_id": str(base.getid(volume))}
        if name is not None:
            body["name"] = name
        if not no_snapshots:
            return self._create(self._url(self.collection), {"transfer": body}, "transfer")
        body["no_snapshots"] = True
        return self._create(
            self._url("volume-transfers"),
            {"transfer": body},
            "transfer",
            microversion=TRANSFER_WITH_SNAPSHOTS_VERSION,
        )

    def accept(self, transfer: base.Resource | str, auth_key: str) -> base.Resource:
        """Accept the transfer ``transfer`` (an id: another project's is
        not listed) with its ``auth_key``; the volume is then this
        project's."""
        return self._create(
            self._url(self.collection, base.getid(transfer), "accept"),
            {"accept": {"auth_key": auth_key}},
            "transfer",
        )

    def delete(self, transfer: base.Resource | str) -> base.Result:
        """Withdraw a request; the volume is ``available`` again."""
        return self._delete(self._url(self.collection, base.getid(transfer)))
