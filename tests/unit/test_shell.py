"""The shell: exit codes, errors, --debug redaction, token cache, --timing."""

import json
import os
import stat

from .fakes import COMPUTE
from .fakes import PASSWORD
from .fakes import TOKEN
from .fakes import load_fixture
from .fakes import requests_to


def flavors(mock):
    mock.get(
        COMPUTE + "/flavors/detail",
        json=load_fixture("compute", "flavors", "flavors-detail-resp.json"),
    )


def test_usage_error_exits_2_before_any_request(cli, mock_cloud):
    code, out, err = cli("flavor", "list", "--no-such-flag")
    assert code == 2
    assert "unrecognized arguments: --no-such-flag" in err
    assert mock_cloud.mock.request_history == []


def test_missing_required_argument_exits_2(cli, mock_cloud):
    code, _, err = cli("flavor", "show")
    assert code == 2
    assert "required" in err
    assert mock_cloud.mock.request_history == []


def test_unknown_command_exits_2(cli, mock_cloud):
    code, out, err = cli("flavour", "list")
    assert code == 2
    assert mock_cloud.mock.request_history == []


def test_api_error_is_one_line_with_status_and_request_id(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/42",
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "Flavor 42 could not be found."}},
        headers={"x-openstack-request-id": "req-1234"},
    )
    mock_cloud.mock.get(COMPUTE + "/flavors/detail", json={"flavors": []})
    code, out, err = cli("flavor", "show", "42")
    assert code == 1
    assert out == ""
    assert err.strip().splitlines() == ["No flavor with a name or ID of '42' exists. (HTTP 404)"]
    code, out, err = cli("flavor", "list", "--marker", "x")
    assert code == 0


def test_api_error_message_and_request_id(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/detail",
        status_code=503,
        json={"serviceUnavailable": {"code": 503, "message": "Try later."}},
        headers={"x-openstack-request-id": "req-9"},
    )
    code, out, err = cli("flavor", "list")
    assert code == 1
    assert err.strip() == "Try later. (HTTP 503) (Request-ID: req-9)"
    assert "Traceback" not in err


def test_debug_shows_traceback_and_redacts_secrets(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/detail",
        status_code=503,
        json={"serviceUnavailable": {"code": 503, "message": "Try later."}},
    )
    code, out, err = cli("--debug", "--os-password", PASSWORD, "flavor", "list")
    assert code == 1
    assert "Traceback" in err
    assert "REQ: curl" in err
    assert PASSWORD not in err
    assert TOKEN not in err


def test_redact_masks_bodies_headers_and_args():
    from occli.redaction import redact

    line = (
        '-H "X-Auth-Token: abc123" -d \'{"server": {"adminPass": "Sekrit",'
        ' "name": "vm"}}\' --os-password hunter2 "password": "p"'
    )
    masked = redact(line)
    for secret in ("abc123", "Sekrit", "hunter2", '"p"'):
        assert secret not in masked
    assert '"name": "vm"' in masked
    assert redact("X-Auth-Token: {SHA256}ff00") == "X-Auth-Token: {SHA256}ff00"


def test_token_cache_reused_between_invocations(cli, mock_cloud, tmp_path):
    flavors(mock_cloud.mock)
    assert cli("flavor", "list")[0] == 0
    assert cli("flavor", "list")[0] == 0
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 1
    # the compute version range was cached too: discovered once
    assert (
        len(
            [
                r
                for r in mock_cloud.mock.request_history
                if r.method == "GET" and r.path == "/compute/v2.1"
            ]
        )
        <= 1
    )
    files = list((tmp_path / "cache").rglob("*"))
    cache_files = [f for f in files if f.is_file()]
    assert cache_files
    for f in cache_files:
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600
        assert PASSWORD not in f.read_text()


def test_no_cache_authenticates_every_time(cli, mock_cloud, tmp_path):
    flavors(mock_cloud.mock)
    assert cli("--no-cache", "flavor", "list")[0] == 0
    assert cli("--no-cache", "flavor", "list")[0] == 0
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 2
    assert not (tmp_path / "cache").exists() or not any(
        f.is_file() for f in (tmp_path / "cache").rglob("*")
    )


