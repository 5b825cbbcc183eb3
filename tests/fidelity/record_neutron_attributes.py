"""Record which attributes of which collections each Neutron extension
adds, from the Neutron 29 / neutron-lib 5.0.1 the rig of
``../shared/realcloud`` installed, into
``tests/fixtures/network/realcloud/neutron-29-extension-attributes.json``.
Run with the rig's Python (it imports neutron)::

    /tmp/realcloud/svc2/bin/python tests/fidelity/record_neutron_attributes.py

``core`` maps the core collections (neutron-lib's ``network``, ``subnet``,
``port`` and ``subnetpool`` definitions) to their attributes;
``extensions`` maps every alias neutron-lib defines or neutron's own
extensions describe to ``get_extended_resources("2.0")``'s collections and
the attributes their views show (sub-resources and actions left out). Read by
``tests/unit/localcloud/test_discovery_realcloud.py``: nothing is sent.
"""

import importlib
import json
import pathlib
import pkgutil
import warnings

OUT = (
    pathlib.Path(__file__).resolve().parents[1]
    / "fixtures"
    / "network"
    / "realcloud"
    / "neutron-29-extension-attributes.json"
)
CORE = ("network", "subnet", "port", "subnetpool")


def _descriptors(package, base):
    """``{alias: descriptor class}`` of the modules of ``package``."""
    found: dict[str, type] = {}
    for info in pkgutil.iter_modules(package.__path__):
        try:
            module = importlib.import_module(package.__name__ + "." + info.name)
        except Exception:  # noqa: BLE001 - an extension needing a driver
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, base) and value is not base:
                try:
                    found.setdefault(getattr(value, "get_alias")(), value)  # noqa: B009
                except Exception:  # noqa: BLE001 - an abstract base
                    continue
    return found


def _visible(attributes):
    """The names of the attributes a view shows (``is_visible``, the
    default; a write-only one such as a floating IP's ``subnet_id`` not)."""
    return sorted(
        name
        for name, spec in attributes.items()
        if not isinstance(spec, dict) or spec.get("is_visible", True)
    )


def record():
    warnings.simplefilter("ignore")
    import neutron.extensions
    from neutron.db import models_v2  # noqa: F401 - the standard-attr models
    from neutron_lib.api import definitions
    from neutron_lib.api import extensions

    core = {}
    for name in CORE:
        module = importlib.import_module("neutron_lib.api.definitions." + name)
        for collection, attributes in module.RESOURCE_ATTRIBUTE_MAP.items():
            core[collection] = _visible(attributes)
    aliases = {}
    for alias, cls in _descriptors(neutron.extensions, extensions.ExtensionDescriptor).items():
        try:
            resources = cls().get_extended_resources("2.0")
        except Exception:  # noqa: BLE001 - needs a plugin loaded
            continue
        aliases[alias] = {
            k: _visible(v)
            for k, v in resources.items()
            if isinstance(v, dict) and "parent" not in v
        }
    for info in pkgutil.iter_modules(definitions.__path__):
        module = importlib.import_module(definitions.__name__ + "." + info.name)
        alias = getattr(module, "ALIAS", None)
        if alias and alias not in aliases and info.name not in CORE:
            attributes = getattr(module, "RESOURCE_ATTRIBUTE_MAP", None) or {}
            aliases[alias] = {k: _visible(v) for k, v in attributes.items()}
    body = {
        "source": "neutron 29 (neutron-lib 5.0.1) of ../shared/realcloud, read 2026-12-02 by"
        " tests/fidelity/record_neutron_attributes.py (issue 23)",
        "core": core,
        "extensions": dict(sorted(aliases.items())),
    }
    OUT.write_text(json.dumps(body, indent=1, sort_keys=False) + "\n")
    print("wrote %s (%d aliases)" % (OUT, len(aliases)))


if __name__ == "__main__":
    record()
