"""resources.initialise(): the global environment loaded as Heat loads it.

Built-in modules, then plugin directories (tests/fixtures/heat/plugins: good
modules, broken ones, a subpackage), then the entry-point group (a
dist-info on sys.path in tmp_path, read by importlib.metadata as an
installed distribution would be), then the global environment directory
(tests/fixtures/heat/environment.d).
"""

import importlib
import logging
import os
import pkgutil
import sys
import uuid

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import plugin_manager
from occli.localcloud.orchestration.engine import resources
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resource import Resource

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "fixtures", "heat")
PLUGINS = os.path.abspath(os.path.join(FIXTURES, "plugins"))
ENV_DIR = os.path.abspath(os.path.join(FIXTURES, "environment.d"))
WITH_SERVICE = {"test-service"}.__contains__


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Each test loads its own global environment (nothing cached)."""
    monkeypatch.setattr(resources, "_cache", {})
    monkeypatch.setattr(resources, "_environment", None)
    monkeypatch.setattr(resources, "_clients_available", None)
    monkeypatch.setattr(environment, "_default_global", None)


def _builtin_types():
    """The types the built-in modules map (the oracle: each module's own
    available_resource_mapping(), else resource_mapping())."""
    package = importlib.import_module(resources.__name__)
    expected = {}
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name in ("available_resource_mapping", "resource_mapping"):
            function = getattr(module, name, None)
            if callable(function):
                mapping = function()
                if mapping is not None:
                    expected.update(mapping)
                    break
    return expected


def test_builtin_modules_are_loaded_with_their_classes():
    env = resources.initialise()
    expected = _builtin_types()
    for type_name, cls in expected.items():
        assert env.find_class(type_name) is cls
    # HIDDEN types (Heat's former names) are found but not listed
    listed = {
        n
        for n, c in expected.items()
        if support.status_of(getattr(c, "support_status", "")) != support.HIDDEN
    }
    assert listed <= set(env.get_types())
    assert "OS::Heat::SoftwareDeployments" in expected
    assert "OS::Heat::SoftwareDeployments" not in env.get_types()


def test_plugin_directory_types_are_registered():
    env = resources.initialise(plugin_dirs=[PLUGINS], clients_available=WITH_SERVICE)
    thing = env.find_class("Test::Plugin::Thing")
    assert thing.__name__ == "Thing" and issubclass(thing, Resource)
    # imported under the private plugins package, not as top-level modules
    assert thing.__module__.startswith(plugin_manager.PLUGINS_PACKAGE + ".p")
    assert "thing" not in sys.modules
    # a subpackage is walked, and its modules import their siblings
    assert env.find_class("Test::Plugin::Deep").__name__ == "Deep"
    types = env.get_types()
    assert {"Test::Plugin::Thing", "Test::Plugin::Deep", "Test::Plugin::Fine"} <= set(types)


def test_available_resource_mapping_is_preferred_and_may_ask_for_services():
    env = resources.initialise(plugin_dirs=[PLUGINS], clients_available=WITH_SERVICE)
    assert "Test::Plugin::Available" in env.get_types()
    # resource_mapping() is not read when available_resource_mapping() exists
    assert "Test::Plugin::Ignored" not in env.get_types()
    without = resources.initialise(plugin_dirs=[PLUGINS], clients_available=lambda s: False)
    assert "Test::Plugin::Available" not in without.get_types()
    assert "Test::Plugin::Ignored" not in without.get_types()


def test_types_whose_service_is_missing_are_not_listed():
    env = resources.initialise(plugin_dirs=[PLUGINS], clients_available=WITH_SERVICE)
    assert "Test::Plugin::NeedsService" in env.get_types()
    without = resources.initialise(plugin_dirs=[PLUGINS], clients_available=lambda s: False)
    assert "Test::Plugin::NeedsService" not in without.get_types()
    assert "Test::Plugin::Thing" in without.get_types()


def test_broken_plugins_are_logged_with_their_file_and_skipped(caplog):
    caplog.set_level(logging.WARNING, logger=plugin_manager.__name__)
    caplog.set_level(logging.WARNING, logger=resources.__name__)
    env = resources.initialise(plugin_dirs=[PLUGINS])
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    broken_import = [w for w in warnings if "broken_import" in w]
    assert broken_import and os.path.join(PLUGINS, "broken_import.py") in broken_import[0]
    assert "RuntimeError: this plugin is broken" in broken_import[0]
    broken_mapping = [w for w in warnings if "broken_mapping" in w]
    assert broken_mapping and os.path.join(PLUGINS, "broken_mapping.py") in broken_mapping[0]
    assert "KeyError" in broken_mapping[0]
    not_a_class = [w for w in warnings if "Test::Plugin::NotAClass" in w]
    assert not_a_class and "not_a_class.py" in not_a_class[0]
    # the rest of the directory, and of the same module, still loads
    assert "Test::Plugin::NotAClass" not in env.get_types()
    assert "Test::Plugin::Fine" in env.get_types()
    assert "Test::Plugin::Thing" in env.get_types()


def test_a_broken_builtin_module_is_an_error(monkeypatch, tmp_path):
    # the same loader, for a package that is not a plugin directory
    package = tmp_path / ("occli_test_builtin_%s" % uuid.uuid4().hex[:8])
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text("raise RuntimeError('built-in bug')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RuntimeError, match="built-in bug"):
        plugin_manager.PluginManager(package.name)


def test_plugin_constraints_are_registered():
    env = resources.initialise(plugin_dirs=[PLUGINS])
    checker = env.get_constraint("test.even")
    checker(4, None)
    with pytest.raises(ValueError, match="5 is odd"):
        checker(5, None)
    # a user environment sees the global environment's constraints
    assert environment.Environment({}, global_env=env).get_constraint("test.even") is checker


def test_directories_with_modules_of_the_same_name_do_not_share_them(tmp_path):
    for name, type_name in (("one", "Test::Same::One"), ("two", "Test::Same::Two")):
        directory = tmp_path / name
        directory.mkdir()
        (directory / "same.py").write_text(
            "from occli.localcloud.orchestration.engine import resource\n"
            "class Same(resource.Resource):\n    pass\n"
            "def resource_mapping():\n    return {%r: Same}\n" % type_name
        )
    first = resources.initialise(plugin_dirs=[str(tmp_path / "one")])
    second = resources.initialise(plugin_dirs=[str(tmp_path / "two")])
    assert "Test::Same::One" in first.get_types() and "Test::Same::Two" not in first.get_types()
    assert "Test::Same::Two" in second.get_types() and "Test::Same::One" not in second.get_types()


def _install_entry_points(tmp_path, monkeypatch, lines):
    """A distribution on sys.path whose entry_points.txt has ``lines`` in
    the resources group, and its module; the module's name."""
    module = "occli_test_heat_ep_%s" % uuid.uuid4().hex[:8]
    site = tmp_path / "site"
    site.mkdir()
    (site / (module + ".py")).write_text(
        "from occli.localcloud.orchestration.engine import resource\n"
        "class EPThing(resource.Resource):\n"
        '    """Installed with pip."""\n'
        "class EPOther(resource.Resource):\n    pass\n"
        "def resource_mapping():\n"
        "    return {'Test::EP::FromModule': EPOther}\n"
        "def mapping():\n"
        "    return {'Test::EP::FromCallable': EPOther, 'Test::Plugin::Thing': EPThing}\n"
        "def not_a_mapping():\n"
        "    return ['Test::EP::Never']\n"
    )
    dist = site / "occli_test_heat_ep-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: occli-test-heat-ep\nVersion: 1.0\n"
    )
    entries = "\n".join(line.format(module=module) for line in lines)
    (dist / "entry_points.txt").write_text("[%s]\n%s\n" % (resources.ENTRY_POINT_GROUP, entries))
    monkeypatch.syspath_prepend(str(site))
    return module


