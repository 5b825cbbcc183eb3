"""Static large objects: the rules of Swift's ``slo`` middleware
(swift/common/middleware/slo.py) over plain values.

A manifest PUT (``?multipart-manifest=put``) sends a JSON list of
segments, each ``{"path": "/container/object", "etag", "size_bytes",
"range"}`` (only ``path`` required) or ``{"data": <base64>}``; it is
checked (:func:`parse`: 400 with slo's texts), each segment looked up
(:func:`resolve`: its problems, as slo reports them), and the manifest
stored in slo's own form (``name``, ``bytes``, ``hash``, ``content_type``,
``last_modified``, ``range``, ``sub_slo``) as the object's bytes, the
large object's etag and size in its system metadata (:func:`sysmeta`).
"""

import base64
import binascii
import hashlib
import json
import urllib.parse

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.objectstore import objects

# slo's defaults, as register_swift_info reports them in /info
MAX_MANIFEST_SEGMENTS = 1000
MAX_MANIFEST_SIZE = 8 * 1024 * 1024
YIELD_FREQUENCY = 10
MIN_SEGMENT_SIZE = 1
# SloGetContext's max_slo_recursion_depth: manifests within manifests
MAX_RECURSION_DEPTH = 10
# the keys of a segment: required, then the optional ones
SLO_KEYS = {"data": set(), "path": {"range", "etag", "size_bytes"}}
RESERVED_HEADER = (
    "X-Static-Large-Object is a reserved header. To create a static large "
    "object add query param multipart-manifest=put."
)


def _bad_request(text):
    return errors.BadRequest(text.strip(), text=text)


def too_large():
    """slo's 413 for a manifest over MAX_MANIFEST_SIZE bytes."""
    text = "Manifest File > %d bytes" % MAX_MANIFEST_SIZE
    return errors.TooLarge(text, text=text)


def _range(value):
    """``[(first|None, last|None)]`` of a segment's ``range`` (``M-N``,
    ``M-``, ``-N``, comma-separated), None if malformed (swob's Range)."""
    spans = []
    for part in str(value).replace(" ", "").split(","):
        first, sep, last = part.partition("-")
        if not sep or not (first or last) or not (first + last).isdigit():
            return None
        start, end = (int(first) if first else None), (int(last) if last else None)
        if start is not None and end is not None and end < start:
            return None
        spans.append((start, end))
    return spans


def _for_length(spans, size):
    """The ``(start, end)`` (end exclusive) of ``spans`` in ``size`` bytes
    (swob's ranges_for_length: unsatisfiable ones dropped)."""
    found = []
    for start, end in spans:
        if start is None:
            if end:
                found.append((max(size - end, 0), size))
        elif start < size:
            found.append((start, size if end is None else min(end + 1, size)))
    return found


def parse(body, account, container, name):
    """The segments of manifest ``body`` (bytes) PUT as ``name``, each a
    dict (``size_bytes`` an int, ``range`` its spans); BadRequest with
    slo's ``parse_and_validate_input`` texts, one line per bad segment."""
    try:
        parsed = json.loads(body)
    except ValueError:
        raise _bad_request("Manifest must be valid JSON.\n") from None
    if not isinstance(parsed, list):
        raise _bad_request("Manifest must be a list.\n")
    problems = []
    for index, seg in enumerate(parsed):
        problem = _check_segment(index, seg, len(parsed), "/%s/%s" % (container, name))
        if problem:
            problems.append("Index %d: %s" % (index, problem))
    if parsed and all(isinstance(s, dict) and "data" in s for s in parsed):
        problems.append("Inline data segments require at least one object-backed segment.")
    if problems:
        raise _bad_request("".join(p + "\n" for p in problems))
    return parsed


def _check_segment(index, seg, count, own_path):
    """What is wrong with segment ``seg`` (normalised in place), or None."""
    if not isinstance(seg, dict):
        return "not a JSON object"
    kind = next((k for k in SLO_KEYS if k in seg), None)
    if kind is None:
        return "expected keys to include one of %s" % " or ".join(repr(k) for k in SLO_KEYS)
    extra = sorted(k for k in seg if k not in SLO_KEYS[kind] | {kind})
    if extra:
        return "extraneous keys %s" % ", ".join(json.dumps(k) for k in extra)
    if kind == "data":
        try:
            data = base64.b64decode(str(seg["data"]), validate=True)
        except (binascii.Error, ValueError):
            return "data must be valid base64"
        if not data:
            return "too small; each segment must be at least 1 byte."
        seg["data"] = base64.b64encode(data).decode("ascii")
        return None
    path = seg["path"]
    if not isinstance(path, str):
        return '"path" must be a string'
    if not (seg.get("etag") is None or isinstance(seg["etag"], str)):
        return '"etag" must be a string or null (if provided)'
    if "/" not in path.strip("/"):
        return "path does not refer to an object. Path must be of the form /container/object."
    size = seg.get("size_bytes")
    if size is not None:
        try:
            size = seg["size_bytes"] = int(size)
        except (TypeError, ValueError):
            return "invalid size_bytes"
        if size < MIN_SEGMENT_SIZE and index != count - 1:
            return "too small; each segment must be at least 1 byte."
    if "/" + path.lstrip("/") == own_path:
        return "manifest must not include itself as a segment"
    if seg.get("range"):
        spans = _range(seg["range"])
        if spans is None:
            return "invalid range"
        if len(spans) > 1:
            return "multiple ranges (only one allowed)"
        if size is not None and len(_for_length(spans, size)) != 1:
            return "unsatisfiable range"
        seg["range"] = spans
    return None


