"""The SDK ships its types: ``py.typed``, and annotations on the typed SDK
(the core — ``occli.client``, ``exceptions``, ``api_versions``, ``config``,
``base``, ``transport``… — and every module of ``occli.v2``'s service packages) that
resolve to real classes.

Names a module imports only for type checkers (``if TYPE_CHECKING:``, so
that ``import occli.client`` stays free of keystoneauth1) are given to
``typing.get_type_hints`` as a type checker sees them: the block is run.
"""

import ast
import configparser
import importlib
import importlib.resources
import inspect
import pathlib
import pkgutil
import pydoc
import typing

import pytest

import occli
import occli.v2
from occli import client as client_module

ROOT = pathlib.Path(__file__).parents[2]
SERVICES = (
    "block_storage",
    "compute",
    "identity",
    "image",
    "network",
    "object_store",
    "orchestration",
)
TYPED = [
    "occli.client",
    "occli.exceptions",
    "occli.api_versions",
    "occli.config",
    "occli.clouds_yaml",
    "occli.profiles",
    "occli.base",
    "occli.transport",
    "occli.waiters",
    "occli.v2",
] + sorted(
    # every module of the service packages but their commands
    info.name
    for info in pkgutil.walk_packages(occli.v2.__path__, "occli.v2.")
    if ".commands" not in info.name
)


def type_checking_names(module):
    """What the ``if TYPE_CHECKING:`` block of ``module`` imports."""
    tree = ast.parse(inspect.getsource(module))
    names = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            block = ast.Module(body=node.body, type_ignores=[])
            exec(compile(block, module.__file__, "exec"), names)  # noqa: S102 - imports only
    names.pop("__builtins__", None)
    return names


def functions(module):
    """Every function and method defined in ``module``."""
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            yield value
        elif inspect.isclass(value):
            for attr in vars(value).values():
                attr = getattr(attr, "__func__", attr)  # classmethods
                if isinstance(attr, property):
                    attr = attr.fget
                if inspect.isfunction(attr) and attr.__module__ == module.__name__:
                    yield attr  # not the methods functools.total_ordering adds


def test_the_package_declares_its_types():
    assert importlib.resources.files("occli").joinpath("py.typed").is_file()
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    assert "py.typed" in setup["options.package_data"]["occli"].split()


def test_client_init_is_annotated_with_real_types():
    signature = inspect.signature(occli.Client.__init__)
    params = [p for name, p in signature.parameters.items() if name != "self"]
    assert params and all(p.annotation is not inspect.Parameter.empty for p in params)
    assert signature.return_annotation is not inspect.Signature.empty
    from keystoneauth1 import session

    hints = typing.get_type_hints(
        occli.Client.__init__, localns=type_checking_names(client_module)
    )
    assert set(hints) == {p.name for p in params} | {"return"}
    assert hints["session"] == session.Session | None
    assert hints["retries"] is int


def test_help_shows_the_client_signature():
    text = pydoc.render_doc(occli.Client, renderer=pydoc.plaintext)
    assert "__init__(self, version: 'str | api_versions.APIVersion | ks_session" in text
    assert "auth_url: str | None = None, *, session: 'ks_session.Session | None'" in text
    assert "retries: int = 2" in text


def test_the_typed_sdk_has_every_service_package():
    for service in SERVICES:
        assert "occli.v2.%s.base" % service in TYPED
        assert any(list(functions(importlib.import_module(n))) for n in TYPED if service in n)


@pytest.mark.parametrize("name", TYPED)
def test_every_function_of_the_typed_core_resolves(name):
    module = importlib.import_module(name)
    names = type_checking_names(module)
    # a package's __init__ or a base module may define no function
    for func in functions(module):
        hints = typing.get_type_hints(func, localns=names)
        params = [p for p in inspect.signature(func).parameters if p not in ("self", "cls")]
        assert set(params) <= set(hints), func.__qualname__
        assert "return" in hints, func.__qualname__


def test_each_builtin_manager_is_typed_as_the_class_it_builds():
    hints = typing.get_type_hints(occli.Client, localns=type_checking_names(client_module))
    paths = occli.Client.builtin_managers()
    assert paths
    for attribute, path in paths.items():
        module, _, cls = path.partition(":")
        (typed,) = typing.get_args(hints[attribute])
        assert typed is getattr(importlib.import_module(module), cls), attribute
