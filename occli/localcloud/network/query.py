"""Neutron's list query parameters (``neutron.api.api_common``): equality
filters on any attribute (repeated values: any of them; the tag filters
of :mod:`.tags`), ``fields=``,
``sort_key``/``sort_dir`` pairs and ``limit``/``marker``/``page_reverse``
pagination with ``<collection>_links``."""

import ipaddress
from urllib.parse import urlencode

from occli.localcloud.network import tags
from occli.localcloud.network.attributes import bad_request

CONTROL = ("fields", "limit", "marker", "page_reverse", "sort_key", "sort_dir")
# attributes shown but not filters: neutron-lib's port_security definition
# has no ``is_filter`` (neutron-29-port_security.json: 400 on networks and ports)
NOT_FILTERS = ("port_security_enabled",)


def _as_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _converted(key, value):
    """A filter's value as its attribute's ``convert_to`` makes it: a
    subnet's ``cidr`` without host bits (``convert_to_cidr``:
    neutron-29-cidrs.json finds ``10.99.99.0/16`` as ``10.99.0.0/16``)."""
    if key != "cidr":
        return value
    try:
        return str(ipaddress.ip_network(value, strict=False))
    except ValueError:
        return value


def _matches(item, key, wanted):
    if key in tags.FILTERS:
        return tags.matches(item, key, wanted)
    value = item.get(key)
    if key == "fixed_ips":
        # ``fixed_ips=ip_address=10.0.0.3`` / ``fixed_ips=subnet_id=…``
        for want in wanted:
            name, _, target = want.partition("=")
            if any(str(ip.get(name)) == target for ip in value or ()):
                return True
        return False
    if isinstance(value, list):
        return any(_as_text(v) in wanted for v in value)
    if isinstance(value, bool):
        return any(w.lower() in (("true", "1") if value else ("false", "0")) for w in wanted)
    return _as_text(value) in wanted


def filters(query, attributes):
    """``{attribute: [values]}`` from the query; an unknown attribute is
    neutron's 400 (its filter validation)."""
    result = {}
    invalid = []
    for key, values in query.items():
        if key in CONTROL:
            continue
        # tags-any, not-tags, not-tags-any: filters of a resource with tags
        if key in NOT_FILTERS or (
            key not in attributes and not (key in tags.FILTERS and "tags" in attributes)
        ):
            invalid.append(key)
            continue
        result[key] = [_converted(key, v) for v in values]
    if invalid:
        raise bad_request("%s is invalid attribute for filtering" % invalid)
    return result


def sorts(query, sort_keys):
    keys = [v for v in query.get("sort_key", []) if v]
    dirs = [v for v in query.get("sort_dir", []) if v]
    if len(keys) != len(dirs):
        raise bad_request("The number of sort_keys and sort_dirs must be same")
    absent = [k for k in keys if k not in sort_keys]
    if absent:
        raise bad_request("%s is invalid attribute for sort_keys" % absent)
    wrong = [d for d in dirs if d not in ("asc", "desc")]
    if wrong:
        raise bad_request(
            "%s is invalid value for sort_dirs, valid value is 'asc' and 'desc'" % wrong
        )
    return list(zip(keys, [d == "asc" for d in dirs], strict=True))


def _limit(query):
    values = query.get("limit")
    raw = values[-1] if values else 0
    try:
        limit = int(raw)
        if limit >= 0:
            return limit
    except ValueError:
        pass
    raise bad_request(
        "Bad limit request: Limit must be an integer 0 or greater and not '%s'." % raw,
        kind="BadRequest",
    )


def _sorted(items, order):
    for key, ascending in reversed(order):
        items = sorted(items, key=_sort_key(key), reverse=not ascending)
    return items


def _sort_key(key):
    """Sorts by ``key``'s value, items without one first."""
    return lambda item: (item.get(key) is not None, _sort_value(item.get(key)))


def _sort_value(value):
    if isinstance(value, (list, dict)):
        return str(value)
    return value if value is not None else ""


class Listing:
    """One list request: ``Listing(query, attributes, sort_keys)`` then
    :meth:`apply` on the visible items (dicts in creation order)."""

    def __init__(self, query, attributes, sort_keys):
        self.query = query
        self.filters = filters(query, attributes)
        self.order = sorts(query, sort_keys)
        self.limit = _limit(query)
        markers = query.get("marker")
        self.marker = markers[-1] if markers else None
        reverse = query.get("page_reverse")
        self.page_reverse = bool(reverse) and reverse[-1].lower() == "true"
        self.fields = [f for f in query.get("fields", []) if f]

    def apply(self, items, marker_not_found):
        """The filtered, sorted page (before field selection);
        ``marker_not_found(marker)`` is the error for an unknown marker."""
        items = [i for i in items if all(_matches(i, k, v) for k, v in self.filters.items())]
        order = list(self.order)
        if self.limit and "id" not in [k for k, _ in order]:
            order.append(("id", True))
        if order:
            items = _sorted(items, order)
        if not self.limit:
            return items
        position = None
        if self.marker is not None:
            ids = [i["id"] for i in items]
            if self.marker not in ids:
                raise marker_not_found(self.marker)
            position = ids.index(self.marker)
        if self.page_reverse:
            before = items if position is None else items[:position]
            return before[-self.limit :]
        after = items if position is None else items[position + 1 :]
        return after[: self.limit]

    def select(self, item):
        if not self.fields:
            return item
        return {k: v for k, v in item.items() if k in self.fields}

    def links(self, path_url, page):
        """Neutron's ``get_pagination_links`` (only when paginated)."""
        if not self.limit:
            return None
        links = []
        if not (len(page) < self.limit and not self.page_reverse):
            params = self._params(drop=("marker", "page_reverse"))
            if page:
                params.append(("marker", page[-1]["id"]))
            links.append({"rel": "next", "href": path_url + "?" + urlencode(params)})
        if not (len(page) < self.limit and self.page_reverse):
            params = self._params(drop=("marker", "page_reverse"))
            if page:
                params.append(("marker", page[0]["id"]))
            params.append(("page_reverse", "True"))
            links.append({"rel": "previous", "href": path_url + "?" + urlencode(params)})
        return links

    def _params(self, drop):
        return [(k, v) for k, values in self.query.items() if k not in drop for v in values]