def test_401_with_cached_token_reauthenticates_once(cli, mock_cloud):
    flavors(mock_cloud.mock)
    assert cli("flavor", "list")[0] == 0
    body = load_fixture("compute", "flavors", "flavors-detail-resp.json")
    mock_cloud.mock.get(
        COMPUTE + "/flavors/detail",
        [
            {
                "status_code": 401,
                "json": {
                    "error": {
                        "code": 401,
                        "title": "Unauthorized",
                        "message": "The request you have made requires authentication.",
                    }
                },
            },
            {"json": body},
        ],
    )
    code, out, err = cli("flavor", "list", "-f", "json")
    assert code == 0, err
    assert len(json.loads(out)) == len(body["flavors"])
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 2


def test_timing_reports_requests_on_stderr(cli, mock_cloud):
    flavors(mock_cloud.mock)
    code, out, err = cli("--timing", "flavor", "list", "-f", "json")
    assert code == 0
    json.loads(out)
    assert "Timing:" in err and "/flavors/detail" in err


def test_version_and_help_and_completion(cli, mock_cloud):
    code, out, err = cli("--version")
    assert code == 0 and "occli" in out + err
    code, out, _ = cli("--help")
    assert code == 0 and "flavor list" in out
    code, out, _ = cli("complete")
    assert code == 0 and "flavor" in out
    assert mock_cloud.mock.request_history == []


def test_global_options_stop_at_the_command_name(cli, mock_cloud):
    code, out, err = cli("flavor", "list", "--help")
    assert code == 0
    assert out.startswith("usage: occli flavor list")
    from occli.shell import OcCLI

    parser = OcCLI().parser
    opts, rest = parser.parse_known_args(
        [
            "--timeout",
            "5",
            "--os-cloud=x",
            "--debug",
            "software",
            "deployment",
            "create",
            "--timeout",
            "9",
            "--debug",
        ]
    )
    assert opts.api_timeout == 5.0 and opts.cloud == "x" and opts.debug
    assert rest == ["software", "deployment", "create", "--timeout", "9", "--debug"]


def test_debug_masks_temp_url_signatures():
    from occli.redaction import redact

    url = "PUT http://h/object-store/v1/AUTH_p/c/o?temp_url_sig=abcdef0123&temp_url_expires=99"
    assert redact(url) == (
        "PUT http://h/object-store/v1/AUTH_p/c/o?temp_url_sig=***&temp_url_expires=99"
    )


def test_redact_masks_secrets_containing_quotes_and_backslashes():
    from occli.redaction import redact

    line = (
        r'-d \'{"server": {"adminPass": "ab\"TAIL1\\", "name": "x\"y"},'
        r' "password": "p\\\"TAIL2"}\''
    )
    masked = redact(line)
    assert "TAIL1" not in masked and "TAIL2" not in masked
    assert r'"name": "x\"y"' in masked


def test_ctrl_c_exits_130_without_traceback(cli, mock_cloud, monkeypatch):
    from occli.v2.compute import flavors

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(flavors.FlavorManager, "iter", interrupted)
    code, out, err = cli("flavor", "list")
    assert code == 130
    assert "Traceback" not in err


def test_malformed_compute_version_is_a_usage_error(cli, mock_cloud):
    code, out, err = cli("--os-compute-api-version", "garbage", "flavor", "list")
    assert code == 2
    assert "Invalid compute API version 'garbage'" in err
    assert mock_cloud.mock.request_history == []
    # outside occli's own range: also a usage error, still before any request
    code, out, err = cli("--os-compute-api-version", "2.99", "flavor", "list")
    assert code == 2
    assert "Compute API version 2.99 is not supported by occli (2.1-2.96)." in err
    assert mock_cloud.mock.request_history == []


def test_log_file_gets_the_redacted_debug_log(cli, mock_cloud, tmp_path):
    flavors(mock_cloud.mock)
    log = tmp_path / "occli.log"
    code, out, err = cli(
        "--log-file", str(log), "--os-password", PASSWORD, "flavor", "list", "-f", "json"
    )
    assert code == 0
    json.loads(out)
    assert "REQ: curl" not in err
    text = log.read_text()
    assert "REQ: curl" in text and "/flavors/detail" in text
    assert PASSWORD not in text and TOKEN not in text


