"""What other services may ask of Glance.

Cinder (a volume created from an image, a volume uploaded to an image)
calls these and nothing else of the image service's rules.
"""

from occli.localcloud.image.images import get_visible_image
from occli.localcloud.image.listing import page
from occli.localcloud.image.writes import create_uploaded_image

__all__ = ["create_uploaded_image", "get_visible_image", "page"]
