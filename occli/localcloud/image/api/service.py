"""``ImageService``: glance's framing around the resource modules.

Glance's plain-text error pages (``error_body``), the ``images`` table
(``migrations``), the seeded public images (``seed``) and the rules other
services call through ``cloud.image``.
"""

from occli.localcloud import common
from occli.localcloud.app import MAX_BODY
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.image import data
from occli.localcloud.image import images as image_rules
from occli.localcloud.image import imports as import_rules
from occli.localcloud.image import metadefs as metadef_rules
from occli.localcloud.image import migrations
from occli.localcloud.image.api import image_data
from occli.localcloud.image.api import images
from occli.localcloud.image.api import imports
from occli.localcloud.image.api import members
from occli.localcloud.image.api import metadefs
from occli.localcloud.image.api import schemas
from occli.localcloud.image.api import tasks
from occli.localcloud.image.api import versions

# The API modules, each with register(service), in route order.
RESOURCES = (versions, images, image_data, schemas, members, imports, tasks, metadefs)


class ImageService(Service):
    """Glance v2 images (list, show, create, upload, download, update,
    delete, deactivate) and version discovery."""

    name = "image"
    prefix = "/image"
    # glance's default policies: a reader only reads
    write_role = "member"
    # glance's [DEFAULT] image_size_cap (1 TiB): a larger upload is its 413
    image_size_cap = 1024**4
    # glance's [DEFAULT] user_storage_quota (bytes, 0: unlimited, its
    # default): a project's uploaded and staged data, else its 413
    user_storage_quota = 0

    def __init__(self, cloud):
        super().__init__(cloud)
        self.files = data.ImageFiles(cloud.config.data_dir)
        self.staging = import_rules.StagingFiles(cloud.config.data_dir)
        self.add_resources(RESOURCES)

    @property
    def max_body(self):
        """An upload's body may be as large as an image (:meth:`before`
        keeps the other routes' bodies to :data:`MAX_BODY`)."""
        return max(self.image_size_cap, MAX_BODY)

    def before(self, req):
        if req.content_length > MAX_BODY and not req.path.endswith(("/file", "/stage")):
            raise HTTPError(413, "Request is too large.")

    # for compute: ``cloud.image.get_image(db, id)`` …
    get_image = staticmethod(image_rules.get_image)
    get_visible_image = staticmethod(image_rules.get_visible_image)
    image_exists = staticmethod(image_rules.image_exists)
    create_image = staticmethod(image_rules.create_image)
    delete_image = staticmethod(image_rules.delete_image)
    find_by_properties = staticmethod(image_rules.find_by_properties)

    def migrations(self):
        return list(migrations.COMPONENTS)

    def seed(self, db):
        owner = None
        if self.cloud.identity is not None:
            owner = self.cloud.identity.project_id(db, "admin")
        image_rules.seed(db, owner, self.cloud.config.seed)
        metadef_rules.seed(db)

    def error_body(self, status, message, extra):
        """Glance errors are webob's plain-text pages."""
        reason = common.reason(status)
        text = "%d %s\n\n%s\n\n   " % (status, reason, message)
        return Response(status, raw=text, content_type="text/plain; charset=UTF-8")
