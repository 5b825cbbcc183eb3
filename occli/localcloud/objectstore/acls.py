"""Swift's container ACLs (``X-Container-Read``/``-Write``, ACL v1): how
a value is cleaned when stored and what it grants another caller.

As ``swift/common/middleware/acl.py`` (``clean_acl``, ``parse_acl_v1``,
``referrer_allowed``) and ``swift/common/middleware/keystoneauth.py``
(``_authorize_cross_tenant``, ``_authorize_unconfirmed_identity``): an item
``<project>:<user>`` grants a Keystone user (each side an id, a name in the
default domain, or ``*``); ``.r:<host>`` (``.r:-<host>`` denies) grants a
request by its ``Referer``, anonymous ones included, on objects only unless
``.rlistings`` is there too; any other item names a role of the account's
own project. A malformed value is a 400 whose plain-text body is the
error's ``text`` (Swift's ``ValueError`` message).
"""

import urllib.parse

from occli.localcloud import errors

REFERRER_DESIGNATORS = (".r", ".ref", ".referer", ".referrer")
LISTINGS = ".rlistings"


def _refuse(text: str) -> errors.BadRequest:
    return errors.BadRequest(text, text=text)


def clean(kind: str, value: str) -> str:
    """The ``kind`` (``read`` or ``write``) ACL ``value`` as Swift stores
    it: items trimmed, empty ones dropped, referrer designators shortened
    to ``.r``; BadRequest with Swift's text if it is malformed."""
    items = []
    for raw in value.split(","):
        raw = raw.strip()
        if not raw:
            continue
        first, sep, second = raw.partition(":")
        first, second = first.strip(), second.strip()
        if not sep or not first or not first.startswith("."):
            items.append(raw)
            continue
        if first not in REFERRER_DESIGNATORS:
            raise _refuse("Unknown designator %r in ACL: %r" % (first, raw))
        if kind == "write":
            raise _refuse("Referrers not allowed in write ACL: %r" % raw)
        negate = second.startswith("-")
        if negate:
            second = second[1:].strip()
        if second and second != "*" and second.startswith("*"):
            second = second[1:].strip()
        if not second or second == ".":
            raise _refuse("No host/domain value after referrer designation in ACL: %r" % raw)
        items.append(".r:%s%s" % ("-" if negate else "", second))
    return ",".join(items)


def parse(value: str | None) -> tuple[list[str], list[str]]:
    """``(referrers, groups)`` of a stored ACL (referrers without ``.r:``)."""
    referrers, groups = [], []
    for item in (value or "").split(","):
        if item.startswith(".r:"):
            referrers.append(item[3:])
        elif item:
            groups.append(urllib.parse.unquote(item))
    return referrers, groups


def referrer_allowed(referer: str | None, referrers: list[str]) -> bool:
    """Whether a request with ``Referer`` ``referer`` passes ``referrers``
    (applied in order, a ``-`` item denying; no Referer is host
    ``unknown``)."""
    allow = False
    host = urllib.parse.urlparse(referer or "").hostname or "unknown"
    for item in referrers:
        deny = item.startswith("-")
        item = item[1:] if deny else item
        if item == host or (item.startswith(".") and host.endswith(item)):
            allow = not deny
        elif item == "*" and not deny:
            allow = True
    return allow


def by_referrer(value: str | None, referer: str | None, on_object: bool) -> bool | None:
    """What the ACL ``value``'s referrers say of a request with ``referer``
    (keystoneauth's unconfirmed identity): True to grant, False to refuse
    (allowed, but a listing needs ``.rlistings``), None if they do not
    allow it."""
    referrers, groups = parse(value)
    if not referrer_allowed(referer, referrers):
        return None
    return on_object or LISTINGS in groups


def cross_project(
    value: str | None,
    project: tuple[str, str],
    user: tuple[str, str],
    names: bool,
) -> bool:
    """Whether an item ``<project>:<user>`` of the ACL ``value`` names the
    caller (``project`` and ``user`` are ``(id, name)``; names count only
    if ``names``: both in the default domain)."""
    _, groups = parse(value)
    projects, users = [project[0], "*"], [user[0], "*"]
    if names:
        projects.append(project[1])
        users.append(user[1])
    return any("%s:%s" % (p, u) in groups for p in projects for u in users)


def by_role(value: str | None, roles: list[str]) -> bool:
    """Whether the ACL ``value`` names one of the caller's ``roles`` (on
    the account's own project), as keystoneauth's last check."""
    _, groups = parse(value)
    named = {g.lower() for g in groups}
    return any(role.lower() in named for role in roles)
