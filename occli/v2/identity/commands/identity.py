"""Identity commands: the token in use, revoking a token and the resolved
configuration."""

from occli import columns
from occli import exceptions
from occli import utils


@utils.output("show")
def do_token_issue(client, args):
    """Show a token for scripts (the cached one while it is valid).

    Example: occli token issue -f value -c id
    """
    access = client.checked_token()  # never a deleted user's cached token
    token = {
        "id": access.auth_token,
        "expires": access.expires.isoformat() if access.expires else None,
        "project_id": access.project_id,
        "user_id": access.user_id,
    }
    if access.system_scoped:
        # OSC's IssueToken: keystone's one system scope is "all"
        token["system"] = "all"
    return columns.show(token, columns=tuple(sorted(token)))


@utils.arg("token", metavar="<token>", help="Token to revoke.")
def do_token_revoke(client, args):
    """Revoke a token: every service refuses it at once (yours, or any as admin).

    Example: occli token revoke "$TOKEN"
    """
    session = client.session
    in_use = session.auth.get_access(session).auth_token == args.token
    client.tokens.revoke(args.token)
    if in_use:
        client.forget_token()  # not cached for the next command


@utils.output("show")
def do_configuration_show(client, args):
    """Show the resolved cloud configuration, secrets masked (no request).

    Example: occli --os-cloud mycloud configuration show
    """
    cc = client.cloud_config
    if cc is None:
        raise exceptions.CommandError(
            "The client was given a session; there is no configuration to show."
        )
    info = {"auth." + k: v for k, v in cc.masked_auth().items()}
    info.update(
        {
            "cloud": cc.name or None,
            "auth_type": cc.auth_type,
            "region_name": cc.region_name,
            "interface": cc.interface,
            "compute_api_version": client.requested_compute_version,
            "source_files": cc.source_files,
            "ignored_env": cc.ignored_env,
        }
    )
    return columns.show(info)