def test_unreachable_cloud_is_one_line(cli, mock_cloud):
    import requests

    from .fakes import AUTH_URL

    refused = requests.exceptions.ConnectionError("Connection refused")
    mock_cloud.mock.get(AUTH_URL, exc=refused)
    mock_cloud.mock.post(AUTH_URL + "/auth/tokens", exc=refused)
    code, out, err = cli("--no-cache", "flavor", "list")
    assert code == 1
    assert len(err.strip().splitlines()) == 1, err
    assert "Cannot reach %s (connection refused)" % AUTH_URL in err


def test_os_compute_api_version_env_applies_with_a_named_cloud(
    cli, mock_cloud, monkeypatch, tmp_path
):
    from .fakes import AUTH_URL

    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(
        "clouds:\n  mine:\n    auth:\n      auth_url: %s\n      username: admin\n"
        "      password: %s\n      project_name: admin\n"
        "      user_domain_id: default\n      project_domain_id: default\n" % (AUTH_URL, PASSWORD)
    )
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(clouds))
    monkeypatch.setenv("OS_CLOUD", "mine")
    monkeypatch.setenv("OS_COMPUTE_API_VERSION", "2.19")
    flavors(mock_cloud.mock)
    code, _, err = cli("flavor", "list")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "GET", "/flavors/detail")[-1]
    assert sent.headers["OpenStack-API-Version"] == "compute 2.19"
    monkeypatch.setenv("OS_COMPUTE_API_VERSION", "two")
    code, _, err = cli("flavor", "list")
    assert code == 2


def test_negative_limit_other_than_minus_one_is_a_usage_error(cli, mock_cloud):
    for argv in (
        ("flavor", "list"),
        ("image", "list"),
        ("server", "list"),
        ("software", "config", "list"),
    ):
        code, _, err = cli(*argv, "--limit", "-5")
        assert code == 2, argv
        assert "use -1 for all" in err
    assert mock_cloud.mock.request_history == []


def test_group_help_lists_its_commands(cli, mock_cloud):
    code, out, err = cli("server", "--help")
    assert code == 0, err
    assert out.startswith('Command "server" matches:')
    assert "  server create\n" in out
    code, out, _ = cli("server", "create", "--help")
    assert code == 0 and out.startswith("usage: occli server create")
    assert mock_cloud.mock.request_history == []


def test_app_help_describes_the_tool_not_the_module(cli, mock_cloud):
    code, out, _ = cli("--help")
    assert code == 0
    assert "occli: OpenStack compute, images, networks, volumes, identity" in out
    assert "cliff App" not in out


def test_redact_keeps_option_hints_readable():
    from occli.redaction import redact

    hint = "password (--os-password / OS_PASSWORD)"
    assert redact(hint) == hint


def test_an_unchanged_cached_token_is_not_rewritten(cli, mock_cloud, tmp_path):
    flavors(mock_cloud.mock)
    assert cli("flavor", "list")[0] == 0
    [entry] = [f for f in (tmp_path / "cache" / "tokens").iterdir()]
    before = os.stat(entry)
    assert cli("flavor", "list")[0] == 0
    after = os.stat(entry)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_open_tokens_directory_warns_once_and_works_without_cache(cli, mock_cloud, tmp_path):
    tokens = tmp_path / "cache" / "tokens"
    tokens.mkdir(parents=True)
    os.chmod(tokens, 0o777)
    flavors(mock_cloud.mock)
    code, out, err = cli("flavor", "list")
    assert code == 0, err
    assert err.splitlines() == [
        "Not using the token cache: %s is writable by other users." % tokens
    ]
    assert cli("flavor", "list")[0] == 0
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 2
    assert list(tokens.iterdir()) == []
    assert stat.S_IMODE(os.stat(tokens).st_mode) == 0o777


def test_redact_masks_user_data_and_action_passwords():
    from occli.redaction import redact

    for body, kept in (
        ('{"server": {"name": "vm", "user_data": "I2Nsb3VkLWNvbmZpZw=="}}', '"name": "vm"'),
        (
            '{"server": {"OS-EXT-SRV-ATTR:user_data": "I2Nsb3VkLWNvbmZpZw=="}}',
            '"OS-EXT-SRV-ATTR:user_data": "***"',
        ),
        ('{"rebuild": {"imageRef": "i", "user_data": "I2Nsb3VkLWNvbmZpZw=="}}', '"imageRef": "i"'),
        ('{"changePassword": {"adminPass": "I2Nsb3VkLWNvbmZpZw=="}}', '"changePassword"'),
        ('{"rescue": {"adminPass": "I2Nsb3VkLWNvbmZpZw=="}}', '"rescue"'),
        ("PUT http://h/v1/AUTH_p/c/o?temp_url_sig%3DI2Nsb3VkLWNvbmZpZw==", "temp_url_sig%3D***"),
    ):
        masked = redact(body)
        assert "I2Nsb3VkLWNvbmZpZw==" not in masked
        assert kept in masked


