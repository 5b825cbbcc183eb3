"""Application credential and access rule commands (Keystone):
``application credential …``, ``access rule …``, with OpenStackClient's
names, options and columns (``openstackclient/identity/v3/
application_credential.py``, ``access_rule.py``).

Both are the caller's own (``/v3/users/<the token's user>/…``), unless
``--user`` names another user for a listing. A credential's secret is
shown once, by ``application credential create``: Keystone keeps only a
hash, and occli neither caches nor logs it (the debug log masks it).
"""

import datetime
import json
import uuid

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils

# OSC's _format_application_credential, keys and headers
_CRED_COLUMNS = (
    "id",
    "name",
    "description",
    "project_id",
    "roles",
    "unrestricted",
    "access_rules",
    "expires_at",
)
_CRED_HEADERS = (
    "ID",
    "Name",
    "Description",
    "Project ID",
    "Roles",
    "Unrestricted",
    "Access Rules",
    "Expires At",
)
_BAD_RULES = "Access rules is not valid JSON string or file does not exist."


class RolesColumn(cliff_columns.FormattableColumn):
    """OSC's RolesColumn: the role names, comma-separated."""

    def human_readable(self):
        return ", ".join(r["name"] for r in self._value or ())

    def machine_readable(self):
        return self._value


_FORMATTERS = {"roles": RolesColumn}


def _me(client):
    """The id of the token's user."""
    return client.session.auth.get_access(client.session).user_id


def _user_id(client, user, domain):
    if user is None:
        return _me(client)
    return client.users.find_resource(user, domain=domain).id


def _role_ref(role):
    """OSC's ``{"id"}`` for a UUID-like role, else ``{"name"}``."""
    try:
        uuid.UUID(role)
    except ValueError:
        return {"name": role}
    return {"id": role}


def _access_rules(value):
    """OSC's ``--access-rules``: a JSON list, or the path of a file of one."""
    try:
        return json.loads(value)
    except ValueError:
        pass
    try:
        with open(value) as f:
            return json.load(f)
    except (OSError, ValueError):
        raise exceptions.CommandError(_BAD_RULES) from None


def _expiration(value):
    try:
        return datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        raise exceptions.ValidationError(
            "--expiration %r is not of the form YYYY-mm-ddTHH:MM:SS." % value
        ) from None


def _show(cred, secret=False):
    keys: tuple[str, ...] = _CRED_COLUMNS
    headers: tuple[str, ...] = _CRED_HEADERS
    if secret:
        keys, headers = keys + ("secret",), headers + ("Secret",)
    return columns.show(
        cred, keys, formatters=_FORMATTERS, rename=dict(zip(keys, headers, strict=True))
    )


@utils.arg("name", metavar="<name>", help="Name of the application credential.")
@utils.arg(
    "--secret",
    metavar="<secret>",
    help="Secret to use for authentication (if not provided, one will be generated).",
)
@utils.arg(
    "--role",
    metavar="<role>",
    dest="roles",
    action="append",
    default=[],
    help="Roles to authorize (name or ID) (repeat option to set multiple values).",
)
@utils.arg(
    "--expiration",
    metavar="<expiration>",
    help="Sets an expiration date for the application credential, format of"
    " YYYY-mm-ddTHH:MM:SS (if not provided, the application credential will not expire).",
)
@utils.arg("--description", metavar="<description>", help="Application credential description.")
@utils.arg(
    "--unrestricted",
    action="store_true",
    help="Enable application credential to create and delete other application"
    " credentials and trusts (this is potentially dangerous behavior and is disabled"
    " by default).",
)
@utils.arg(
    "--restricted",
    action="store_true",
    help="Prohibit application credential from creating and deleting other application"
    " credentials and trusts (this is the default behavior).",
)
@utils.arg(
    "--access-rules",
    metavar="<access-rules>",
    help="Either a string or file path containing a JSON-formatted list of access rules,"
    " each containing a request method, path, and service, for example"
    ' \'[{"method": "GET", "path": "/v2.1/servers", "service": "compute"}]\'.',
)
@utils.output("show")
def do_application_credential_create(client, args):
    """Create an application credential for the token's project.

    Its secret (generated unless --secret gives one) is shown this once.

    Example: occli application credential create --role reader --access-rules rules.json monitoring
    """
    rules = _access_rules(args.access_rules) if args.access_rules else None
    expires_at = _expiration(args.expiration) if args.expiration else None
    cred = client.application_credentials.create(
        _me(client),
        args.name,
        secret=args.secret,
        roles=[_role_ref(r) for r in args.roles] or None,
        expires_at=expires_at,
        description=args.description,
        unrestricted=args.unrestricted and not args.restricted,
        access_rules=rules,
    )
    return _show(cred, secret=True)


@utils.arg(
    "application_credentials",
    metavar="<application-credential>",
    nargs="+",
    help="Application credentials(s) to delete (name or ID).",
)
def do_application_credential_delete(client, args):
    """Delete application credentials; the tokens obtained with them stop working.

    Example: occli application credential delete monitoring
    """
    user_id = _me(client)
    creds = client.application_credentials
    return utils.for_each(
        args.application_credentials,
        lambda c: creds.delete(user_id, creds.find_resource(user_id, c)),
        "delete application credential",
    )


@utils.arg("--user", metavar="<user>", help="User whose application credentials to list.")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.output("list")
def do_application_credential_list(client, args):
    """List application credentials (yours, or --user's).

    Example: occli application credential list
    """
    user_id = _user_id(client, args.user, args.user_domain)
    return columns.table(
        client.application_credentials.iter(user_id),
        _CRED_COLUMNS,
        headers=_CRED_HEADERS,
        formatters=_FORMATTERS,
    )


@utils.arg(
    "application_credential",
    metavar="<application-credential>",
    help="Application credential to display (name or ID).",
)
@utils.output("show")
def do_application_credential_show(client, args):
    """Show one of your application credentials (never its secret).

    Example: occli application credential show monitoring
    """
    user_id = _me(client)
    return _show(
        client.application_credentials.find_resource(user_id, args.application_credential)
    )


@utils.arg("--user", metavar="<user>", help="User whose access rules to list (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.output("list")
def do_access_rule_list(client, args):
    """List access rules (yours, or --user's).

    Example: occli access rule list
    """
    user_id = _user_id(client, args.user, args.user_domain)
    return columns.table(
        client.access_rules.iter(user_id),
        ("id", "service", "method", "path"),
        headers=("ID", "Service", "Method", "Path"),
    )


@utils.arg("access_rule", metavar="<access-rule>", help="Access rule ID to display.")
@utils.output("show")
def do_access_rule_show(client, args):
    """Show one of your access rules.

    Example: occli access rule show 5d5ad49c3f2c4d6b9a0e1a4f33f0f1b2
    """
    keys = ("id", "method", "path", "service")
    headers = ("ID", "Method", "Path", "Service")
    rule = client.access_rules.get(_me(client), args.access_rule)
    return columns.show(rule, keys, rename=dict(zip(keys, headers, strict=True)))


@utils.arg("access_rules", metavar="<access-rule>", nargs="+", help="Access rule ID(s) to delete.")
def do_access_rule_delete(client, args):
    """Delete access rules no application credential uses any more.

    Example: occli access rule delete 5d5ad49c3f2c4d6b9a0e1a4f33f0f1b2
    """
    user_id = _me(client)
    return utils.for_each(
        args.access_rules, lambda r: client.access_rules.delete(user_id, r), "delete access rule"
    )
