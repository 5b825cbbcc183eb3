"""Compare a JSON document's *shape* with an upstream API sample.

``assert_same_shape(actual, sample)`` checks that both have the same keys
(recursively in nested objects; element-wise in lists of objects) and the
same JSON value types (null, boolean, number, string, array, object).
Values themselves are not compared.

* Objects named in ``maps`` (default: ``metadata``, ``extra_specs``) are
  free-form maps: only the types of their values are compared.
* A ``null`` in the sample accepts any type (samples often show an unset
  optional value); a ``null`` in ``actual`` where the sample has a value is
  accepted only for keys listed in ``nullable``.
* ``ignore``: keys left out of the comparison on both sides (e.g. a
  policy-gated key the sample shows but the caller may not see).
"""

DEFAULT_MAPS = frozenset({"metadata", "extra_specs"})


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError("not a JSON value: %r" % (value,))


def shape_differences(actual, sample, maps=DEFAULT_MAPS, nullable=(), ignore=(), path="$"):
    """A list of human-readable differences (empty when shapes agree)."""
    problems = []
    kind_a, kind_s = _kind(actual), _kind(sample)
    if kind_s == "null":
        return problems
    if kind_a != kind_s:
        leaf = path.rsplit(".", 1)[-1].split("[", 1)[0]
        if not (kind_a == "null" and leaf in nullable):
            problems.append("%s: %s in actual, %s in sample" % (path, kind_a, kind_s))
        return problems
    if kind_s == "object":
        leaf = path.rsplit(".", 1)[-1]
        if leaf in maps:
            if actual and sample:
                example = next(iter(sample.values()))
                for key, value in actual.items():
                    problems += shape_differences(
                        value, example, maps, nullable, ignore, "%s.%s" % (path, key)
                    )
            return problems
        keys_a = set(actual) - set(ignore)
        keys_s = set(sample) - set(ignore)
        for key in sorted(keys_s - keys_a):
            problems.append("%s: key %r missing from actual" % (path, key))
        for key in sorted(keys_a - keys_s):
            problems.append("%s: unexpected key %r in actual" % (path, key))
        for key in sorted(keys_a & keys_s):
            problems += shape_differences(
                actual[key], sample[key], maps, nullable, ignore, "%s.%s" % (path, key)
            )
    elif kind_s == "array" and actual and sample:
        for index, item in enumerate(actual):
            reference = sample[index] if len(actual) == len(sample) else sample[0]
            problems += shape_differences(
                item, reference, maps, nullable, ignore, "%s[%d]" % (path, index)
            )
    return problems


def assert_same_shape(actual, sample, maps=DEFAULT_MAPS, nullable=(), ignore=()):
    """Fail with every difference between the shapes of the two documents."""
    problems = shape_differences(actual, sample, maps, nullable, ignore)
    assert not problems, "shape differs from sample:\n  " + "\n  ".join(problems)
