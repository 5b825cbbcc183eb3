"""HOT intrinsic functions, per template version (Heat's ``heat/engine/hot/functions.py``).

:func:`resolve` evaluates every function of a snippet with the table of
its ``heat_template_version`` (:data:`TABLES`, as Heat's
``heat/engine/hot/template.py`` HOTemplate20130523 … HOTemplate20210416
declare them): a one-key map whose key is a function of that version is a
call, any other map is data. Values come from a :class:`Resolver` (the
engine's stack). A function given arguments of the wrong shape is refused
with Heat's text prefixed by its path (``resources.r.properties.name.
str_replace: …``), as ``StackValidationFailed``; a function a later
version removed is Heat's ``InvalidTemplateVersion``.

``if`` needs the template's conditions: :class:`~.template.Template`
expands it (and drops what a 2021-04-16 ``if`` without a false branch
leaves out) when it builds resource and output definitions, so
:func:`resolve` only meets it when given ``conditions``. ``yaql`` is listed
as Heat lists it but not evaluated (the local cloud ships no yaql);
``resource_facade`` only where the resolver offers it (template resources).
"""

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import Protocol

from occli.localcloud.orchestration.engine.functions_hot import IMPLEMENTATIONS
from occli.localcloud.orchestration.engine.functions_hot import Invalid
from occli.localcloud.orchestration.engine.functions_hot import ResultError
from occli.localcloud.orchestration.engine.functions_hot import failure
from occli.localcloud.orchestration.engine.functions_hot import if_arguments
from occli.localcloud.orchestration.engine.functions_hot import implementation
from occli.localcloud.orchestration.engine.functions_hot import is_list
from occli.localcloud.orchestration.engine.functions_hot import removed

__all__ = ["Evaluator", "Resolver", "ResultError", "if_arguments", "resolve", "references"]


class Resolver(Protocol):
    """Where function values come from (the engine's ``Stack``)."""

    @property
    def stack_name(self) -> str: ...

    @property
    def stack_id(self) -> str: ...

    @property
    def project_id(self) -> str: ...

    def param(self, name: str) -> Any:
        """A parameter's typed value (pseudo parameters included)."""

    def resource_ref(self, name: str) -> str:
        """``get_resource``: the resource's reference id."""

    def resource_attr(self, name: str, attr: str, path: list) -> Any:
        """``get_attr``: an attribute with ``path`` selected (None while
        the resource is not created)."""

    def file(self, key: str) -> str:
        """``get_file``: the content of ``files[key]``."""

    def resource_names(self) -> set[str]:
        """The names of the stack's (enabled) resources."""


# The official versions and Heat's release-name aliases (heat's setup.cfg).
VERSIONS = (
    "2013-05-23",
    "2014-10-16",
    "2015-04-30",
    "2015-10-15",
    "2016-04-08",
    "2016-10-14",
    "2017-02-24",
    "2017-09-01",
    "2018-03-02",
    "2018-08-31",
    "2021-04-16",
)
ALIASES = {
    "newton": "2016-10-14",
    "ocata": "2017-02-24",
    "pike": "2017-09-01",
    "queens": "2018-03-02",
    "rocky": "2018-08-31",
    "wallaby": "2021-04-16",
}

# Heat's function classes' one-line docstrings (GET …/functions shows them)
DESCRIPTIONS = {
    "GetParam": "A function for resolving parameter references.",
    "GetResource": "A function for resolving resource references.",
    "GetAtt": "A function for resolving resource attributes.",
    "Replace": "A function for performing string substitutions.",
    "GetFile": "A function for including a file inline.",
    "Join": "A function for joining strings.",
    "JoinMultiple": "A function for joining one or more lists of strings.",
    "MapMerge": "A function for merging maps.",
    "MapReplace": "A function for performing substitutions on maps.",
    "ResourceFacade": "A function for retrieving data in a parent provider template.",
    "Repeat": "A function for iterating over a list of items.",
    "RepeatWithMap": "A function for iterating over a list of items or a dict of keys.",
    "RepeatWithNestedLoop": "A function for iterating over a list of items or a dict of keys.",
    "Digest": "A function for performing digest operations.",
    "StrSplit": "A function for splitting delimited strings into a list.",
    "Yaql": "A function for executing a yaql expression.",
    "Equals": "A function for comparing whether two values are equal.",
    "If": "A function to return corresponding value based on condition evaluation.",
    "Not": "A function that acts as a NOT operator on a condition.",
    "And": "A function that acts as an AND operator on conditions.",
    "Or": "A function that acts as an OR operator on conditions.",
    "Filter": "A function for filtering out values from lists.",
    # sic: heat's MakeURL docstring
    "MakeURL": "A function for performing substitutions on maps.",
    "ListConcat": "A function for extending lists.",
    "ListConcatUnique": "A function for extending lists with unique items.",
    "Contains": "A function for checking whether specific value is in sequence.",
    "Ref": "A function for resolving parameters or resource references.",
    "GetAZs": "A function for retrieving the availability zones.",
    "Select": "A function for selecting an item from a list or map.",
    "Split": "A function for splitting strings.",
    "Base64": "A placeholder function for converting to base64.",
    "MemberListToMap": "A function to convert lists with enumerated keys and values to mapping.",
}
REMOVED = "Removed"
_CFN_REMOVED = (
    "Fn::GetAZs",
    "Fn::Join",
    "Fn::Split",
    "Fn::Replace",
    "Fn::Base64",
    "Fn::MemberListToMap",
    "Fn::ResourceFacade",
    "Ref",
)


