"""``GET /info`` (Swift's capabilities, unauthenticated): the proxy's
``swift`` section with this cloud's constraints (the proxy's
``register_swift_info`` of ``swift/common/constraints.py``'s effective
constraints), and the sections of the middlewares it emulates
(``tempurl``, ``account_quotas``, ``slo``: Swift's ``dlo`` registers
no section). Answered at ``/object-store/info`` and,
where swiftclient and openstacksdk look (the endpoint's host), ``/info``."""

from occli.localcloud.app import Response
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import metadata
from occli.localcloud.objectstore import objects
from occli.localcloud.objectstore import slo

# the Swift release whose answers these are (its CHANGELOG)
SWIFT_VERSION = "2.38.1"


def register(service):
    # no caller to authorise, nothing stored to read
    service.route("GET", "/info", get_info, auth=False, mode=None)


def capabilities(service):
    """The ``/info`` document of ``service`` (an ObjectStoreService)."""
    limit = service.listing_limit
    return {
        "swift": {
            "version": SWIFT_VERSION,
            "strict_cors_mode": True,
            "policies": [
                {"name": containers.POLICY, "aliases": containers.POLICY, "default": True}
            ],
            "allow_account_management": False,
            "account_autocreate": True,
            "allow_open_expired": False,
            "max_file_size": service.max_object_size,
            "max_meta_name_length": metadata.MAX_META_NAME_LENGTH,
            "max_meta_value_length": metadata.MAX_META_VALUE_LENGTH,
            "max_meta_count": metadata.MAX_META_COUNT,
            "max_meta_overall_size": metadata.MAX_META_OVERALL_SIZE,
            "max_header_size": 8192,
            "max_request_line": 8192,
            "max_object_name_length": objects.MAX_NAME_BYTES,
            "container_listing_limit": limit,
            "account_listing_limit": limit,
            "max_account_name_length": 256,
            "max_container_name_length": containers.MAX_NAME_LENGTH,
            # Swift's default lists v1.0 too; only /v1 is routed here
            "valid_api_versions": ["v1"],
            "extra_header_count": 0,
            "auto_create_account_prefix": ".",
        },
        "tempurl": {
            # Swift's default lists POST too; no temp URL posts here
            "methods": ["GET", "HEAD", "PUT", "DELETE"],
            "incoming_remove_headers": ["x-timestamp", "x-open-expired"],
            "incoming_allow_headers": [],
            "outgoing_remove_headers": ["x-object-meta-*"],
            "outgoing_allow_headers": ["x-object-meta-public-*"],
            "allowed_digests": ["sha1", "sha256", "sha512"],
            "deprecated_digests": ["sha1"],
        },
        "account_quotas": {},
        # slo's filter_factory; no async delete (the segments are deleted
        # before the answer, as with allow_async_delete false)
        "slo": {
            "max_manifest_segments": slo.MAX_MANIFEST_SEGMENTS,
            "max_manifest_size": slo.MAX_MANIFEST_SIZE,
            "yield_frequency": slo.YIELD_FREQUENCY,
            "min_segment_size": slo.MIN_SEGMENT_SIZE,
            "allow_async_delete": False,
        },
    }


def get_info(req):
    return Response(
        200,
        capabilities(req.cloud.objectstore),
        content_type="application/json; charset=utf-8",
    )
