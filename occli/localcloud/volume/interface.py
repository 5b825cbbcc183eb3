"""What other services may ask of Cinder.

Compute (``os-volumes``/``os-snapshots``, volume attachments, boot from
volume and server snapshots) calls these and nothing else of the volume
service's rules. A name two rules modules share is prefixed with its
module's name. Nova attaches and detaches through the attachments API's
rules (:mod:`.attachments`), as Nova 34 does with Cinder's 3.44.
"""

from occli.localcloud.volume.attachments import nova_attach as attach
from occli.localcloud.volume.attachments import nova_detach as detach
from occli.localcloud.volume.snapshots import create as snapshots_create
from occli.localcloud.volume.snapshots import delete as snapshots_delete
from occli.localcloud.volume.snapshots import get as snapshots_get
from occli.localcloud.volume.snapshots import listing as snapshots_listing
from occli.localcloud.volume.snapshots import sort_order as snapshots_sort_order
from occli.localcloud.volume.types import names
from occli.localcloud.volume.volumes import attachments
from occli.localcloud.volume.volumes import create as volumes_create
from occli.localcloud.volume.volumes import delete as volumes_delete
from occli.localcloud.volume.volumes import find
from occli.localcloud.volume.volumes import get as volumes_get
from occli.localcloud.volume.volumes import listing as volumes_listing
from occli.localcloud.volume.volumes import metadata
from occli.localcloud.volume.volumes import reserve_check
from occli.localcloud.volume.volumes import save
from occli.localcloud.volume.volumes import sort_order as volumes_sort_order

__all__ = [
    "attach",
    "attachments",
    "detach",
    "find",
    "metadata",
    "names",
    "reserve_check",
    "save",
    "snapshots_create",
    "snapshots_delete",
    "snapshots_get",
    "snapshots_listing",
    "snapshots_sort_order",
    "volumes_create",
    "volumes_delete",
    "volumes_get",
    "volumes_listing",
    "volumes_sort_order",
]
