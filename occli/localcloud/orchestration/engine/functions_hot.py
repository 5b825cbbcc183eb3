"""The HOT (and HOT 2013-05-23's CFN) intrinsic functions themselves.

Heat's ``heat/engine/hot/functions.py`` and ``cfn/functions.py`` classes as
functions of :mod:`.functions`' evaluator: each takes the evaluator, the
function's name, its variant (Heat's class name: ``ReplaceJson``,
``JoinMultiple``…), its raw arguments and its path, evaluates what it
needs of its arguments and raises ``ValueError``/``TypeError``/
``KeyError`` with Heat's text, which the evaluator prefixes with the path.
"""

import collections.abc
import hashlib
import itertools
import json
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import Protocol
from urllib import parse as urlparse

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import exception


class Evaluating(Protocol):
    """What an implementation may ask of the evaluator."""

    resolver: Any

    def __call__(self, snippet: Any, path: str = "") -> Any: ...

    def need(self) -> Any: ...

    def condition(self, value: Any) -> bool: ...


class Invalid(Exception):
    """A function's refusal (Heat's ValueError/TypeError/KeyError texts)."""


class ResultError(ValueError):
    """A value a function could not produce from what it was given (Heat's
    ``GetFile.result`` ValueError for a file not in ``files``): not
    prefixed with the function's path, so that a property reports it as
    ``Property error: resources.<name>.properties.<key>: <text>`` and an
    output as its bare ``output_error``."""


def failure(path: str, message: str) -> errors.BadRequest:
    return exception.validation_failed("", path.lstrip("."), message)


def removed(name: str) -> errors.BadRequest:
    return errors.BadRequest(
        "The template version is invalid: "
        "The function %s is not supported in this version of HOT." % name,
        type="InvalidTemplateVersion",
    )


def reference_error(name: Any, key: str) -> errors.BadRequest:
    return errors.BadRequest(
        'The specified reference "%s" (in %s) is incorrect.' % (name, key),
        type="InvalidTemplateReference",
    )


def is_list(value: Any) -> bool:
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def implementation(variant: str) -> str:
    for name in IMPLEMENTATIONS:
        if variant == name:
            return name
    for name in sorted(IMPLEMENTATIONS, key=len, reverse=True):
        if variant.startswith(name):
            return name
    raise KeyError(variant)


