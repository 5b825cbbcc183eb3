"""Managers that read members of an answer themselves refuse one of the
wrong shape as the Manager's verbs do (issue 19, finding 16): a list, a
number, null or nothing where the API documents an object, a string or a
list is one UnexpectedResponse naming the URL, never Python's own error
('int' object is not iterable, 'NoneType' object has no attribute 'get')."""

import re

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import HEAT
from .fakes import VOLUME

SID = "9168b536-cd40-4630-b43f-b259807c6e87"

#: ``(id, method, URL, call, key, kind)``: the call reads ``key`` of the
#: answer to ``method URL``; ``kind`` is what the member must be:
#: ``object``/``string`` (a default when missing), ``required object``,
#: ``required string``, ``objects`` or ``strings`` (a list of them).
CASES = [
    ("create", "POST", COMPUTE + "/servers",
     lambda c: c.servers.create("vm", "img", "1"), "server", "required object"),
    ("create-reservation", "POST", COMPUTE + "/servers",
     lambda c: c.servers.create("vm", "img", "1", return_reservation_id=True),
     "reservation_id", "required string"),
    ("set-meta", "POST", COMPUTE + "/servers/%s/metadata" % SID,
     lambda c: c.servers.set_meta(SID, {"a": "b"}), "metadata", "object"),
    ("tag-list", "GET", COMPUTE + "/servers/%s/tags" % SID,
     lambda c: c.servers.tag_list(SID), "tags", "strings"),
    ("set-tags", "PUT", COMPUTE + "/servers/%s/tags" % SID,
     lambda c: c.servers.set_tags(SID, ["a"]), "tags", "strings"),
    ("console-output", "POST", COMPUTE + "/servers/%s/action" % SID,
     lambda c: c.servers.get_console_output(SID), "output", "string"),
    ("create-image", "POST", COMPUTE + "/servers/%s/action" % SID,
     lambda c: c.servers.create_image(SID, "snap"), "image_id", "string"),
    ("console-url", "POST", COMPUTE + "/servers/%s/remote-consoles" % SID,
     lambda c: c.servers.get_console_url(SID, "novnc"), "remote_console", "object"),
    ("password", "GET", COMPUTE + "/servers/%s/os-server-password" % SID,
     lambda c: c.servers.get_password(SID), "password", "string"),
    ("ips", "GET", COMPUTE + "/servers/%s/ips" % SID,
     lambda c: c.servers.ips(SID), "addresses", "object"),
    ("extra-specs", "GET", COMPUTE + "/flavors/1/os-extra_specs",
     lambda c: c.flavors.get_extra_specs("1"), "extra_specs", "object"),
    ("flavor-access", "GET", COMPUTE + "/flavors/1/os-flavor-access",
     lambda c: c.flavors.access_list("1"), "flavor_access", "objects"),
    ("add-tenant-access", "POST", COMPUTE + "/flavors/1/action",
     lambda c: c.flavors.add_tenant_access("1", "p"), "flavor_access", "objects"),
    ("hypervisor-statistics", "GET", COMPUTE + "/os-hypervisors/statistics",
     lambda c: c.hypervisors.statistics(), "hypervisor_statistics", "object"),
    ("usage-list", "GET", COMPUTE + "/os-simple-tenant-usage",
     lambda c: c.usage.list(), "tenant_usages", "objects"),
    ("usage-get", "GET", COMPUTE + "/os-simple-tenant-usage/p",
     lambda c: c.usage.get("p"), "tenant_usage", "object"),
    ("software-configs", "GET", HEAT + "/software_configs",
     lambda c: list(c.software_configs.list()), "software_configs", "objects"),
    ("deployment-metadata", "GET", HEAT + "/software_deployments/metadata/" + SID,
     lambda c: c.software_deployments.metadata(SID), "metadata", "objects"),
    ("volume-metadata", "POST", VOLUME + "/volumes/v1/metadata",
     lambda c: c.volumes.set_metadata("v1", {"a": "b"}), "metadata", "object"),
]  # fmt: skip

#: What each kind of member is not, as the error says, and wrong values.
WRONG = {
    "object": ("an object", [5, [1, 2], "text"]),
    "string": ("a string", [5, [1, 2], {"a": 1}]),
    "objects": ("a list", [5, {"a": 1}, "text"]),
    "strings": ("a list", [5, {"a": 1}, "text"]),
}


