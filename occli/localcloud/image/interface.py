"""What other services may ask of Glance.

Cinder (a volume created from an image, a volume uploaded to an image) and
Nova's image proxy (``/images`` before 2.36) call these and nothing else
of the image service's rules.
"""

from occli.localcloud.image.images import get_visible_image
from occli.localcloud.image.listing import page
from occli.localcloud.image.nova_proxy import listing
from occli.localcloud.image.nova_proxy import properties
from occli.localcloud.image.nova_proxy import set_properties
from occli.localcloud.image.writes import create_uploaded_image
from occli.localcloud.image.writes import delete

__all__ = [
    "create_uploaded_image",
    "delete",
    "get_visible_image",
    "listing",
    "page",
    "properties",
    "set_properties",
]
