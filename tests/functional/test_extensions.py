"""``occli extension list`` and ``extension show`` against the local cloud:
Nova's legacy extension list, one alias, an unknown alias and usage errors."""

import pytest

from tests.functional.harness import as_json


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def test_extension_list(occli):
    listed = as_json(occli("extension", "list", "-f", "json"))
    aliases = {e["Alias"] for e in listed}
    # Nova's and the local Neutron's
    assert {"os-server-password", "os-shelve", "OS-DCF", "security-group"} <= aliases
    assert set(listed[0]) == {"Name", "Alias", "Description"}
    long = as_json(occli("extension", "list", "--long", "-f", "json"))
    assert {"Namespace", "Updated", "Links"} <= set(long[0])
    nova = {e["Alias"] for e in as_json(occli("extension", "list", "--compute", "-f", "json"))}
    neutron = as_json(occli("extension", "list", "--network", "-f", "json"))
    assert "security-group" not in nova and "os-shelve" in nova
    assert {e["Alias"] for e in neutron} == aliases - nova


def test_extension_show(occli):
    shown = as_json(occli("extension", "show", "os-server-password", "-f", "json"))
    assert shown["name"] == "ServerPassword" and shown["alias"] == "os-server-password"


def test_extension_show_unknown_and_usage(occli):
    code, _, err = occli("extension", "show", "no-such-extension")
    assert code == 1 and "HTTP 404" in err
    code, _, err = occli("extension", "show")
    assert code == 2 and "<alias>" in err
    code, _, _ = occli("extension", "list", "--bogus")
    assert code == 2
