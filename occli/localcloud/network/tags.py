"""Tags of Neutron's standard-attribute resources (the ``standard-attr-tag``
and ``tag-creation`` extensions: ``neutron/extensions/tagging.py``,
``neutron/services/tag/tag_plugin.py``): a resource's set of strings, read by
whoever sees the resource, written by whoever may update it, and the
``tags``/``tags-any``/``not-tags``/``not-tags-any`` list filters."""

import sqlite3
from collections.abc import Iterable
from typing import Any

from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common

MAX_TAG_LEN = 255
MAX_TAGS_COUNT = 50
# the list filters (neutron/objects/tag.py::_apply_tag_filters)
FILTERS = ("tags", "tags-any", "not-tags", "not-tags-any")


def tag_not_found(tag: str) -> errors.NotFound:
    return errors.NotFound("Tag %s could not be found." % tag, type="TagNotFound")


def check_tag(tag: str) -> str:
    """A tag of a URL (``validate_tag``): at most 255 characters."""
    if len(tag) > MAX_TAG_LEN:
        raise attrs.invalid_input("'%s' exceeds maximum length of %d" % (tag, MAX_TAG_LEN))
    return tag


def _unique_strings(value: object) -> str | None:
    """neutron-lib's ``validate_list_of_unique_strings`` (255 characters):
    None, else why ``value`` is not such a list."""
    if not isinstance(value, list):
        return "'%s' is not a list" % (value,)
    seen: set[object] = set()
    dups = []
    for item in value:
        key = repr(item) if isinstance(item, (list, dict)) else item
        if key in seen and item not in dups:
            dups.append(item)
        seen.add(key)
    if dups:
        return "Duplicate items in the list: '%s'" % ", ".join(str(d) for d in dups)
    for item in value:
        if not isinstance(item, str):
            return "'%s' is not a valid string" % (item,)
        if len(item) > MAX_TAG_LEN:
            return "'%s' exceeds maximum length of %d" % (item, MAX_TAG_LEN)
    return None


def check_body(body: object) -> list[str]:
    """The tags of a ``{"tags": [...]}`` body (``validate_tags``)."""
    if not isinstance(body, dict) or "tags" not in body:
        raise attrs.invalid_input("Invalid tags body")
    problem = _unique_strings(body["tags"])
    if problem:
        raise attrs.invalid_input(problem)
    return list(body["tags"])


def attribute(attr: str, value: object) -> list[str]:
    """A port's ``tags`` on create (``TAG_ATTRIBUTE_MAP_PORTS``): 400 with
    the attribute's text as neutron's attribute validation words it."""
    problem = _unique_strings(value)
    if problem:
        raise attrs.bad_request("Invalid input for %s. Reason: %s." % (attr, problem))
    assert isinstance(value, list)
    return list(value)


def _check_limit(resource: str, tags: Iterable[str]) -> None:
    if len(set(tags)) > MAX_TAGS_COUNT:
        raise errors.BadRequest(
            "Bad %s request: The number of tags exceed the per-resource limit of %d."
            % (resource, MAX_TAGS_COUNT),
            type="BadRequest",
        )


def writable(context: Asker, found: sqlite3.Row, member: str, action: str) -> None:
    """Neutron's ``<action>_<member>:tags`` policy: the resource's project
    (its update policy) or an admin; a resource seen only (a shared or
    external network) is 403."""
    if not common.owns(context, found):
        raise common.policy_denied("rule:%s_%s:tags" % (action, member))


def of(db: sqlite3.Connection, resource: str, resource_id: str) -> list[str]:
    """The tags of one resource, in the order they were added."""
    return [
        r[0]
        for r in db.execute(
            "SELECT tag FROM network_tags WHERE resource = ? AND resource_id = ? ORDER BY rowid",
            (resource, resource_id),
        )
    ]


def attach(
    db: sqlite3.Connection, resource: str, items: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``items`` (views of ``resource``, e.g. ``networks``) with their
    ``tags``: one query for a whole listing."""
    found: dict[str, list[str]] = {}
    for r in db.execute(
        "SELECT resource_id, tag FROM network_tags WHERE resource = ? ORDER BY rowid",
        (resource,),
    ):
        found.setdefault(r[0], []).append(r[1])
    for item in items:
        if "tags" in item:
            item["tags"] = list(found.get(item["id"], []))
    return items


def _add(db: sqlite3.Connection, resource: str, resource_id: str, tags: Iterable[str]) -> None:
    db.executemany(
        "INSERT OR IGNORE INTO network_tags (resource, resource_id, tag) VALUES (?, ?, ?)",
        [(resource, resource_id, tag) for tag in dict.fromkeys(tags)],
    )


def replace(db: sqlite3.Connection, resource: str, resource_id: str, tags: list[str]) -> None:
    """``PUT …/tags``: the resource's tags become exactly ``tags``."""
    _check_limit(resource, tags)
    db.execute(
        "DELETE FROM network_tags WHERE resource = ? AND resource_id = ?", (resource, resource_id)
    )
    _add(db, resource, resource_id, tags)


def add(db: sqlite3.Connection, resource: str, resource_id: str, tags: list[str]) -> None:
    """``POST …/tags`` (tag-creation), a port created with ``tags``: ``tags``
    added to the resource's (idempotent); the request's tags alone count
    against the limit, as neutron's ``create`` checks them."""
    _check_limit(resource, tags)
    _add(db, resource, resource_id, tags)


def add_one(db: sqlite3.Connection, resource: str, resource_id: str, tag: str) -> None:
    """``PUT …/tags/{tag}``: the limit counts the current tags and the new one."""
    _check_limit(resource, [*of(db, resource, resource_id), tag])
    _add(db, resource, resource_id, [tag])


def remove(db: sqlite3.Connection, resource: str, resource_id: str, tag: str) -> None:
    """``DELETE …/tags/{tag}``: TagNotFound when the resource lacks it."""
    gone = db.execute(
        "DELETE FROM network_tags WHERE resource = ? AND resource_id = ? AND tag = ?",
        (resource, resource_id, tag),
    ).rowcount
    if not gone:
        raise tag_not_found(tag)


def clear(db: sqlite3.Connection, resource: str, resource_id: str) -> None:
    """``DELETE …/tags``."""
    db.execute(
        "DELETE FROM network_tags WHERE resource = ? AND resource_id = ?", (resource, resource_id)
    )


def has(db: sqlite3.Connection, resource: str, resource_id: str, tag: str) -> None:
    """``GET …/tags/{tag}``: TagNotFound when the resource lacks it."""
    if tag not in of(db, resource, resource_id):
        raise tag_not_found(tag)


def _split(values: Iterable[str]) -> set[str]:
    """Comma-separated and repeated values alike (``_get_tag_list``)."""
    return {tag for value in values for tag in value.split(",")}


def matches(item: dict[str, Any], key: str, values: list[str]) -> bool:
    """Whether ``item`` passes the tag filter ``key``: ``tags`` all of
    them, ``tags-any`` one, ``not-tags`` not all, ``not-tags-any`` none."""
    wanted = _split(values)
    have = set(item.get("tags") or ())
    if key == "tags":
        return wanted <= have
    if key == "tags-any":
        return bool(wanted & have)
    if key == "not-tags":
        return not wanted <= have
    return not wanted & have
