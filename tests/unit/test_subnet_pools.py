"""``subnet pool …``, ``address scope …`` and ``subnet create
--subnet-pool/--use-default-subnet-pool`` in-process against
requests-mock: the bodies they send (OSC's), names resolved with one
request, the columns shown, usage errors (exit 2) before any request."""

import json

import pytest

from .fakes import NETWORK

V2 = NETWORK + "/v2.0"
SCOPE_ID = "4c9ff6bd-5e0b-4e1b-9f1f-3a9d0c9f1e11"
POOL_ID = "9d9b3c2e-1f0e-4d1b-8c55-5b7d6a1a2c33"
NET_ID = "52d9a3a6-4bd1-45de-9b2f-7c9a3f1c0d44"
PROJECT = "7706bda6c68e41e2b10f5ed80cd0bdb7"

# bodies as Neutron 29 answers them (the prefix lengths are text)
POOL = {
    "id": POOL_ID,
    "name": "web-pool",
    "ip_version": 4,
    "prefixes": ["10.10.0.0/16"],
    "default_prefixlen": "24",
    "min_prefixlen": "8",
    "max_prefixlen": "32",
    "default_quota": None,
    "address_scope_id": None,
    "is_default": False,
    "shared": False,
    "description": "",
    "project_id": PROJECT,
    "tenant_id": PROJECT,
    "created_at": "2026-12-02T02:45:32Z",
    "updated_at": "2026-12-02T02:45:32Z",
    "revision_number": 1,
    "tags": [],
}
SCOPE = {
    "id": SCOPE_ID,
    "name": "web-scope",
    "ip_version": 4,
    "shared": False,
    "project_id": PROJECT,
    "tenant_id": PROJECT,
}


def cloud_requests(mock):
    return [r for r in mock.request_history if "/identity/" not in r.url]


@pytest.fixture
def pool(mock_cloud):
    mock_cloud.mock.get(V2 + "/subnetpools?name=web-pool", json={"subnetpools": [POOL]})
    return POOL


@pytest.fixture
def scope(mock_cloud):
    mock_cloud.mock.get(V2 + "/address-scopes?name=web-scope", json={"address_scopes": [SCOPE]})
    return SCOPE


