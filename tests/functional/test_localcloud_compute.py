"""The compute service over real HTTP (waitress): a smoke test against the
shared ``localcloud`` and a concurrency test against a private cloud."""

import concurrent.futures

import pytest
import requests

from occli.localcloud.image import images
from tests.functional.harness import start_localcloud

CIRROS = images.seed_image_id("cirros-0.6.2-x86_64-disk")
THREADS = 8
PER_THREAD = 50


def token(auth_url, user, password):
    result = requests.post(
        auth_url + "/auth/tokens",
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": user, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": {"project": {"name": user, "domain": {"id": "default"}}},
            }
        },
        timeout=30,
    )
    assert result.status_code == 201, result.text
    return result.headers["X-Subject-Token"]


def test_server_lifecycle_over_http(localcloud):
    config = localcloud.cloud.config
    headers = {
        "X-Auth-Token": token(localcloud.auth_url, "demo", config.demo_password),
        "OpenStack-API-Version": "compute 2.96",
    }
    api = localcloud.url + "/compute/v2.1"
    assert (
        requests.get(localcloud.url + "/compute/", timeout=30).json()["versions"][1]["version"]
        == "2.96"
    )
    created = requests.post(
        api + "/servers",
        headers=headers,
        timeout=30,
        json={
            "server": {"name": "func", "flavorRef": "1", "imageRef": CIRROS, "networks": "auto"}
        },
    )
    assert created.status_code == 202, created.text
    assert created.headers["OpenStack-API-Version"] == "compute 2.96"
    server_id = created.json()["server"]["id"]
    shown = requests.get(created.headers["Location"], headers=headers, timeout=30)
    assert shown.json()["server"]["status"] == "ACTIVE"
    assert (
        requests.delete(api + "/servers/" + server_id, headers=headers, timeout=30).status_code
        == 204
    )
    assert (
        requests.get(api + "/servers/" + server_id, headers=headers, timeout=30).status_code == 404
    )


def test_block_device_rules_over_http(localcloud):
    config = localcloud.cloud.config
    headers = {
        "X-Auth-Token": token(localcloud.auth_url, "demo", config.demo_password),
        "OpenStack-API-Version": "compute 2.96",
    }
    api = localcloud.url + "/compute/v2.1"
    image_disk = {
        "uuid": CIRROS,
        "source_type": "image",
        "destination_type": "local",
        "boot_index": 0,
    }
    swap = {
        "source_type": "blank",
        "destination_type": "local",
        "guest_format": "swap",
        "volume_size": 4096,
        "boot_index": -1,
    }
    refused = requests.post(
        api + "/servers",
        headers=headers,
        timeout=30,
        json={
            "server": {
                "name": "func-swap",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "networks": "none",
                "block_device_mapping_v2": [image_disk, swap],
            }
        },
    )
    assert refused.status_code == 400, refused.text
    assert refused.json()["badRequest"]["message"] == (
        "Swap drive requested is larger than instance type allows."
    )
    created = requests.post(
        api + "/servers",
        headers=headers,
        timeout=30,
        json={
            "server": {
                "name": "func-bfv",
                "flavorRef": "1",
                "networks": "none",
                "block_device_mapping_v2": [
                    {
                        "uuid": CIRROS,
                        "source_type": "image",
                        "destination_type": "volume",
                        "boot_index": 0,
                        "volume_size": 1,
                    }
                ],
            }
        },
    )
    assert created.status_code == 202, created.text
    shown = requests.get(created.headers["Location"], headers=headers, timeout=30).json()["server"]
    assert shown["image"] == ""
    assert len(shown["os-extended-volumes:volumes_attached"]) == 1
    assert (
        requests.delete(created.headers["Location"], headers=headers, timeout=30).status_code
        == 204
    )


@pytest.fixture(scope="module")
def private_cloud():
    # 400 servers in one project: nova's default quotas lifted, as an operator would
    running = start_localcloud(quota_instances=-1, quota_cores=-1, quota_ram=-1)
    yield running
    running.stop()


def test_concurrent_creates_leave_every_server(private_cloud):
    config = private_cloud.cloud.config
    tok = token(private_cloud.auth_url, "demo", config.demo_password)
    api = private_cloud.url + "/compute/v2.1"

    def worker(n):
        session = requests.Session()
        session.headers["X-Auth-Token"] = tok
        codes = []
        for i in range(PER_THREAD):
            result = session.post(
                api + "/servers",
                timeout=60,
                json={
                    "server": {"name": "conc-%d-%d" % (n, i), "flavorRef": "1", "imageRef": CIRROS}
                },
            )
            codes.append(result.status_code)
        return codes

    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        codes = [c for batch in pool.map(worker, range(THREADS)) for c in batch]
    assert codes == [202] * THREADS * PER_THREAD
    listed = requests.get(
        api + "/servers/detail", timeout=60, headers={"X-Auth-Token": tok}
    ).json()["servers"]
    assert len(listed) == THREADS * PER_THREAD
    assert len({s["id"] for s in listed}) == THREADS * PER_THREAD
    assert len({s["name"] for s in listed}) == THREADS * PER_THREAD
    addresses = [s["addresses"]["private"][0]["addr"] for s in listed]
    assert len(set(addresses)) == len(addresses)
    assert {s["status"] for s in listed} == {"ACTIVE"}
