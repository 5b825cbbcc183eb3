"""Volume types over HTTP (issue 21): the admin makes a private type for
project alt with properties; alt sees it and makes a volume of it, demo
neither; the type in use cannot be deleted, then can; members are refused
the admin's writes."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, ``local-alt`` or ``local-admin``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def test_a_private_type_for_one_project(occli):
    name = "gold-" + uuid.uuid4().hex[:8]
    made = as_json(
        occli(
            "volume", "type", "create", name, "--private", "--project", "alt",
            "--description", "for alt", "--property", "tier=gold", "-f", "json",
            cloud="local-admin",
        )
    )  # fmt: skip
    assert sorted(made) == ["description", "id", "is_public", "name", "properties"]
    assert (made["is_public"], made["properties"]) == (False, {"tier": "gold"})
    shown = as_json(occli("volume", "type", "show", name, "-f", "json", cloud="local-admin"))
    alt = shown["access_project_ids"]
    assert len(alt) == 1
    private = as_json(
        occli("volume", "type", "list", "--private", "-f", "json", cloud="local-admin")
    )
    assert name in [t["Name"] for t in private]

    # alt sees it (the user-visible properties only) and uses it; demo does not
    listed = as_json(occli("volume", "type", "list", "--long", "-f", "json", cloud="local-alt"))
    mine = [t for t in listed if t["Name"] == name]
    assert mine and mine[0]["Properties"] == {}
    assert name not in [t["Name"] for t in as_json(occli("volume", "type", "list", "-f", "json"))]
    code, out, err = occli("volume", "create", "--size", "1", "--type", name, "v-" + name)
    assert code == 1 and "Volume type with name %s could not be found." % name in err
    volume = as_json(
        occli(
            "volume", "create", "--size", "1", "--type", name, "--wait", "v-" + name,
            "-f", "json", cloud="local-alt",
        )
    )  # fmt: skip
    assert volume["type"] == name  # OSC's name

    # in use: no deletion, no property change
    code, out, err = occli("volume", "type", "delete", name, cloud="local-admin")
    assert code == 1 and "Target volume type is still in use." in err
    code, out, err = occli("volume", "type", "set", "--property", "a=b", name, cloud="local-admin")
    assert code == 1 and "Volume Type is currently in use." in err
    ok(occli("volume", "delete", volume["id"], cloud="local-alt"))

    ok(occli("volume", "type", "set", "--property", "a=b", "--name", name + "-x", name,
             cloud="local-admin"))  # fmt: skip
    ok(occli("volume", "type", "unset", "--property", "tier", "--project", "alt", name + "-x",
             cloud="local-admin"))  # fmt: skip
    shown = as_json(
        occli("volume", "type", "show", name + "-x", "-f", "json", cloud="local-admin")
    )
    assert (shown["properties"], shown["access_project_ids"]) == ({"a": "b"}, [])
    ok(occli("volume", "type", "delete", name + "-x", cloud="local-admin"))
    assert occli("volume", "type", "show", name + "-x", cloud="local-admin")[0] == 1


def test_members_are_refused_and_the_default_stays(occli):
    code, out, err = occli("volume", "type", "create", "nope-" + uuid.uuid4().hex[:6])
    assert code == 1
    assert "Policy doesn't allow volume_extension:type_create to be performed." in err
    default = as_json(occli("volume", "type", "list", "--default", "-f", "json"))
    assert [t["Name"] for t in default] == ["__DEFAULT__"]
    code, out, err = occli("volume", "type", "delete", "__DEFAULT__", cloud="local-admin")
    assert code == 1 and "is a default volume type and cannot be deleted." in err


def test_qos_specs_on_a_type(occli):
    name = "fast-" + uuid.uuid4().hex[:8]
    admin = {"cloud": "local-admin"}
    made = as_json(
        occli(
            "volume", "qos", "create", name, "--consumer", "front-end",
            "--property", "total_iops_sec=1000", "-f", "json", **admin,
        )
    )  # fmt: skip
    assert (made["consumer"], made["properties"]) == ("front-end", {"total_iops_sec": "1000"})
    vtype = as_json(occli("volume", "type", "create", name + "-t", "-f", "json", **admin))
    ok(occli("volume", "qos", "associate", name, vtype["id"], **admin))
    shown = as_json(occli("volume", "qos", "show", name, "-f", "json", **admin))
    assert shown["associations"] == [name + "-t"]
    code, out, err = occli("volume", "qos", "delete", name, **admin)
    assert code == 1 and "Qos specs still in use." in err
    ok(
        occli(
            "volume", "qos", "set", "--no-property", "--property", "read_iops_sec=5", name, **admin
        )
    )
    listed = as_json(occli("volume", "qos", "list", "-f", "json", **admin))
    mine = [q for q in listed if q["Name"] == name]
    assert mine[0]["Properties"] == {"read_iops_sec": "5"}
    assert mine[0]["Associations"] == [name + "-t"]
    ok(occli("volume", "qos", "disassociate", "--volume-type", name + "-t", name, **admin))
    ok(occli("volume", "qos", "unset", "--property", "read_iops_sec", name, **admin))
    ok(occli("volume", "qos", "delete", name, **admin))
    ok(occli("volume", "type", "delete", name + "-t", **admin))
    code, out, err = occli("volume", "qos", "list")
    assert code == 1
    assert "Policy doesn't allow volume_extension:qos_specs_manage:get_all" in err
