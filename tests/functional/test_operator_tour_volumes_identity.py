"""The operator tour of volumes and identity
(examples/operator-tour-volumes-identity.sh) runs clean against a fresh
local cloud, twice, and its key lines say what the tour claims: a private
volume type is refused to another project, a backup restores to a new
volume, a transfer gives the volume to the project that accepts it, a
group's member gets a token for the group's project, an application
credential logs in until it is deleted, and a disabled endpoint leaves the
catalog until it is enabled again."""

import re

import pytest

from tests.functional.harness import run_examples

SCRIPT = "operator-tour-volumes-identity.sh"
MEMBER = (
    "occli --no-cache --os-cloud local --os-username tour-member "
    "--os-password tour-member-secret --os-project-name tour-project"
)


def steps(out, command):
    """The outputs (up to the next blank line) of every step whose command
    line starts with ``$ <command>``, in order."""
    found = re.findall(r"^\$ %s[^\n]*\n((?:[^\n]+\n?)*)" % re.escape(command), out, re.M)
    assert found, "no step %r" % command
    return found


def field(table, name):
    """A field's value in a ``show`` table."""
    found = re.search(r"^\| %s +\| (.*?) +\|$" % re.escape(name), table, re.M)
    assert found, "no field %r in\n%s" % (name, table)
    return found.group(1)


def names(table):
    """The first column of a list table's rows."""
    return re.findall(r"^\| (\S+) +\|", table, re.M)[1:]


def heat_interfaces(catalog):
    """The interfaces heat's entry of a ``catalog list`` table lists."""
    assert "| heat " in catalog, catalog
    rows = re.split(r"\n\| \S", catalog.split("| heat ", 1)[1], maxsplit=1)[0]
    return re.findall(r"\|   (\w+): http", rows)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of the tour against one fresh cloud: the second finds
    nothing the first left and makes it all again."""
    return run_examples([SCRIPT, SCRIPT], tmp_path_factory.mktemp("tour"))


@pytest.fixture(params=[0, 1], ids=["first", "second"])
def run(request, runs):
    proc = runs[request.param]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def test_runs_to_the_end(run):
    assert run.stdout.rstrip().endswith("Operator tour of volumes and identity finished.")
    assert "\x1b" not in run.stdout, "bold only on a terminal"
    assert "Traceback" not in run.stdout + run.stderr
    assert "unexpected success" not in run.stderr


def test_private_type_is_refused_to_another_project(run):
    (shown,) = steps(run.stdout, "occli --os-cloud local-admin volume type show tour-gold")
    assert field(shown, "is_public") == "False"
    (made,) = steps(run.stdout, "occli --os-cloud local volume create tour-vol")
    assert field(made, "volume_type") == "tour-gold"
    assert field(made, "status") == "available"
    assert "\n$ occli --os-cloud local-alt volume create tour-other" in run.stdout
    # cinder's VolumeTypeNotFoundByName, as OSC prints it
    assert "Volume type with name tour-gold could not be found. (HTTP 404)" in run.stderr


def test_backup_restores_to_a_new_volume(run):
    (backup,) = steps(run.stdout, "occli --os-cloud local volume backup show tour-backup")
    assert field(backup, "status") == "available"
    (restore,) = steps(run.stdout, "occli --os-cloud local volume backup restore tour-backup")
    assert field(restore, "volume_name") == "tour-restored"
    (restored,) = steps(run.stdout, "occli --os-cloud local volume show tour-restored")
    assert field(restored, "status") == "available"
    assert field(restored, "size") == "1"


def test_transfer_gives_the_volume_to_alt(run):
    (made,) = steps(run.stdout, "occli --os-cloud local volume transfer request create")
    key = field(made, "auth_key")
    (shown,) = steps(run.stdout, "occli --os-cloud local volume transfer request show")
    assert "auth_key" not in shown and key not in shown, "the key is shown once"
    (accepted,) = steps(run.stdout, "occli --os-cloud local-alt volume transfer request accept")
    assert field(accepted, "volume_id") == field(made, "volume_id")
    (alt_list,) = steps(run.stdout, "occli --os-cloud local-alt volume list")
    assert names(alt_list) == ["tour-vol"]
    (demo_list,) = steps(run.stdout, "occli --os-cloud local volume list")
    assert "tour-vol" not in names(demo_list)
    assert "tour-restored" in names(demo_list)


def test_group_member_gets_a_token_for_the_project(run):
    (project,) = steps(run.stdout, "occli --os-cloud local-admin project show tour-project")
    (token,) = steps(run.stdout, MEMBER + " token issue")
    assert field(token, "project_id") == field(project, "id")


def test_application_credential_logs_in_until_deleted(run):
    (project,) = steps(run.stdout, "occli --os-cloud local-admin project show tour-project")
    (made,) = steps(run.stdout, MEMBER + " application credential create")
    cred = field(made, "ID")
    assert field(made, "Secret")
    login = "occli --no-cache --os-auth-url "
    logged_in, failed = re.findall(r"^\$ %s.*$" % re.escape(login), run.stdout, re.M)
    assert cred in logged_in and "# expected to fail" in failed
    token, refused = steps(run.stdout, login)
    assert refused == ""
    assert field(token, "project_id") == field(project, "id")
    # the login after the delete is refused in one line (keystone's 404)
    errors = [line for line in run.stderr.splitlines() if cred in line]
    assert len(errors) == 1, run.stderr
    assert errors[0].startswith("Could not find Application Credential: %s. (HTTP 404)" % cred)


def test_disabled_endpoint_leaves_the_catalog(run):
    (endpoint,) = steps(run.stdout, "occli --os-cloud local-admin endpoint show")
    assert field(endpoint, "interface") == "admin"
    without, with_it = steps(run.stdout, "occli --os-cloud local-admin --no-cache catalog list")
    assert heat_interfaces(without) == ["public", "internal"]
    assert heat_interfaces(with_it) == ["public", "internal", "admin"]