def test_redact_masks_every_token_header():
    from occli.redaction import redact

    for header in ("X-Auth-Token", "X-Subject-Token", "X-Service-Token", "Authorization"):
        assert redact("%s: gAAAAsecret" % header) == "%s: ***" % header


# the occli program ends its process itself (program.exit_now)


def occli_program(*argv, tmp_path):
    import subprocess
    import sys

    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "OCCLI_CACHE_DIR": str(tmp_path / "cache"),
        "OCCLI_LOCALCLOUD_DIR": str(tmp_path / "lc"),
        "OS_AUTH_URL": "http://127.0.0.1:9/v3",
        "OS_USERNAME": "u",
        "OS_PASSWORD": PASSWORD,
        "OS_PROJECT_NAME": "p",
        "OS_USER_DOMAIN_ID": "default",
        "OS_PROJECT_DOMAIN_ID": "default",
    }
    program = os.path.join(os.path.dirname(sys.executable), "occli")
    return subprocess.run(
        [program] + list(argv), env=env, text=True, capture_output=True, timeout=60
    )


def test_program_exit_keeps_codes_output_and_log_file(tmp_path, capsys, monkeypatch):
    from occli import shell

    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert shell.main(["--help"]) == 0
    in_process = capsys.readouterr().out
    proc = occli_program("--help", tmp_path=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.rstrip().splitlines()[-1] == (in_process.rstrip().splitlines()[-1]), (
        "the whole help was flushed"
    )
    proc = occli_program("server", "list", "--limit", "x", tmp_path=tmp_path)
    assert proc.returncode == 2 and "is not an integer" in proc.stderr
    log = tmp_path / "occli.log"
    proc = occli_program(
        "--log-file", str(log), "--retries", "0", "flavor", "list", tmp_path=tmp_path
    )
    assert proc.returncode == 1
    assert proc.stderr.strip(), "the error line was flushed"
    text = log.read_text()
    assert "127.0.0.1:9" in text and PASSWORD not in text


def test_in_process_main_returns_its_code(cli):
    code, out, err = cli("--version")
    assert code == 0


def test_in_process_main_leaves_the_garbage_collector_alone(cli):
    import gc

    before = gc.get_threshold()
    assert cli("--version")[0] == 0
    assert gc.get_threshold() == before and gc.isenabled()


def test_collections_deferred_while_starting_then_the_usual_ones():
    import gc

    from occli import process

    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        process.defer_collections()
        assert not gc.isenabled()
        process.usual_collections()
        assert gc.isenabled()
        assert gc.get_freeze_count() > frozen, "start-up objects are frozen"
        process.usual_collections()  # once only
        assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_deferring_leaves_a_disabled_collector_to_its_owner():
    import gc

    from occli import process

    gc.disable()
    try:
        process.defer_collections()
        process.usual_collections()
        assert not gc.isenabled(), "who disabled it enables it"
    finally:
        gc.enable()


def test_collections_resume_when_the_command_itself_runs(cli, monkeypatch):
    import gc

    from occli import plugins
    from occli import process

    seen = []
    real = plugins.registry

    def registry(*args):
        seen.append((args, gc.isenabled()))
        return real(*args)

    monkeypatch.setattr(plugins, "registry", registry)
    process.defer_collections()
    try:
        code, out, err = cli("plugin", "list", "-f", "value")
    finally:
        gc.enable()
        gc.unfreeze()
        process._deferred.clear()
    assert code == 0, err
    assert seen[0][1] is False, "registering commands is start-up"
    assert seen[-1] == ((), True), "plugin list ran with collections on"


def test_the_program_module_imports_neither_cliff_nor_keystoneauth1():
    import subprocess
    import sys

    code = (
        "import sys, occli.program\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('cliff', 'keystoneauth1', 'requests', 'occli') and m not in "
        "('occli', 'occli.version', 'occli.program', 'occli.process')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", "collections are deferred before these are imported"