def split(path):
    """``(container, object)`` of a segment's ``/container/object``."""
    container, _, name = path.lstrip("/").partition("/")
    return container, name


def resolve(db, account, segments, denied):
    """slo's check of the parsed ``segments`` against what is stored:
    ``(manifest, size, problems)``: the manifest to store (slo's form),
    the large object's size, and ``[[quoted path, problem]]`` (a missing
    segment's ``404 Not Found``, ``denied[container]`` for a container the
    caller may not read, Size/Etag Mismatch, too small)."""
    manifest, total, problems = [], 0, []
    for index, seg in enumerate(segments):
        if "data" in seg:
            manifest.append(seg)
            total += len(base64.b64decode(seg["data"]))
            continue
        quoted = urllib.parse.quote(seg["path"])
        container, name = split(seg["path"])
        if container in denied:
            problems.append([quoted, denied[container]])
            continue
        obj = objects.read(db, account, container, name)
        if obj is None:
            problems.append([quoted, "404 Not Found"])
            continue
        size, etag = large_size(obj), large_etag(obj)
        length = size
        entry = {
            "name": "/" + seg["path"].lstrip("/"),
            "bytes": size,
            "hash": etag,
            "content_type": obj["content_type"],
            "last_modified": common.iso_naive_micro(common.from_timestamp(obj["timestamp"])),
        }
        if seg.get("range"):
            spans = _for_length(seg["range"], size)
            if not spans:
                problems.append([quoted, "Unsatisfiable Range"])
            elif spans != [(0, size)]:
                entry["range"] = "%d-%d" % (spans[0][0], spans[0][1] - 1)
                length = spans[0][1] - spans[0][0]
        if length < MIN_SEGMENT_SIZE and index != len(segments) - 1:
            problems.append([quoted, "Too small; each segment must be at least 1 byte."])
        if seg.get("size_bytes") is not None and seg["size_bytes"] != size:
            problems.append([quoted, "Size Mismatch"])
        if seg.get("etag") is not None and seg["etag"].strip('"') != etag:
            problems.append([quoted, "Etag Mismatch"])
        if is_slo(obj):
            entry["sub_slo"] = True
        manifest.append(entry)
        total += length
    return manifest, total, problems


def etag_of(manifest):
    """The large object's etag: the MD5 of its segments' etags (a ranged
    one's ``etag:range;``, a data segment's MD5), as slo computes it."""
    md5 = hashlib.md5()
    for seg in manifest:
        if "data" in seg:
            md5.update(hashlib.md5(base64.b64decode(seg["data"])).hexdigest().encode())
        elif seg.get("range"):
            md5.update(("%s:%s;" % (seg["hash"], seg["range"])).encode())
        else:
            md5.update(seg["hash"].encode())
    return md5.hexdigest()


def sysmeta(manifest, size):
    """The system metadata of a manifest object (slo's
    ``X-Object-Sysmeta-Slo-Etag``/``-Size``)."""
    return {"slo_etag": etag_of(manifest), "slo_size": size}


def is_slo(obj):
    """Whether stored object ``obj`` (a row) is a static large object."""
    return "slo_etag" in objects.sysmeta(obj)


def large_size(obj):
    """An object's size as a GET answers it (a manifest's: the large
    object's)."""
    return objects.sysmeta(obj).get("slo_size", obj["size"])


def large_etag(obj):
    """An object's etag as a GET answers it, unquoted (a manifest's: the
    large object's)."""
    return objects.sysmeta(obj).get("slo_etag", obj["etag"])


def length_of(seg):
    """How many bytes segment ``seg`` (slo's stored form) contributes."""
    if "data" in seg:
        return len(data_of(seg))
    if seg.get("range"):
        first, last = (int(x) for x in seg["range"].split("-"))
        return last - first + 1
    return int(seg["bytes"])


def raw(manifest):
    """``?multipart-manifest=get&format=raw``: the manifest as it was PUT
    (slo's ``convert_segment_listing``), JSON bytes."""
    out = []
    for seg in manifest:
        if "data" in seg:
            out.append(seg)
            continue
        item = {"path": seg["name"], "size_bytes": seg["bytes"], "etag": seg["hash"]}
        if seg.get("range"):
            item["range"] = seg["range"]
        out.append(item)
    return json.dumps(out, sort_keys=True).encode()


def data_of(seg):
    """The bytes of an inline ``data`` segment."""
    return base64.b64decode(seg["data"])