def shapes():
    """``(case, body, what the error says)`` for every case and wrong shape."""
    for case in CASES:
        name, _, _, _, key, kind = case
        required = kind.startswith("required ")
        kind = kind.removeprefix("required ")
        what, values = WRONG[kind]
        for value in values:
            yield pytest.param(
                case, {key: value}, "%r is not %s" % (key, what), id="%s-%r" % (name, value)
            )
        if required:
            yield pytest.param(case, {}, "%r is missing" % key, id=name + "-missing")
            yield pytest.param(case, {key: None}, "%r is missing" % key, id=name + "-null")
        if kind in ("objects", "strings"):
            entry = "an object" if kind == "objects" else "a string"
            for value in (5, None, [1]) if kind == "objects" else (5, None, {"a": 1}):
                yield pytest.param(
                    case,
                    {key: [value]},
                    "an entry of %r is not %s" % (key, entry),
                    id="%s-entry-%r" % (name, value),
                )


def one_error(url, what):
    """The error's text: ``url`` (with its query, if any) and ``what``."""
    return r"^The answer from %s(\?\S*)? is not what the API documents: %s\. " % (
        re.escape(url),
        re.escape(what),
    )


@pytest.mark.parametrize("case, body, what", list(shapes()))
def test_a_member_of_the_wrong_shape_is_one_error(client, mock_cloud, case, body, what):
    _, method, url, call, _, _ = case
    mock_cloud.mock.register_uri(method, url, json=body)
    with pytest.raises(exceptions.UnexpectedResponse, match=one_error(url, what)):
        call(client)


USAGE = COMPUTE + "/os-simple-tenant-usage"
LINKS = "tenant_usages_links"


@pytest.mark.parametrize(
    "usages, links, what",
    [
        ([{"tenant_id": ["p"]}], None, "'tenant_id' is not a string"),
        ([{"tenant_id": "p", "total_hours": "x"}], None, "'total_hours' is not a number"),
        ([{"tenant_id": "p", "server_usages": 5}], None, "'server_usages' is not a list"),
        ([{"tenant_id": "p", "server_usages": [5]}], None,
         "an entry of 'server_usages' is not an object"),
        ([], 5, "'tenant_usages_links' is not a list of links"),
        ([], [5], "'tenant_usages_links' is not a list of links"),
    ],
)  # fmt: skip
def test_a_usage_of_the_wrong_shape_is_one_error(client, mock_cloud, usages, links, what):
    mock_cloud.mock.get(USAGE, json={"tenant_usages": usages, LINKS: links})
    with pytest.raises(exceptions.UnexpectedResponse, match=one_error(USAGE, what)):
        client.usage.list()


def test_members_of_the_documented_shapes_are_read(client, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/servers/%s/tags" % SID, json={"tags": ["a", "b"]})
    m.post(COMPUTE + "/servers/%s/action" % SID, json={"output": "log"})
    m.get(COMPUTE + "/servers/%s/ips" % SID, json={"addresses": {"private": []}})
    m.get(COMPUTE + "/servers/%s/os-server-password" % SID, json={})
    m.get(USAGE, json={"tenant_usages": [{"tenant_id": "p", "total_hours": 1.5}]})
    assert client.servers.tag_list(SID) == ["a", "b"]
    assert client.servers.get_console_output(SID) == "log"
    assert client.servers.ips(SID) == {"private": []}
    assert client.servers.get_password(SID) == ""
    assert client.usage.list()[0].total_hours == 1.5


def test_the_cli_says_one_line_and_no_traceback(cli, mock_cloud):
    url = COMPUTE + "/servers/%s/action" % SID
    mock_cloud.mock.get(COMPUTE + "/servers/" + SID, json={"server": {"id": SID, "name": "vm"}})
    mock_cloud.mock.post(url, json={"output": 5})
    code, out, err = cli("server", "console", "log", SID)
    assert (code, out) == (1, ""), err
    assert "Traceback" not in err
    assert err.strip().splitlines() == [
        "The answer from %s is not what the API documents: 'output' is not a string. (HTTP 200)"
        % url
    ]