def _tables() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Each version's functions and condition functions: name → variant
    (a key of :data:`DESCRIPTIONS` or ``Removed``), as Heat declares them."""
    t: dict[str, dict[str, str]] = {}
    c: dict[str, dict[str, str]] = {}
    t["2013-05-23"] = {
        "Fn::GetAZs": "GetAZs",
        "get_param": "GetParam",
        "get_resource": "GetResource",
        "Ref": "Ref",
        "get_attr": "GetAttThenSelect",
        "Fn::Select": "Select",
        "Fn::Join": "CfnJoin",
        "list_join": "Join",
        "Fn::Split": "Split",
        "str_replace": "Replace",
        "Fn::Replace": "CfnReplace",
        "Fn::Base64": "Base64",
        "Fn::MemberListToMap": "MemberListToMap",
        "resource_facade": "ResourceFacade",
        "Fn::ResourceFacade": "ResourceFacade",
        "get_file": "GetFile",
    }
    base = {
        "get_attr": "GetAtt",
        "get_file": "GetFile",
        "get_param": "GetParam",
        "get_resource": "GetResource",
        "list_join": "Join",
        "resource_facade": "ResourceFacade",
        "str_replace": "Replace",
        "Fn::Select": "Select",
        **dict.fromkeys(_CFN_REMOVED, REMOVED),
    }
    t["2014-10-16"] = dict(base)
    base.update(repeat="Repeat", digest="Digest")
    t["2015-04-30"] = dict(base)
    base.update(
        get_attr="GetAttAllAttributes",
        list_join="JoinMultiple",
        str_replace="ReplaceJson",
        str_split="StrSplit",
    )
    base["Fn::Select"] = REMOVED
    t["2015-10-15"] = dict(base)
    base.update(map_merge="MapMerge")
    t["2016-04-08"] = dict(base)
    base.update(repeat="RepeatWithMap", yaql="Yaql", map_replace="MapReplace")
    base["if"] = "If"
    t["2016-10-14"] = dict(base)
    cond = {"get_param": "GetParam", "equals": "Equals", "not": "Not", "and": "And", "or": "Or"}
    c["2016-10-14"] = dict(cond)
    base.update(filter="Filter", str_replace_strict="ReplaceJsonStrict")
    t["2017-02-24"] = dict(base)
    c["2017-02-24"] = dict(cond)
    base.update(
        repeat="RepeatWithNestedLoop",
        make_url="MakeURL",
        list_concat="ListConcat",
        str_replace_vstrict="ReplaceJsonVeryStrict",
        list_concat_unique="ListConcatUnique",
        contains="Contains",
    )
    cond.update(yaql="Yaql", contains="Contains")
    for version in ("2017-09-01", "2018-03-02", "2018-08-31"):
        t[version] = dict(base)
        c[version] = dict(cond)
    base["if"] = "IfNullable"
    t["2021-04-16"] = dict(base)
    c["2021-04-16"] = dict(cond)
    for version in VERSIONS[:5]:
        c[version] = {}
    for version in VERSIONS[1:]:
        t[version] = {name: t[version][name] for name in _ORDER if name in t[version]}
    return t, c


# the order of the names in Heat's tables from 2014-10-16 on (what GET
# …/functions lists them in)
_ORDER = (
    "get_attr",
    "get_file",
    "get_param",
    "get_resource",
    "list_join",
    "repeat",
    "resource_facade",
    "str_replace",
    "Fn::Select",
    "digest",
    "str_split",
    "map_merge",
    "yaql",
    "map_replace",
    "if",
    "filter",
    "str_replace_strict",
    "make_url",
    "list_concat",
    "str_replace_vstrict",
    "list_concat_unique",
    "contains",
    *_CFN_REMOVED,
)


TABLES, CONDITION_TABLES = _tables()


def canonical(version: str) -> str:
    """The dated version of ``version`` (an alias such as ``rocky``)."""
    return ALIASES.get(version, version)


def description(variant: str) -> str:
    """The one-line description Heat lists for a function variant."""
    for prefix in sorted(DESCRIPTIONS, key=len, reverse=True):
        if variant == prefix or variant.startswith(prefix):
            return DESCRIPTIONS[prefix]
    return DESCRIPTIONS.get(variant.replace("Cfn", ""), "")


class Evaluator:
    """One evaluation: the resolver, the version's table and, for ``if``
    and the condition functions, ``conditions(name_or_bool) -> bool``."""

    def __init__(
        self,
        resolver: Resolver | None,
        version: str,
        conditions: Callable[[Any], bool] | None = None,
        condition_mode: bool = False,
    ) -> None:
        self.resolver = resolver
        self.version = canonical(version)
        self.table = TABLES[self.version]
        self.conditions = conditions
        if condition_mode:
            # every other function is refused in a condition (function.Invalid)
            conds = CONDITION_TABLES[self.version]
            self.table = {n: ("Invalid" if v != REMOVED else v) for n, v in self.table.items()}
            self.table.update(conds)

    def function(self, snippet: Any) -> tuple[str, Any] | None:
        """``(name, args)`` if ``snippet`` is a call of this version."""
        if isinstance(snippet, Mapping) and len(snippet) == 1:
            name, args = next(iter(snippet.items()))
            if name in self.table:
                return name, args
        return None

    def __call__(self, snippet: Any, path: str = "") -> Any:
        call = self.function(snippet)
        if call is not None:
            name, args = call
            fn_path = "%s.%s" % (path, name)
            variant = self.table[name]
            if variant == REMOVED:
                raise removed(name)
            try:
                return IMPLEMENTATIONS[implementation(variant)](self, name, variant, args, fn_path)
            except ResultError:
                raise
            except (ValueError, TypeError, KeyError, Invalid) as exc:
                raise failure(fn_path, str(exc)) from None
        if isinstance(snippet, Mapping):
            return {k: self(v, "%s.%s" % (path, k)) for k, v in snippet.items()}
        if is_list(snippet):
            return [self(v, "%s[%d]" % (path, i)) for i, v in enumerate(snippet)]
        return snippet

    def need(self) -> Resolver:
        if self.resolver is None:
            raise Invalid("No stack definition in Function")
        return self.resolver

    def condition(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if self.conditions is None:
            raise Invalid('Invalid condition "%s"' % (value,))
        return self.conditions(value)


def resolve(
    snippet: Any,
    resolver: Resolver | None,
    version: str,
    path: str = "",
    conditions: Callable[[Any], bool] | None = None,
) -> Any:
    """``snippet`` with every intrinsic function of ``version`` evaluated;
    ``path`` prefixes error texts (``resources.<name>.properties``)."""
    return Evaluator(resolver, version, conditions)(snippet, path)


def resolve_condition(
    snippet: Any, resolver: Resolver | None, version: str, path: str, conditions: Callable
) -> Any:
    """A condition definition evaluated with the condition functions only."""
    return Evaluator(resolver, version, conditions, condition_mode=True)(snippet, path)


def references(snippet: Any, version: str) -> set[str]:
    """The resource names ``snippet`` names in ``get_resource`` and
    ``get_attr`` (literal names; both branches of an ``if``)."""
    table = TABLES[canonical(version)]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if len(node) == 1:
                name, args = next(iter(node.items()))
                kind = table.get(name, "")
                if kind == "GetResource" and isinstance(args, str):
                    found.add(args)
                elif (
                    kind.startswith("GetAtt")
                    and is_list(args)
                    and args
                    and isinstance(args[0], str)
                ):
                    found.add(args[0])
            for value in node.values():
                walk(value)
        elif is_list(node):
            for value in node:
                walk(value)

    walk(snippet)
    return found


def reference_paths(snippet: Any, version: str, path: str) -> list[tuple[str, str]]:
    """``(resource name, where)`` of each literal ``get_resource`` and
    ``get_attr`` in ``snippet``, in Heat's order and with its paths
    (``function.dependencies``: ``r.Properties.value``, a function's own
    arguments under ``….<function>``), for ``InvalidTemplateReference``."""
    table = TABLES[canonical(version)]
    found: list[tuple[str, str]] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, Mapping):
            if len(node) == 1:
                name, args = next(iter(node.items()))
                kind = table.get(name)
                if kind is not None and kind != REMOVED:
                    walk(args, "%s.%s" % (where, name))
                    target = args if kind == "GetResource" else None
                    if kind.startswith("GetAtt") and is_list(args) and args:
                        target = args[0]
                    if isinstance(target, str):
                        found.append((target, where))
                    return
            for key, value in node.items():
                walk(value, "%s.%s" % (where, key))
        elif is_list(node):
            for index, value in enumerate(node):
                walk(value, "%s[%d]" % (where, index))

    walk(snippet, path)
    return found


def validate(
    snippet: Any, version: str, path: str, attribute_declared: Callable[[str, str], bool]
) -> None:
    """Heat's ``function.validate`` of a definition before anything is made:
    a literal ``get_attr`` naming an attribute its resource does not declare
    is refused (``attribute_declared(resource, attribute)`` says; Heat's
    ``GetAtt.validate``), as ``StackValidationFailed`` at the function's
    path (``outputs.o.value.get_attr: The Referenced Attribute (r nope) is
    incorrect.``); a function's own arguments are checked first, their
    failure's text becoming the message (Heat's ``Function.validate``)."""
    message = _invalid_function(snippet, TABLES[canonical(version)], attribute_declared)
    if message is not None:
        where, text = message
        raise failure(_join(path, where), text)


def _invalid_function(
    node: Any, table: Mapping[str, str], declared: Callable[[str, str], bool]
) -> tuple[str, str] | None:
    """``(path inside node, text)`` of the first invalid function."""
    if isinstance(node, Mapping):
        if len(node) == 1:
            name, args = next(iter(node.items()))
            kind = table.get(name)
            if kind is not None and kind != REMOVED:
                inner = _invalid_function(args, table, declared)
                if inner is not None:
                    return name, "%s: %s" % inner if inner[0] else inner[1]
                if kind.startswith("GetAtt") and is_list(args) and len(args) > 1:
                    resource, attr = args[0], args[1]
                    literal = isinstance(resource, str) and isinstance(attr, str)
                    if literal and not declared(resource, attr):
                        return name, "The Referenced Attribute (%s %s) is incorrect." % (
                            resource,
                            attr,
                        )
                return None
        items: Any = node.items()
    elif is_list(node):
        items = (("[%d]" % i, v) for i, v in enumerate(node))
    else:
        return None
    for key, value in items:
        found = _invalid_function(value, table, declared)
        if found is not None:
            return _join(str(key), found[0]), found[1]
    return None


def _join(path: str, where: str) -> str:
    """``path`` then ``where`` as Heat joins error paths (``a.b``, ``a[0]``)."""
    if not where or not path:
        return path or where
    return path + where if where.startswith("[") else "%s.%s" % (path, where)


def attribute_references(snippet: Any, version: str) -> set[tuple[str, str]]:
    """``(resource, attribute)`` of each literal ``get_attr`` (to check the
    attributes exist before a stack is created)."""
    table = TABLES[canonical(version)]
    found: set[tuple[str, str]] = set()

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if len(node) == 1:
                name, args = next(iter(node.items()))
                is_get_attr = table.get(name, "").startswith("GetAtt")
                literal = is_list(args) and len(args) > 1 and isinstance(args[0], str)
                if is_get_attr and literal and isinstance(args[1], str):
                    found.add((args[0], args[1]))
            for value in node.values():
                walk(value)
        elif is_list(node):
            for value in node:
                walk(value)

    walk(snippet)
    return found


def check_removed(snippet: Any, version: str, path: str = "") -> None:
    """Refuse a function ``version`` removed (Heat's ``Removed.validate``)."""
    table = TABLES[canonical(version)]
    if isinstance(snippet, Mapping):
        if len(snippet) == 1:
            name = next(iter(snippet))
            if table.get(name) == REMOVED:
                raise removed(name)
        for value in snippet.values():
            check_removed(value, version)
    elif is_list(snippet):
        for value in snippet:
            check_removed(value, version)
