"""What other services may ask of Glance.

Cinder (a volume created from an image) calls these and nothing else of
the image service's rules.
"""

from occli.localcloud.image.images import get_visible_image
from occli.localcloud.image.images import page

__all__ = ["get_visible_image", "page"]
