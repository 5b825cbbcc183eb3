"""``ImageService``: glance's framing around the resource modules.

Glance's plain-text error pages (``error_body``), the ``images`` table
(``migrations``), the seeded public images (``seed``) and the rules other
services call through ``cloud.image``.
"""

import html
import re

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

WEBOB_TYPE = "text/html; charset=UTF-8"
# the offers of webob 1.8's HTTPException.generate_response, in its order:
# any other Accept (or none) gets the plain-text page
_OFFERS = ("text/html", "application/json")


def _offered(accept: str | None) -> str | None:
    """The type of webob's error page for ``accept``: the offer of the
    highest quality (the most specific range's), the first on a tie."""
    ranges = []
    for item in (accept or "").split(","):
        media, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges.append((media.strip().lower(), quality))
    chosen = []
    for rank, offer in enumerate(_OFFERS):
        matches = [
            (media.count("*") * -1, quality)
            for media, quality in ranges
            if media in (offer, offer.split("/")[0] + "/*", "*/*")
        ]
        quality = max(matches)[1] if matches else 0.0
        if quality > 0:
            chosen.append((-quality, rank, offer))
    return min(chosen)[2] if chosen else None


class Fault(Response):
    """A Glance error as webob renders it (webob/exc.py's templates):
    plain text, or HTML or a JSON document (``{message, code, title}``)
    when ``Accept`` offers them, the message as its explanation."""

    def __init__(self, status: int, message: str) -> None:
        reason = common.reason(status)
        text = "%d %s\n\n%s\n\n   " % (status, reason, message)
        super().__init__(status, raw=text, content_type="text/plain; charset=UTF-8")
        self.message = message

    def render(self, accept: str | None) -> None:
        """The page ``accept`` asks for (:func:`_offered`)."""
        offered = _offered(accept)
        status = "%d %s" % (self.status, common.reason(self.status))
        if offered == "application/json":
            self.raw = None
            self.body = {
                "message": "%s<br /><br />\n\n\n" % self.message,
                "code": status,
                "title": common.reason(self.status),
            }
            self.content_type = "application/json"
        elif offered == "text/html":
            self.raw = (
                "<html>\n <head>\n  <title>%s</title>\n </head>\n <body>\n  <h1>%s</h1>\n"
                "  %s<br /><br />\n\n\n\n </body>\n</html>"
                % (status, status, html.escape(self.message))
            )
            self.content_type = WEBOB_TYPE


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

    _upload_path = re.compile(r"^/v2/images/[^/]+/file/?$")

    def body_digests(self, method, path):
        """Image data is stored with its MD5 and ``os_hash_algo`` digest
        (``data.DIGESTS``); staged data is hashed when imported."""
        sub = path[len(self.prefix) :] if path.startswith(self.prefix + "/") else None
        upload = method == "PUT" and sub is not None and self._upload_path.match(sub)
        return data.DIGESTS if upload else ()

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
        """Glance errors are webob's pages: plain text until :meth:`after`
        sees the request's ``Accept`` (:class:`Fault`)."""
        return Fault(status, message)

    def after(self, req, resp):
        """An error in the format ``Accept`` asks for; an answer without a
        body labelled as webob labels the response Glance's wsgi resource
        made (``text/html; charset=UTF-8``, a 204 too), as Glance 33's
        (tests/fidelity/test_live_glance.py). Not a GET's (a queued image's
        data: webob's HTTPNoContent, unlabelled) nor a handler's answer
        of ``content_type=None`` (glance's own ``webob.Response(status=204)``)."""
        if isinstance(resp, Fault):
            resp.render(req.header("Accept"))
        elif (
            resp.status < 400
            and req.method != "GET"
            and resp.content_type is not None
            and resp.body is None
            and resp.raw is None
            and resp.stream is None
        ):
            resp.content_type = WEBOB_TYPE
            if resp.status == 204:
                resp.headers["Content-Type"] = WEBOB_TYPE