def _get_param(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    args = ev(args, path)
    if not args:
        raise ValueError('Function "%s" must have arguments' % fn)
    if isinstance(args, str):
        name, components = args, []
    elif is_list(args):
        name, components = args[0], list(args[1:])
    else:
        raise TypeError('Argument to "%s" must be string or list' % fn)
    if not isinstance(name, str):
        raise TypeError('Parameter name in "%s" must be string' % fn)
    try:
        value = ev.need().param(name)
    except KeyError:
        raise errors.BadRequest(
            "The Parameter (%s) was not provided." % name, type="UserParameterMissing"
        ) from None
    try:
        for key in components:
            if not isinstance(value, (Mapping, collections.abc.Sequence)):
                raise TypeError
            if isinstance(value, collections.abc.Sequence) and isinstance(key, str):
                key = int(key)
            value = value[key]
    except (KeyError, IndexError, TypeError, ValueError):
        return ""
    return value


def _get_resource(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    name = ev(args, path)
    resolver = ev.need()
    if not isinstance(name, str) or name not in resolver.resource_names():
        raise reference_error(name, "unknown")
    return resolver.resource_ref(name)


def _get_attr(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if variant == "GetAttAllAttributes":
        if not args:
            raise ValueError(
                'Arguments to "%s" can be of the next forms: [resource_name] or '
                "[resource_name, attribute, (path), ...]" % fn
            )
        if not is_list(args):
            raise TypeError('Argument to "%s" must be a list' % fn)
    else:
        if not is_list(args):
            raise TypeError('Argument to "%s" must be a list' % fn)
        if len(args) < 2:
            raise ValueError(
                'Arguments to "%s" must be of the form [resource_name, attribute, (path), ...]'
                % fn
            )
    args = ev(list(args), path)
    resolver = ev.need()
    name = args[0]
    if not isinstance(name, str) or name not in resolver.resource_names():
        raise reference_error(name, "unknown")
    if len(args) == 1:
        every = getattr(resolver, "resource_attrs", None)
        if every is None:
            raise Invalid("get_attr of all attributes is not supported here")
        return every(name)
    if variant == "GetAttThenSelect":
        value = resolver.resource_attr(name, args[1], [])
        return None if value is None else attributes.select_from_attribute(value, args[2:])
    return resolver.resource_attr(name, args[1], list(args[2:]))


def _get_file(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    key = ev(args, path)
    if not isinstance(key, str):
        raise TypeError('Argument to "%s" must be a string' % fn)
    return ev.need().file(key)


_REPLACE_EXAMPLE = """%s:
              template: This is var1 template var2
              params:
                var1: a
                var2: string"""


def _replacement(fn: str, variant: str, value: Any, param: Any) -> str:
    allow_empty = variant != "ReplaceJsonVeryStrict"
    empty = ValueError(
        "%s has an undefined or empty value for param %s, must be a defined non-empty value"
        % (fn, param)
    )
    if value is None:
        if allow_empty:
            return ""
        raise empty
    if not isinstance(value, (str, int, float, bool)):
        if variant in ("Replace", "CfnReplace"):
            raise TypeError(
                '"%s" params must be strings or numbers, param %s is not valid' % (fn, param)
            )
        if isinstance(value, (Mapping, collections.abc.Sequence)):
            if not allow_empty and len(value) == 0:
                raise empty
            return json.dumps(value, sort_keys=True)
        raise TypeError('"%s" params must be strings, numbers, list or map.' % fn)
    text = str(value)
    if not allow_empty and not text:
        raise empty
    return text


def _str_replace(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if variant == "CfnReplace":
        if not is_list(args) or len(args) != 2:
            raise TypeError('Arguments to "%s" must be a list of the form [mapping, string]' % fn)
        mapping, string = args
    else:
        if not isinstance(args, Mapping):
            raise TypeError('Arguments to "%s" must be a map' % fn)
        try:
            mapping, string = args["params"], args["template"]
        except KeyError:
            raise KeyError('"%s" syntax should be %s' % (fn, _REPLACE_EXAMPLE % fn)) from None
    if not isinstance(mapping, Mapping):
        raise TypeError('"%s" parameters must be a mapping' % fn)
    template = ev(string, path)
    mapping = ev(mapping, path)
    if not isinstance(template, str):
        raise TypeError('"%s" template must be a string' % fn)
    if not isinstance(mapping, Mapping):
        raise TypeError('"%s" params must be a map' % fn)
    strict = variant in ("ReplaceJsonStrict", "ReplaceJsonVeryStrict")
    unreplaced = set(mapping)

    def replace(strings: list[str], keys: list[Any]) -> list[str]:
        if not keys:
            return strings
        placeholder = keys[0]
        if not isinstance(placeholder, str):
            raise TypeError('"%s" param placeholders must be strings' % fn)
        value = _replacement(fn, variant, mapping[placeholder], placeholder)
        joined = []
        for s in strings:
            pieces = s.split(placeholder)
            if len(pieces) > 1:
                unreplaced.discard(placeholder)
            joined.append(value.join(replace(pieces, keys[1:])))
        return joined

    keys = sorted(sorted(mapping, key=str), key=lambda k: len(str(k)), reverse=True)
    result = replace([template], keys)[0]
    if strict and unreplaced:
        raise ValueError(
            "The following params were not found in the template: %s"
            % ",".join(sorted(sorted(unreplaced), key=len, reverse=True))
        )
    return result


def _join_item(value: Any, multiple: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if multiple and isinstance(value, (Mapping, collections.abc.Sequence)):
        return json.dumps(value, sort_keys=True)
    if multiple:
        raise TypeError("Items to join must be string, map or list not %s" % repr(value)[:200])
    raise TypeError("Items to join must be strings not %s" % repr(value)[:200])


def _list_join(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    multiple = variant == "JoinMultiple"
    example = '"%s" : [ " ", [ "str1", "str2"]%s]' % (fn, " ..." if multiple else "")
    if not isinstance(args, list):
        raise TypeError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    if (multiple and len(args) < 2) or (not multiple and len(args) != 2):
        raise ValueError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    args = ev(args, path)
    delim, lists = args[0], args[1:]
    strings: list[Any] = []
    for each in lists:
        if each is None or (multiple and not each):
            continue
        if not is_list(each):
            raise TypeError('"%s" must operate on a list' % fn)
        strings += list(each)
    if not isinstance(delim, str):
        raise TypeError('"%s" delimiter must be a string' % fn)
    return delim.join(_join_item(s, multiple) for s in strings)


def _repeat(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not isinstance(args, Mapping):
        raise TypeError('Arguments to "%s" must be a map' % fn)
    if "for_each" not in args or "template" not in args:
        raise KeyError(
            '"repeat" syntax should be repeat:\n              template: This is %var%\n'
            "              for_each:\n                %var%: ['a', 'b', 'c']"
        )
    nested = args.get("permutations", True) if variant == "RepeatWithNestedLoop" else True
    if not isinstance(nested, bool):
        raise TypeError('"permutations" should be boolean type for %s function.' % fn)
    for_each = ev(args["for_each"], path)
    if not isinstance(for_each, Mapping):
        raise TypeError('The "for_each" argument to "%s" must contain a map' % fn)
    maps_allowed = variant in ("RepeatWithMap", "RepeatWithNestedLoop") and nested
    keys = list(for_each)
    values: list[list[Any]] = []
    lengths: list[int] = []
    for value in for_each.values():
        if value is None:
            values.append([])
            continue
        if not (is_list(value) or (maps_allowed and isinstance(value, Mapping))):
            kinds = "lists or maps" if maps_allowed else "lists"
            raise TypeError(
                'The values of the "for_each" argument to "%s" must be %s' % (fn, kinds)
            )
        values.append(list(value))
        lengths.append(len(value))
    if not nested and len(set(lengths)) > 1:
        raise ValueError(
            "For %s, the length of for_each values should be equal if no nested loop." % fn
        )
    template = ev(args["template"], path)

    def substitute(node: Any, replacements: tuple) -> Any:
        if isinstance(node, str):
            for key, value in zip(keys, replacements, strict=False):
                node = node.replace(key, value)
            return node
        if isinstance(node, Mapping):
            return {
                substitute(k, replacements): substitute(v, replacements) for k, v in node.items()
            }
        if is_list(node):
            return [substitute(v, replacements) for v in node]
        return node

    combos = itertools.product(*values) if nested else zip(*values, strict=False)
    return [substitute(template, combo) for combo in combos]


def _digest(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    args = ev(args, path)
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise TypeError('Argument to function "%s" must be a list of strings' % fn)
    if len(args) != 2:
        raise ValueError('Function "%s" usage: ["<algorithm>", "<value>"]' % fn)
    if args[0].lower() not in hashlib.algorithms_available:
        raise ValueError("Algorithm must be one of %s" % str(hashlib.algorithms_available))
    digest = hashlib.new(args[0])
    digest.update(args[1].encode("latin-1"))
    return digest.hexdigest()


def _str_split(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    example = '"%s" : [ ",", "apples,pears", <index>]' % fn
    if isinstance(args, (str, Mapping)):
        raise TypeError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    args = ev(args, path)
    if not isinstance(args, list) or len(args) < 2:
        raise ValueError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    delim, text = args[0], args[1]
    if text is None:
        return None
    pieces = text.split(delim)
    if len(args) < 3:
        return pieces
    try:
        index = int(args[2])
    except ValueError:
        raise ValueError('Incorrect index to "%s" should be: %s' % (fn, example)) from None
    try:
        return pieces[index]
    except IndexError:
        raise ValueError(
            'Incorrect index to "%s" should be between 0 and %s' % (fn, len(pieces) - 1)
        ) from None


def _map_merge(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    args = ev(args, path)
    if not isinstance(args, collections.abc.Sequence):
        raise TypeError(
            'Incorrect arguments to "%s" should be: "%s" : [ { "key1": "val1" }, '
            '{ "key2": "val2" } ]' % (fn, fn)
        )
    merged: dict[Any, Any] = {}
    for item in args:
        if item is None:
            continue
        if not isinstance(item, Mapping):
            raise TypeError(
                "Incorrect arguments: Items to merge must be maps. "
                "{} is type {} instead of a dict".format(repr(item)[:200], type(item))
            )
        merged.update(item)
    return merged


def _map_replace(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    example = (
        '"%s" : [ { "key1": "val1" }, {"keys": {"key1": "key2"}, "values": {"val1": "val2"}}]' % fn
    )
    args = ev(args, path)

    def ensure_map(m: Any) -> Mapping:
        if m is None:
            return {}
        if isinstance(m, Mapping):
            return m
        raise TypeError(
            'Incorrect arguments: to "%s", arguments must be a list of maps. Example:  %s'
            % (fn, example)
        )

    if not isinstance(args, list) or len(args) != 2:
        raise TypeError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    in_map, repl_map = ensure_map(args[0]), ensure_map(args[1])
    if any(k not in ("keys", "values") for k in repl_map):
        raise ValueError('Incorrect arguments to "%s" should be: %s' % (fn, example))
    keys = ensure_map(repl_map.get("keys", {}))
    values = ensure_map(repl_map.get("values", {}))
    result: dict[Any, Any] = {}
    for k, v in in_map.items():
        key = keys.get(k)
        if key is None:
            key = k
        elif key in in_map and key != k:
            raise ValueError("key replacement %s collides with a key in the input map" % key)
        elif key in result:
            raise ValueError("key replacement %s collides with a key in the output map" % key)
        try:
            result[key] = values.get(v, v)
        except TypeError:
            result[key] = v
    return result


def _filter(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not is_list(args):
        raise TypeError('Argument to "%s" must be a list' % fn)
    if len(args) != 2:
        raise ValueError(
            '"%s" expected 2 arguments of the form [values, sequence] but got %d arguments '
            "instead" % (fn, len(args))
        )
    sequence = ev(args[1], path)
    if not sequence:
        return sequence
    if not isinstance(sequence, list):
        raise TypeError('"%s" only works with lists' % fn)
    values = ev(args[0], path)
    if not values:
        return sequence
    if not isinstance(values, list):
        raise TypeError('"%s" filters a list of values' % fn)
    return [item for item in sequence if item not in values]


_URL_KEYS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


def _make_url(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not isinstance(args, Mapping):
        raise TypeError('The arguments to "%s" must be a map' % fn)
    invalid = set(args) - set(_URL_KEYS)
    if invalid:
        raise ValueError('Invalid arguments to "%s": %s' % (fn, ", ".join(sorted(invalid))))
    args = ev(args, path)
    for key in _URL_KEYS:
        if key not in args:
            continue
        if key == "query":
            if not isinstance(args[key], Mapping):
                raise TypeError('The "%s" argument to "%s" must be a map' % (key, fn))
        elif key == "port":
            port = args[key]
            try:
                port = int(port)
            except ValueError:
                raise ValueError(
                    'Invalid URL port "%s" for %s called with %s' % (port, fn, args)
                ) from None
            if not 0 < port <= 65535:
                raise ValueError("Invalid URL port %d, must be in range 1-65535" % port)
        elif not isinstance(args[key], str):
            raise TypeError('The "%s" argument to "%s" must be a string' % (key, fn))
    scheme = args.get("scheme", "")
    if ":" in scheme:
        raise ValueError("URL \"scheme\" should not contain ':'")
    netloc = ""
    username = urlparse.quote(args.get("username", ""), safe="")
    password = urlparse.quote(args.get("password", ""), safe="")
    if username or password:
        netloc = username + (":" + password if password else "") + "@"
    host = args.get("host", "")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    host = urlparse.quote(host, safe=":")
    netloc += "[%s]" % host if ":" in host else host
    if args.get("port", ""):
        netloc += ":%s" % args["port"]
    query = urlparse.urlencode(args.get("query", {})).replace("%2F", "/")
    return urlparse.urlunsplit(
        (
            scheme,
            netloc,
            urlparse.quote(args.get("path", "")),
            query,
            urlparse.quote(args.get("fragment", "")),
        )
    )


def _list_concat(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    args = ev(args, path)
    if not is_list(args):
        raise TypeError(
            'Incorrect arguments to "%s" should be: "%s" : [ [ <value 1>, <value 2> ], '
            "[ <value 3>, <value 4> ] ]" % (fn, fn)
        )
    items: list[Any] = []
    for each in args:
        if each is None:
            continue
        if not is_list(each):
            raise TypeError(
                "Incorrect arguments: Items to concat must be lists. %s contains an item "
                "that is not a list: %s" % (json.dumps(args), json.dumps(each))
            )
        items.extend(each)
    if variant != "ListConcatUnique":
        return items
    unique: list[Any] = []
    for item in items:
        if item not in unique:
            unique.append(item)
    return unique


def _contains(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not args or not isinstance(args, list):
        raise TypeError(
            'Incorrect arguments to "%s" should be: "%s" : [ "value1", [ "value1", "value2"]]'
            % (fn, fn)
        )
    if len(args) != 2:
        raise ValueError('Arguments to "%s" must be of the form: [value1, [value1, value2]]' % fn)
    value, sequence = ev(args[0], path), ev(args[1], path)
    if not isinstance(sequence, collections.abc.Sequence):
        raise TypeError('Second argument to "%s" should be a sequence.' % fn)
    return value in sequence


def _equals(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not args or not isinstance(args, list) or len(args) != 2:
        raise ValueError('Arguments to "%s" must be of the form: [value_1, value_2]' % fn)
    return ev(args[0], path) == ev(args[1], path)


def _not(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if args is None:
        raise ValueError('Argument to "%s" must be a condition' % fn)
    return not ev.condition(ev(args, path))


def _and_or(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not is_list(args):
        raise ValueError('Arguments to "%s" must be a list of conditions' % fn)
    if len(args) < 2:
        raise ValueError('The minimum number of condition arguments to "%s" is 2.' % fn)
    values = (ev.condition(ev(a, path)) for a in args)
    return all(values) if variant == "And" else any(values)


def _if(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    condition, if_true, if_false = if_arguments(fn, variant, args)
    chosen = if_true if ev.condition(condition) else if_false
    return None if chosen is Ellipsis else ev(chosen, path)


def if_arguments(fn: str, variant: str, args: Any) -> tuple[Any, Any, Any]:
    """``if``'s (condition, value_if_true, value_if_false); Ellipsis for a
    2021-04-16 ``if`` without a false value."""
    if is_list(args) and variant == "IfNullable" and len(args) == 2:
        return args[0], args[1], Ellipsis
    if not args or not is_list(args) or len(args) != 3:
        raise ValueError(
            'Arguments to "%s" must be of the form: '
            "[condition_name, value_if_true, value_if_false]" % fn
        )
    return args[0], args[1], args[2]


def _invalid(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    raise ValueError('The function "%s" is invalid in this context' % fn)


def _yaql(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    raise ValueError('The function "%s" is not supported by the local cloud' % fn)


def _resource_facade(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    allowed = ("metadata", "deletion_policy", "update_policy")
    if args not in allowed:
        raise ValueError(
            'Incorrect arguments to "%s" should be one of: %s' % (fn, ", ".join(allowed))
        )
    facade = getattr(ev.need(), "resource_facade", None)
    if facade is None:
        raise ValueError('The function "%s" is only valid in a template resource' % fn)
    return facade(args)


def _ref(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    name = ev(args, path)
    resolver = ev.need()
    if name in resolver.resource_names():
        return resolver.resource_ref(name)
    return _get_param(ev, fn, variant, name, path)


def _get_azs(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    return ["nova"]


def _select(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    if not is_list(args) or len(args) != 2:
        raise ValueError('Arguments to "%s" must be of the form [index, collection]' % fn)
    index, strings = ev(args[0], path), ev(args[1], path)
    if strings == "":
        return ""
    if isinstance(strings, str):
        try:
            strings = json.loads(strings)
        except ValueError as exc:
            raise ValueError('"%s": %s' % (fn, exc)) from None
    if isinstance(strings, Mapping):
        if not isinstance(index, str):
            raise TypeError('Index to "%s" must be a string' % fn)
        return strings.get(index, "")
    try:
        index = int(index)
    except (ValueError, TypeError):
        pass
    if is_list(strings):
        if not isinstance(index, int):
            raise TypeError('Index to "%s" must be an integer' % fn)
        try:
            return strings[index]
        except IndexError:
            return ""
    if strings is None:
        return ""
    raise TypeError("Arguments to %s not fully resolved" % fn)


def _split(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    args = ev(args, path)
    if not is_list(args) or len(args) != 2:
        raise ValueError(
            'Incorrect arguments to "%s" should be: "%s" : [ ",", "str1,str2"]]' % (fn, fn)
        )
    delim, text = args
    if not isinstance(text, str):
        raise TypeError(
            'Incorrect arguments to "%s" should be: "%s" : [ ",", "str1,str2"]]' % (fn, fn)
        )
    return text.split(delim)


def _base64(ev: "Evaluating", fn: str, variant: str, args: Any, path: str) -> Any:
    value = ev(args, path)
    if not isinstance(value, str):
        raise TypeError('"%s" argument must be a string' % fn)
    return value


IMPLEMENTATIONS: dict[str, Callable[["Evaluating", str, str, Any, str], Any]] = {
    "GetParam": _get_param,
    "GetResource": _get_resource,
    "GetAtt": _get_attr,
    "GetFile": _get_file,
    "Replace": _str_replace,
    "CfnReplace": _str_replace,
    "Join": _list_join,
    "CfnJoin": _list_join,
    "Repeat": _repeat,
    "Digest": _digest,
    "StrSplit": _str_split,
    "MapMerge": _map_merge,
    "MapReplace": _map_replace,
    "Filter": _filter,
    "MakeURL": _make_url,
    "ListConcat": _list_concat,
    "Contains": _contains,
    "Equals": _equals,
    "Not": _not,
    "And": _and_or,
    "Or": _and_or,
    "If": _if,
    "Invalid": _invalid,
    "Yaql": _yaql,
    "ResourceFacade": _resource_facade,
    "Ref": _ref,
    "GetAZs": _get_azs,
    "Select": _select,
    "Split": _split,
    "Base64": _base64,
    "MemberListToMap": _yaql,
}
