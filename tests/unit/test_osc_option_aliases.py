"""OSC's option names where occli chose others (python-openstackclient
10.5's ``server create``, ``server resize``, ``security group rule
create``), with OSC's meaning; an unknown option close to a known one
says "did you mean"; the interactive prompt is ``(occli)``."""

import io
import sys

import pytest

from .fakes import IMAGE
from .fakes import NETWORK
from .test_network_commands import GROUP_ID
from .test_network_commands import no_cloud_request
from .test_network_commands import sample as network_sample
from .test_server_commands import IMAGE2_ID
from .test_server_commands import IMAGE_ID
from .test_server_commands import SID
from .test_server_commands import action

# the fixtures of tests/unit/test_server_commands.py, used here by name
from .test_server_commands import boot  # noqa: F401
from .test_server_commands import cloud  # noqa: F401
from .test_server_commands import server_body
from .test_server_commands import servers_sequence


def create(cli, *extra):
    return cli("server", "create", "vm", "--image", "cirros", "--flavor", "m1.tiny", *extra)


@pytest.mark.parametrize(
    "extra, sent",
    [
        (("--password", "s3cret"), {"adminPass": "s3cret"}),
        (("--use-config-drive",), {"config_drive": True}),
        (("--no-config-drive",), {"config_drive": False}),
        (("--no-network",), {"networks": "none"}),
        (("--auto-network",), {"networks": "auto"}),
    ],
)
def test_server_create_takes_oscs_names(cli, boot, extra, sent):  # noqa: F811
    code, out, err = create(cli, *extra, "-f", "json")
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert {k: body.get(k) for k in sent} == sent


def test_no_network_with_a_network_is_refused_as_nic_none(cli, boot):  # noqa: F811
    code, out, err = create(cli, "--no-network", "--network", "private")
    assert (code, out) == (2, "")
    assert "--nic none cannot be combined" in err
    assert not boot.called


def test_server_create_help_names_the_aliases(cli, cloud):  # noqa: F811
    code, out, _ = cli("server", "create", "--help")
    assert code == 0
    for option in ("--password", "--use-config-drive", "--no-config-drive", "--no-network"):
        assert option in out
    assert "--auto-network" in out


@pytest.mark.parametrize(
    "option, body, word",
    [
        ("--confirm", {"confirmResize": None}, "confirm"),
        ("--revert", {"revertResize": None}, "revert"),
    ],
)
def test_server_resize_confirm_and_revert_as_osc(cli, cloud, option, body, word):  # noqa: F811
    post = action(cloud, status_code=204)
    servers_sequence(cloud, server_body(status="VERIFY_RESIZE"))
    code, out, err = cli("server", "resize", SID, option)
    assert code == 0, err
    assert post.last_request.json() == body
    # OSC's deprecation warning, naming occli's command
    assert (
        "The %s option has been deprecated. Please use the 'occli server resize %s' "
        "command instead." % (option, word)
    ) in err


@pytest.mark.parametrize(
    "extra, message",
    [
        ((), "one of the arguments --flavor --confirm --revert is required"),
        (
            ("--flavor", "m1.tiny", "--confirm"),
            "argument --confirm: not allowed with argument --flavor",
        ),
        (("--confirm", "--revert"), "argument --revert: not allowed with argument --confirm"),
    ],
)
def test_server_resize_phases_are_exclusive_and_one_is_required(cli, cloud, extra, message):  # noqa: F811
    post = action(cloud)
    code, out, err = cli("server", "resize", SID, *extra)
    assert (code, out) == (2, "")
    assert message in err
    assert not post.called


@pytest.fixture
def rules(mock_cloud):
    m = mock_cloud.mock
    group = network_sample("security-groups", "security-group-show-response.json")
    m.get(NETWORK + "/v2.0/security-groups/" + GROUP_ID, json=group)
    created = network_sample("security-groups", "security-group-rule-create-response.json")
    return m.post(NETWORK + "/v2.0/security-group-rules", status_code=201, json=created)


def rule_create(cli, *extra):
    return cli("security", "group", "rule", "create", GROUP_ID, *extra)


@pytest.mark.parametrize(
    "extra, low, high",
    [
        (("--protocol", "icmp", "--icmp-type", "8", "--icmp-code", "0"), 8, 0),
        (("--protocol", "ipv6-icmp", "--icmp-type", "128"), 128, None),
        # OSC ignores --dst-port for ICMP (said on stderr here)
        (("--protocol", "icmp", "--dst-port", "22"), None, None),
    ],
)
def test_rule_create_icmp_type_and_code(cli, rules, extra, low, high):
    code, out, err = rule_create(cli, *extra)
    assert code == 0, err
    body = rules.last_request.json()["security_group_rule"]
    assert (body.get("port_range_min"), body.get("port_range_max")) == (low, high)
    assert ("--dst-port is ignored" in err) == ("--dst-port" in extra)