def test_entry_points_add_types_after_the_plugin_directories(tmp_path, monkeypatch, caplog):
    _install_entry_points(
        tmp_path,
        monkeypatch,
        [
            "Test::EP::Class = {module}:EPThing",
            "by_module = {module}",
            "by_callable = {module}:mapping",
            "missing = occli_test_heat_ep_missing_module",
            "wrong = {module}:not_a_mapping",
        ],
    )
    caplog.set_level(logging.WARNING, logger=resources.__name__)
    env = resources.initialise(plugin_dirs=[PLUGINS])
    assert env.find_class("Test::EP::Class").__name__ == "EPThing"
    assert env.find_class("Test::EP::FromModule").__name__ == "EPOther"
    assert env.find_class("Test::EP::FromCallable").__name__ == "EPOther"
    # a later source overrides an earlier one's type
    assert env.find_class("Test::Plugin::Thing").__name__ == "EPThing"
    warnings = " ".join(r.getMessage() for r in caplog.records)
    assert "entry point missing = occli_test_heat_ep_missing_module" in warnings
    assert "ModuleNotFoundError" in warnings
    assert "entry point wrong" in warnings and "list is not a mapping" in warnings
    assert "Test::EP::Never" not in env.get_types()
    described = {
        t["resource_type"]: t["description"] for t in env.get_types(with_description=True)
    }
    assert described["Test::EP::Class"] == "Installed with pip."
    assert described["Test::EP::FromModule"] == "No description available"


def test_global_environment_directory(caplog):
    caplog.set_level(logging.WARNING, logger=environment.__name__)
    env = resources.initialise(plugin_dirs=[PLUGINS], environment_dir=ENV_DIR)
    thing = env.find_class("Test::Plugin::Thing")
    assert env.find_class("Test::Env::Alias") is thing
    assert env.find_class("Test::Env::Glob::Thing") is thing
    # files in name order: the later one's default wins
    assert env.parameter_defaults == {"flavor": "m1.small", "image": "cirros"}
    # a broken file is logged and skipped, a non-environment file not read
    warnings = [r.getMessage() for r in caplog.records]
    assert any(
        "20-broken.yaml" in w and 'environment has wrong section "resource_registri"' in w
        for w in warnings
    )
    with pytest.raises(errors.NotFound):
        env.find_class("Test::Env::Never")
    assert not any("README" in w for w in warnings)
    # aliases are not types
    assert "Test::Env::Alias" not in env.get_types()
    # a stack's environment is layered over it
    user = environment.Environment({"resource_registry": {"My::Thing": "Test::Env::Alias"}})
    assert user.get_class("My::Thing") is thing


def test_initialise_is_cached_and_global_env_is_the_last_one():
    first = resources.initialise(plugin_dirs=[PLUGINS])
    assert resources.initialise(plugin_dirs=[PLUGINS]) is first
    assert resources.global_env() is first
    other = resources.initialise()
    assert other is not first
    assert resources.global_env() is other
    # environments made without a global one are layered over it
    assert environment.Environment({}).global_env is other
