"""``make demo``'s walkthrough of images, routers and objects
(examples/walkthrough-resources.sh) runs clean against a fresh local cloud,
twice, and its key lines say what the walkthrough claims: the bytes saved
from Glance and from Swift are those uploaded, the image is shared with the
second project, the router joins the subnet, Neutron refuses to delete a
subnet on a router, and the object carries its metadata."""

import re

import pytest

from tests.functional.harness import run_examples

SCRIPT = "walkthrough-resources.sh"
MD5 = re.compile(r"^([0-9a-f]{32})  ", re.M)


def after(out, command):
    """The output of the step ``$ <command>`` (up to the next blank line)."""
    marker = "\n$ %s\n" % command
    assert marker in out, "no step %r" % command
    return out.split(marker, 1)[1].split("\n\n", 1)[0]


def md5(lines):
    """The checksum on the first md5sum line of ``lines``."""
    found = MD5.search(lines)
    assert found, lines
    return found.group(1)


def field(table, name):
    """A field's value in a ``show`` table."""
    found = re.search(r"^\| %s +\| (.*?) +\|$" % re.escape(name), table, re.M)
    assert found, "no field %r in\n%s" % (name, table)
    return found.group(1)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of the walkthrough against one fresh local cloud."""
    return run_examples([SCRIPT, SCRIPT], tmp_path_factory.mktemp("walk"))


def test_it_runs_to_the_end_twice_against_one_cloud(runs):
    """A second run finds what it needs free: the walkthrough tidies up
    what it makes."""
    for proc in runs:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert proc.stdout.rstrip().endswith("Walkthrough finished.")
        assert "\x1b" not in proc.stdout, "bold only on a terminal"
        assert "Traceback" not in proc.stdout + proc.stderr
        assert "unexpected success" not in proc.stderr


def test_the_image_bytes_come_back_and_are_shared(runs):
    out = runs[0].stdout
    uploaded = md5(after(out, "md5sum demo.qcow2"))
    created = after(
        out,
        "occli --os-cloud local image create demo-upload --file demo.qcow2 --disk-format qcow2"
        " --container-format bare --property os_distro=cirros --tag demo"
        " -c name -c status -c size -c checksum",
    )
    assert field(created, "checksum") == uploaded
    assert field(created, "status") == "active"
    assert md5(after(out, "md5sum saved.qcow2")) == uploaded
    shown = after(
        out,
        "occli --os-cloud local image show demo-upload"
        " -c name -c disk_format -c os_distro -c tags -c visibility",
    )
    assert (field(shown, "os_distro"), field(shown, "tags")) == ("cirros", "demo")
    booted = "server create demo-from-image --image demo-upload"
    assert "| status | ACTIVE" in out.split(booted, 1)[1].split("\n\n", 1)[0]
    snapshot = "server image create demo-from-image --name demo-upload-snap --wait"
    assert "| status | active" in out.split(snapshot, 1)[1].split("\n\n", 1)[0]
    # the member list shows project alt's acceptance
    members = after(out, "occli --os-cloud local image member list demo-upload")
    assert re.search(r"\| [0-9a-f]{32} \| accepted \|", members), members


def test_the_router_joins_the_subnet_and_guards_it(runs):
    out, err = runs[0].stdout, runs[0].stderr
    router = after(
        out,
        "occli --os-cloud local router show demo-router"
        " -c name -c external_gateway_info -c interfaces_info",
    )
    assert '"ip_address": "10.20.30.1"' in field(router, "interfaces_info")
    assert '"ip_address": "172.24.4.' in field(router, "external_gateway_info")
    addresses = after(out, "occli --os-cloud local server show demo-routed -c addresses")
    assert re.search(r"demo-network=10\.20\.30\.\d+, 172\.24\.4\.\d+", addresses), addresses
    assert "$ occli --os-cloud local subnet delete demo-subnet   # expected to fail" in out
    refusals = [line for line in err.splitlines() if "demo-subnet" in line]
    assert len(refusals) == 1, err
    assert refusals[0].startswith("Failed to delete subnet demo-subnet: ")
    assert "One or more ports have an IP allocation from this subnet. (HTTP 409)" in refusals[0]


def test_the_object_keeps_its_bytes_and_metadata(runs):
    out = runs[0].stdout
    written = md5(after(out, "md5sum notes.txt"))
    created = after(out, "occli --os-cloud local object create demo-container notes.txt")
    assert "| notes.txt | demo-container | %s |" % written in created
    shown = after(out, "occli --os-cloud local object show demo-container notes.txt")
    # Swift gives the metadata header as X-Object-Meta-Author
    assert field(shown, "properties") == "Author='demo'"
    assert field(shown, "etag") == written
    saved = after(
        out, "occli --os-cloud local object save --file - demo-container notes.txt | md5sum"
    )
    assert saved == "%s  -" % written
    container = after(out, "occli --os-cloud local container show demo-container")
    assert field(container, "object_count") == "1"
    listed = after(out, "occli --os-cloud local object list demo-container")
    assert "| notes.txt |" in listed
