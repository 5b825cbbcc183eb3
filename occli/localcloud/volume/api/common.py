"""Helpers shared by the block storage API modules: Cinder's policy 403,
lookups with lazy progress, list parameters (limit, sort, scope, filters),
the action bodies' errors."""

import contextlib

from occli.localcloud.app import HTTPError
from occli.localcloud.volume import quotas
from occli.localcloud.volume import schemas
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import microversions

MAX_LIMIT = 1000
# list parameters that are not filters
_PAGING = ("limit", "marker", "offset", "sort", "sort_key", "sort_dir", "all_tenants",
           "project_id", "is_public")  # fmt: skip


# what webob labels a webob.Response a Cinder controller builds itself (an
# empty 202 or 200, the metadata with its ETag), where an answer Cinder's
# wsgi serializes (a dict, or None under ``@wsgi.response``) is
# application/json (Cinder 29's, tests/fidelity/test_live_cinder.py)
WEBOB_TYPE = "text/html; charset=UTF-8"
# the type Cinder's wsgi gives an empty 204 it serializes (the application
# sends no Content-Type with a 204 unless the handler sets the header)
SERIALIZED_EMPTY_204 = "application/json"


def policy_denied(rule):
    """Cinder's 403 naming the policy ``rule`` the caller fails."""
    return HTTPError(403, "Policy doesn't allow %s to be performed." % rule)


def action_name(body):
    """The one action a ``POST …/action`` body names; Cinder's 400 for a
    body naming none or several (cinder/api/openstack/wsgi.py
    ``_process_stack``: MalformedRequestBody)."""
    if not isinstance(body, dict) or len(body) != 1:
        raise HTTPError(400, "Malformed request body")
    return next(iter(body))


def no_such_action(action):
    """Cinder's 400 for an action its controller does not know
    (cinder/api/openstack/wsgi.py ``get_method``)."""
    return HTTPError(
        400,
        "There is no such action: %s. Verify the request body and Content-Type header and"
        " try again." % action,
    )


@contextlib.contextmanager
def bare_quota_errors(*names):
    """The quota errors of Cinder's exception classes ``names`` with their
    bare text, as the API methods that convert them answer
    (``HTTPRequestEntityTooLarge(explanation=error.msg)``)."""
    try:
        yield
    except quotas.QuotaExceeded as error:
        if error.name not in names:
            raise
        raise quotas.QuotaExceeded(error.reason) from error


def name_changes(body):
    """The ``name``/``description`` an update sets, stripped (a
    ``display_*`` alias wins over the plain key)."""
    changes = {}
    for field, column in (
        ("name", "name"),
        ("display_name", "name"),
        ("description", "description"),
        ("display_description", "description"),
    ):
        if field in body:
            value = body[field]
            changes[column] = value.strip() if isinstance(value, str) else value
    return changes


def volumes_lazy(req):
    """Where volumes read by ``req`` persist their lazy progress."""
    return volumes.lazy_volumes(req.cloud.store, req.cloud.config)


def snapshots_lazy(req):
    """Where snapshots read by ``req`` persist their lazy progress."""
    return snapshots.lazy_snapshots(req.cloud.store, req.cloud.config)


def volume(req):
    """The volume of the route's ``{volume_id}``, as the caller sees it."""
    return volumes.get(req.db, req.context, req.params["volume_id"], volumes_lazy(req))


def query_params(req):
    """The query parameters, the last value of each."""
    return {k: v[-1] for k, v in req.query.items()}


def limit(params):
    """``limit`` (None: absent), at most ``MAX_LIMIT``; 400 unless a
    non-negative integer."""
    raw = params.get("limit")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise HTTPError(400, "limit param must be an integer") from None
    if value < 0:
        raise HTTPError(400, "limit param must be positive")
    return min(value, MAX_LIMIT)


def sort(params):
    """``(keys, directions)`` of ``sort`` or the deprecated
    ``sort_key``/``sort_dir`` (not both)."""
    if "sort" in params and ("sort_key" in params or "sort_dir" in params):
        raise HTTPError(
            400,
            "The 'sort_key' and 'sort_dir' parameters are deprecated and cannot be used"
            " with the 'sort' parameter.",
        )
    keys, dirs = [], []
    if "sort" in params:
        for item in params["sort"].strip().split(","):
            key, _sep, direction = item.partition(":")
            keys.append(key.strip())
            dirs.append((direction or "desc").strip())
    else:
        keys.append(params.get("sort_key", "created_at").strip())
        dirs.append(params.get("sort_dir", "desc").strip())
    return keys, dirs


def scope(req, params):
    """The project a list shows (None: every project, admins asking
    ``all_tenants``; a ``project_id`` with it narrows to that one)."""
    ctx = req.context
    if ctx.is_admin and "all_tenants" in params:
        return params.get("project_id")
    return ctx.project_id


def counts(req, params):
    """Whether a volume, snapshot or backup list answers its ``count``:
    ``with_count`` from 3.45 (Cinder's SUPPORT_COUNT_INFO)."""
    if req.microversion < microversions.SUPPORT_COUNT_INFO:
        return False
    return schemas.truthy(params.get("with_count"))


def filters(req, params, allowed, counted=False):
    """The ``allowed`` filters among ``params``; from 3.34 another one is a
    400. ``counted``: a list that may answer its ``count``, whose
    ``with_count`` is a parameter from 3.45 (before, Cinder takes it for a
    filter like any other)."""
    paging: tuple[str, ...] = _PAGING
    if counted and req.microversion >= microversions.SUPPORT_COUNT_INFO:
        paging += ("with_count",)
    candidates = {k: v for k, v in params.items() if k not in paging}
    if req.microversion >= microversions.RESOURCE_FILTER:
        unknown = sorted(k for k in candidates if k not in allowed)
        if unknown:
            raise HTTPError(
                400, "Invalid filters %s are found in query options." % ",".join(unknown)
            )
    return {k: v for k, v in candidates.items() if k in allowed}
