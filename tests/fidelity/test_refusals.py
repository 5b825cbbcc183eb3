"""Policy refusals for a member on admin routes, and 404 texts."""

import pytest

from tests.fidelity.differential import Difference

ADMIN_ROUTES = (
    ("GET", "/os-services", None),
    ("GET", "/os-hypervisors", None),
    ("GET", "/os-hypervisors/detail", None),
    ("GET", "/os-hypervisors/statistics", None),
    ("GET", "/os-aggregates", None),
    ("POST", "/os-aggregates", {"aggregate": {"name": "fid-m"}}),
    ("GET", "/os-availability-zone/detail", None),
    ("POST", "/flavors", {"flavor": {"name": "fid-m", "ram": 64, "vcpus": 1, "disk": 1}}),
    ("PUT", "/os-quota-sets/{member_project}", {"quota_set": {"cores": 1}}),
    ("DELETE", "/os-quota-sets/{member_project}", None),
    ("GET", "/os-quota-sets/{admin_project}", None),
    ("GET", "/os-simple-tenant-usage", None),
    ("GET", "/servers?all_tenants=1&host=x", None),
    ("GET", "/os-migrations", None),
)


@pytest.mark.parametrize("method,path,body", ADMIN_ROUTES)
def test_member_refused(pair, method, path, body):
    pair.check(method, path, body, version="2.53", user="member")


NOT_FOUND = (
    "/servers/00000000-0000-0000-0000-000000000000",
    "/servers/00000000-0000-0000-0000-000000000000/metadata",
    "/flavors/fid-missing",
    "/flavors/fid-missing/os-extra_specs",
    "/os-keypairs/fid-missing",
    "/os-aggregates/424242",
    "/os-hypervisors/00000000-0000-0000-0000-000000000000",
    "/os-services/00000000-0000-0000-0000-000000000000",
    "/no-such-collection",
    "/servers/00000000-0000-0000-0000-000000000000/no-such-thing",
)


@pytest.mark.parametrize("path", NOT_FOUND)
def test_not_found(pair, path):
    pair.check("GET", path, version="2.53")


@pytest.mark.parametrize("token", ("fid-bogus", None))
def test_unauthenticated(pair, token):
    """keystonemiddleware's 401 (before any routing or microversion)."""
    headers = {"X-Auth-Token": token} if token else {}
    real, local = (c.request("GET", "@/v2.1/flavors", headers=headers) for c in pair.clouds)
    problems = pair.differences(real, local, exact=True)
    for cloud, answer in zip(pair.clouds, (real, local), strict=True):
        header = answer.headers.get("www-authenticate", "")
        if not header.startswith("Keystone uri="):
            problems.append("%s: WWW-Authenticate %r" % (cloud.name, header))
    if problems:
        raise Difference("\n".join(problems) + "\nreal: %r\nlocal: %r" % (real, local))


def test_wrong_method(pair):
    pair.check("PATCH", "/flavors", {}, version="2.53")


@pytest.mark.parametrize("version", ("2.200", "2.x"))
def test_microversion_errors_on_writes(pair, version):
    body = {"flavor": {"name": "fid-never", "ram": 64, "vcpus": 1, "disk": 1}}
    pair.check("POST", "/flavors", body, version=version)
    pair.check("DELETE", "/os-keypairs/fid-never", version=version)
