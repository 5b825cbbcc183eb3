"""``/v1/AUTH_<project>``: the account's HEAD/GET (counts, metadata, the
quotas, its containers' listing) and POST (metadata; the quotas only for the
reseller admin). The rules are in :mod:`occli.localcloud.objectstore.accounts`."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.objectstore import accounts
from occli.localcloud.objectstore.api import common


def register(service):
    service.swift_route("GET", common.ACCOUNT, get_account)
    service.swift_route("POST", common.ACCOUNT, post_account)


def _quota_headers(environ):
    """``{"quota-bytes"|"quota-count": value}`` of the quota headers a POST
    sends (``""``: remove), as account_quotas reads them: ``X-Account-Quota-
    <Bytes|Count>``, ``X-Remove-…`` winning, the legacy
    ``X-Account-Meta-Quota-Bytes`` standing in for the first."""
    values = {}
    for kind, name in (("BYTES", "quota-bytes"), ("COUNT", "quota-count")):
        value = environ.get("HTTP_X_ACCOUNT_QUOTA_" + kind)
        remove = environ.get("HTTP_X_REMOVE_ACCOUNT_QUOTA_" + kind)
        if kind == "BYTES":
            value = value or environ.get("HTTP_X_ACCOUNT_META_QUOTA_BYTES")
            remove = remove or environ.get("HTTP_X_REMOVE_ACCOUNT_META_QUOTA_BYTES")
        if remove:
            value = ""
        if value is not None:
            values[name] = value
    return values


def get_account(req):
    via = common.authorize(req)
    info = accounts.summary(req.db, req.params["account"])
    headers = {
        "X-Account-Container-Count": len(info["containers"]),
        "X-Account-Object-Count": info["object_count"],
        "X-Account-Bytes-Used": info["bytes_used"],
        "X-Timestamp": common.x_timestamp(info["created_at"]),
    }
    headers.update(common.meta_out("Account", info["metadata"]))
    # account_quotas: anyone who reads the account sees its quotas
    for name in accounts.QUOTAS:
        if info["sysmeta"].get(name):
            headers["X-Account-%s" % name.title()] = info["sysmeta"][name]
    headers = common.for_caller(headers, via)
    listing = common.listing(
        req,
        [
            {
                "name": c["name"],
                "count": c["count"],
                "bytes": c["bytes"],
                "last_modified": common.iso_listing(c["last_modified"]),
            }
            for c in info["containers"]
        ],
    )
    return common.listing_response(req, listing, headers)


def post_account(req):
    via = common.authorize(req)
    quotas = _quota_headers(req.environ)
    if quotas and via != "reseller":
        raise HTTPError(403)  # account_quotas: only the reseller sets them
    if any(v and not v.isdigit() for v in quotas.values()):
        raise HTTPError(400)
    set_, remove = common.meta_headers(req.environ, "account")
    accounts.update_metadata(req.db, req.params["account"], set_, remove)
    accounts.update_sysmeta(req.db, req.params["account"], quotas)
    return Response(204)