def test_subnet_pool_create_sends_osc_attributes(cli, mock_cloud, scope):
    m = mock_cloud.mock
    created = dict(POOL, address_scope_id=SCOPE_ID, is_default=True, shared=True)
    create = m.post(V2 + "/subnetpools", status_code=201, json={"subnetpool": created})
    code, out, err = cli(
        "subnet", "pool", "create", "web-pool", "--pool-prefix", "10.10.0.0/16",
        "--pool-prefix", "10.20.0.0/16", "--default-prefix-length", "24",
        "--min-prefix-length", "20", "--max-prefix-length", "28", "--address-scope",
        "web-scope", "--default", "--share", "--description", "web", "--default-quota",
        "1024", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert create.last_request.json() == {
        "subnetpool": {
            "name": "web-pool",
            "prefixes": ["10.10.0.0/16", "10.20.0.0/16"],
            "default_prefixlen": 24,
            "min_prefixlen": 20,
            "max_prefixlen": 28,
            "address_scope_id": SCOPE_ID,
            "is_default": True,
            "shared": True,
            "description": "web",
            "default_quota": 1024,
        }
    }
    shown = json.loads(out)
    assert shown["address_scope_id"] == SCOPE_ID and shown["default_prefixlen"] == "24"
    assert "tenant_id" not in shown
    # the scope by name (one request), then the create
    assert [r.method for r in cloud_requests(m)] == ["GET", "POST"]


def test_subnet_pool_create_needs_a_prefix(cli, mock_cloud):
    code, out, err = cli("subnet", "pool", "create", "web-pool")
    assert code == 2
    assert "--pool-prefix" in err
    code, out, err = cli(
        "subnet", "pool", "create", "p", "--pool-prefix", "10.0.0.0/8",
        "--min-prefix-length", "-1",
    )  # fmt: skip
    assert code == 2
    assert "must be 0 or more" in err
    assert cloud_requests(mock_cloud.mock) == []


def test_subnet_pool_list_long_and_filters(cli, mock_cloud, scope):
    m = mock_cloud.mock
    listing = m.get(V2 + "/subnetpools", json={"subnetpools": [dict(POOL, tags=["a"])]})
    code, out, err = cli(
        "subnet", "pool", "list", "--long", "--share", "--no-default", "--address-scope",
        "web-scope", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert listing.last_request.qs == {
        "shared": ["true"],
        "is_default": ["false"],
        "address_scope_id": [SCOPE_ID],
    }
    assert json.loads(out) == [
        {
            "ID": POOL_ID,
            "Name": "web-pool",
            "Prefixes": ["10.10.0.0/16"],
            "Default Prefix Length": "24",
            "Address Scope": None,
            "Default Subnet Pool": False,
            "Shared": False,
            "Tags": ["a"],
        }
    ]


def test_subnet_pool_set_keeps_the_prefixes(cli, mock_cloud, pool):
    m = mock_cloud.mock
    update = m.put(V2 + "/subnetpools/" + POOL_ID, json={"subnetpool": POOL})
    code, out, err = cli(
        "subnet", "pool", "set", "web-pool", "--pool-prefix", "10.11.0.0/16",
        "--no-address-scope", "--name", "renamed", "--max-prefix-length", "26",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "subnetpool": {
            "name": "renamed",
            "max_prefixlen": 26,
            "address_scope_id": None,
            "prefixes": ["10.11.0.0/16", "10.10.0.0/16"],
        }
    }


def test_subnet_pool_set_refusals_before_any_request(cli, mock_cloud):
    code, out, err = cli("subnet", "pool", "set", "web-pool")
    assert code == 2
    assert "Nothing to set" in err
    code, out, err = cli(
        "subnet", "pool", "set", "web-pool", "--address-scope", "s", "--no-address-scope"
    )
    assert code == 2
    assert "--address-scope and --no-address-scope cannot be given together." in err
    code, out, err = cli("subnet", "pool", "unset", "web-pool")
    assert code == 2
    assert cloud_requests(mock_cloud.mock) == []


def test_subnet_pool_show_unset_and_delete(cli, mock_cloud, pool):
    m = mock_cloud.mock
    code, out, err = cli("subnet", "pool", "show", "web-pool", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["prefixes"] == ["10.10.0.0/16"]
    tagged = dict(POOL, tags=["a", "b"])
    m.get(V2 + "/subnetpools?name=tagged", json={"subnetpools": [tagged]})
    tags = m.put(V2 + "/subnetpools/%s/tags" % POOL_ID, json={"tags": ["b"]})
    code, out, err = cli("subnet", "pool", "unset", "tagged", "--tag", "a")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["b"]}
    deleted = m.delete(V2 + "/subnetpools/" + POOL_ID, status_code=204)
    m.get(V2 + "/subnetpools?name=gone", json={"subnetpools": []})
    code, out, err = cli("subnet", "pool", "delete", "web-pool", "gone")
    assert code == 1
    assert deleted.called_once
    assert "Failed to delete subnet pool gone" in err


def test_address_scope_create_list_set_delete(cli, mock_cloud, scope):
    m = mock_cloud.mock
    create = m.post(V2 + "/address-scopes", status_code=201, json={"address_scope": SCOPE})
    code, out, err = cli(
        "address", "scope", "create", "web-scope", "--ip-version", "6", "--share", "-f", "json"
    )
    assert code == 0, err
    assert create.last_request.json() == {
        "address_scope": {"name": "web-scope", "ip_version": 6, "shared": True}
    }
    assert json.loads(out) == {k: v for k, v in SCOPE.items() if k != "tenant_id"}
    listing = m.get(V2 + "/address-scopes", json={"address_scopes": [SCOPE]})
    code, out, err = cli(
        "address", "scope", "list", "--ip-version", "4", "--no-share", "-f", "json"
    )
    assert code == 0, err
    assert listing.last_request.qs == {"ip_version": ["4"], "shared": ["false"]}
    assert json.loads(out) == [
        {"ID": SCOPE_ID, "Name": "web-scope", "IP Version": 4, "Shared": False, "Project": PROJECT}
    ]
    update = m.put(V2 + "/address-scopes/" + SCOPE_ID, json={"address_scope": SCOPE})
    code, out, err = cli("address", "scope", "set", "web-scope", "--name", "v4")
    assert code == 0, err
    assert update.last_request.json() == {"address_scope": {"name": "v4"}}
    deleted = m.delete(V2 + "/address-scopes/" + SCOPE_ID, status_code=204)
    code, out, err = cli("address", "scope", "delete", "web-scope")
    assert code == 0, err
    assert deleted.called_once


def test_address_scope_usage_errors(cli, mock_cloud):
    code, out, err = cli("address", "scope", "create", "s", "--ip-version", "5")
    assert code == 2
    code, out, err = cli("address", "scope", "set", "s")
    assert code == 2
    assert "Nothing to set" in err
    code, out, err = cli("address", "scope", "create", "s", "--share", "--no-share")
    assert code == 2
    assert cloud_requests(mock_cloud.mock) == []


def _network(m):
    m.get(V2 + "/networks?name=web", json={"networks": [{"id": NET_ID, "name": "web"}]})


def _created(m):
    subnet = {"id": "e3c8a0b2-0d4f-4f0e-a7a1-0c3c1a5d2e55", "network_id": NET_ID}
    return m.post(V2 + "/subnets", status_code=201, json={"subnet": subnet})


def test_subnet_create_from_a_pool_by_name(cli, mock_cloud, pool):
    m = mock_cloud.mock
    _network(m)
    create = _created(m)
    code, out, err = cli(
        "subnet", "create", "s1", "--network", "web", "--subnet-pool", "web-pool",
        "--prefix-length", "26",
    )  # fmt: skip
    assert code == 0, err
    assert create.last_request.json() == {
        "subnet": {
            "name": "s1",
            "network_id": NET_ID,
            "ip_version": 4,
            "subnetpool_id": POOL_ID,
            "prefixlen": 26,
        }
    }


def test_subnet_create_from_the_default_pool(cli, mock_cloud):
    m = mock_cloud.mock
    _network(m)
    create = _created(m)
    code, out, err = cli(
        "subnet", "create", "s6", "--network", "web", "--use-default-subnet-pool",
        "--ip-version", "6",
    )  # fmt: skip
    assert code == 0, err
    assert create.last_request.json() == {
        "subnet": {
            "name": "s6",
            "network_id": NET_ID,
            "ip_version": 6,
            "use_default_subnetpool": True,
        }
    }


def test_subnet_create_pool_usage_errors(cli, mock_cloud):
    code, out, err = cli(
        "subnet", "create", "s", "--network", "web", "--subnet-pool", "p",
        "--use-default-subnet-pool",
    )  # fmt: skip
    assert code == 2
    assert "--subnet-pool and --use-default-subnet-pool cannot be given together." in err
    code, out, err = cli("subnet", "create", "s", "--network", "web")
    assert code == 2
    assert "--subnet-range" in err and "--subnet-pool" in err
    assert cloud_requests(mock_cloud.mock) == []


def test_managers(client, mock_cloud):
    m = mock_cloud.mock
    create = m.post(V2 + "/subnetpools", status_code=201, json={"subnetpool": POOL})
    made = client.subnet_pools.create("web-pool", ("10.10.0.0/16",), default_prefixlen=24)
    assert made.id == POOL_ID
    assert create.last_request.json() == {
        "subnetpool": {"name": "web-pool", "prefixes": ["10.10.0.0/16"], "default_prefixlen": 24}
    }
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError):
        client.subnet_pools.update(POOL_ID)
    with pytest.raises(exceptions.ValidationError):
        client.address_scopes.create("s", ip_version=5)
    with pytest.raises(exceptions.ValidationError):
        client.address_scopes.update(SCOPE_ID)
    m.get(V2 + "/address-scopes/" + SCOPE_ID, json={"address_scope": SCOPE})
    assert client.address_scopes.get(SCOPE_ID).ip_version == 4