@pytest.mark.parametrize(
    "extra, message",
    [
        (
            ("--protocol", "icmp", "--icmp-type", "8", "--dst-port", "22"),
            "Argument --dst-port not allowed with arguments --icmp-type and --icmp-code",
        ),
        (
            ("--protocol", "icmp", "--icmp-code", "0"),
            "Argument --icmp-type required with argument --icmp-code",
        ),
        (
            ("--protocol", "tcp", "--icmp-type", "8"),
            "ICMP IP protocol required with arguments --icmp-type and --icmp-code",
        ),
    ],
)
def test_rule_create_icmp_errors_are_oscs(cli, mock_cloud, extra, message):
    code, out, err = rule_create(cli, *extra)
    assert (code, out) == (2, "")
    assert message in err
    assert no_cloud_request(mock_cloud.mock)


def test_the_sdk_sends_an_icmp_type_and_code(client, mock_cloud):
    created = network_sample("security-groups", "security-group-rule-create-response.json")
    post = mock_cloud.mock.post(
        NETWORK + "/v2.0/security-group-rules", status_code=201, json=created
    )
    client.security_group_rules.create(GROUP_ID, protocol="icmp", port_range_min=3)
    body = post.last_request.json()["security_group_rule"]
    assert (body["port_range_min"], "port_range_max" in body) == (3, False)


@pytest.mark.parametrize(
    "argv, hint",
    [
        (("server", "list", "--lnog"), "unrecognized arguments: --lnog; did you mean --long?"),
        (
            ("server", "create", "vm", "--image", "cirros", "--flavour", "m1.tiny"),
            "unrecognized --flavour: did you mean --flavor?",
        ),
        (("flavor", "list", "--al"), None),  # an abbreviation argparse takes
    ],
)
def test_an_unknown_option_close_to_a_known_one_says_did_you_mean(cli, cloud, argv, hint):  # noqa: F811
    code, out, err = cli(*argv)
    if hint is None:
        assert code == 0, err
        return
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and hint in err
    assert cloud.mock.request_history == []


def test_an_option_like_nothing_known_gets_no_hint(cli, mock_cloud):
    code, out, err = cli("server", "list", "--zzzzzz")
    assert (code, out) == (2, "")
    assert "did you mean" not in err


@pytest.mark.parametrize("terminal, prompt", [(True, "(occli) "), (False, "")])
def test_the_interactive_prompt_is_occli(cli, monkeypatch, terminal, prompt):
    from occli import shell

    class Stdin(io.StringIO):
        def isatty(self):
            return terminal

    monkeypatch.setattr(sys, "stdin", Stdin())
    app = shell.OcCLI()
    interactive = shell._interactive_app()(app, app.command_manager, io.StringIO(), io.StringIO())
    assert interactive.prompt == prompt  # cmd2 alone: "(Cmd) "


def images_with_properties(mocked):
    mocked.mock.get(
        IMAGE + "/v2/images",
        json={
            "images": [
                {"id": IMAGE_ID, "name": "cirros", "os_distro": "cirros", "hw_rng": "yes"},
                {"id": IMAGE2_ID, "name": "fedora", "os_distro": "fedora", "hw_rng": "yes"},
            ]
        },
    )


def create_by_property(cli, *extra):
    return cli("server", "create", "vm", "--flavor", "m1.tiny", *extra)


def test_image_property_boots_the_image_having_it(cli, boot, cloud):  # noqa: F811
    images_with_properties(cloud)
    code, out, err = create_by_property(
        cli, "--image-property", "os_distro=fedora", "--image-property", "hw_rng=yes"
    )
    assert code == 0, err
    assert boot.last_request.json()["server"]["imageRef"] == IMAGE2_ID
    # several: the first, with OSC's warning
    code, out, err = create_by_property(cli, "--image-property", "hw_rng=yes")
    assert code == 0, err
    assert boot.last_request.json()["server"]["imageRef"] == IMAGE_ID
    assert "Multiple matching images: ['%s', '%s']" % (IMAGE_ID, IMAGE2_ID) in err
    assert "Using image: %s" % IMAGE_ID in err


def test_image_property_matching_nothing_is_oscs_error(cli, boot, cloud):  # noqa: F811
    images_with_properties(cloud)
    code, out, err = create_by_property(cli, "--image-property", "os_distro=windows")
    assert (code, out) == (1, "")
    assert "No images match the property expected by --image-property" in err
    assert not boot.called


def test_image_property_is_a_boot_source_of_its_own(cli, boot):  # noqa: F811
    code, out, err = create_by_property(
        cli, "--image", "cirros", "--image-property", "os_distro=cirros"
    )
    assert (code, out) == (2, "")
    assert "--image and --image-property cannot be combined" in err
    assert not boot.called
