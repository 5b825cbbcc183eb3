"""Application credential and access rule commands (Keystone):
``application credential …``, ``access rule …``, with OpenStackClient's
names, options and columns (``openstackclient/identity/v3/
application_credential.py``, ``access_rule.py``).

Both are the caller's own (``/v3/users/<the token's user>/…``), unless
``--user`` names another user for a listing. A credential's secret is
shown once, by ``application credential create``: Keystone keeps only a
hash, and occli neither caches nor logs it (the debug log masks it).

Then ``trust …``, ``credential …`` and ``ec2 credentials …``
(``trust.py``, ``credential.py``, ``ec2creds.py`` of OSC): a credential's
data and an EC2 credential's secret are shown, as OSC shows them, and
masked in the debug log.
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
    """The id of the token's user (a cached token checked first)."""
    return client.checked_token().user_id


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


# -- trusts, credentials and EC2 credentials ----------------------------------
# OSC's openstackclient/identity/v3/trust.py, credential.py and ec2creds.py:
# their names, options and columns. A credential's blob and an EC2
# credential's secret are shown (as OSC shows them) but never logged.

_TRUST_COLUMNS = (
    "expires_at",
    "id",
    "impersonation",
    "project_id",
    "redelegated_trust_id",
    "redelegation_count",
    "remaining_uses",
    "roles",
    "trustee_user_id",
    "trustor_user_id",
)
_CREDENTIAL_COLUMNS = ("blob", "id", "project_id", "type", "user_id")


def _show_trust(trust):
    return columns.show(
        trust,
        _TRUST_COLUMNS,
        formatters=_FORMATTERS,
        rename={"impersonation": "is_impersonation"},
    )


def _trust_user(client, user, domain):
    return client.users.find_resource(user, domain=domain).id


@utils.arg(
    "trustor", metavar="<trustor-user>", help="User that is delegating authorization (name or ID)."
)
@utils.arg(
    "trustee", metavar="<trustee-user>", help="User that is assuming authorization (name or ID)."
)
@utils.arg(
    "--project",
    metavar="<project>",
    required=True,
    help="Project being delegated (name or ID) (required).",
)
@utils.arg(
    "--role",
    metavar="<role>",
    dest="roles",
    action="append",
    default=[],
    required=True,
    help="Roles to authorize (name or ID) (repeat option to set multiple values, required).",
)
@utils.arg(
    "--impersonate",
    dest="is_impersonation",
    action="store_true",
    help="Tokens generated from the trust will represent <trustor> (defaults to False).",
)
@utils.arg(
    "--expiration",
    metavar="<expiration>",
    help="Sets an expiration date for the trust (format of YYYY-mm-ddTHH:MM:SS).",
)
@utils.arg(
    "--project-domain",
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID).",
)
@utils.arg(
    "--trustor-domain",
    metavar="<trustor-domain>",
    help="Domain that contains <trustor> (name or ID).",
)
@utils.arg(
    "--trustee-domain",
    metavar="<trustee-domain>",
    help="Domain that contains <trustee> (name or ID).",
)
@utils.output("show")
def do_trust_create(client, args):
    """Create a trust: the trustee may act with the roles on the project.

    Example: occli trust create --project demo --role member demo alt
    """
    expires_at = _expiration(args.expiration) if args.expiration else None
    trust = client.trusts.create(
        _trust_user(client, args.trustor, args.trustor_domain),
        _trust_user(client, args.trustee, args.trustee_domain),
        client.projects.find_resource(args.project, domain=args.project_domain).id,
        [{"id": client.roles.find_resource(r).id} for r in args.roles],
        impersonation=args.is_impersonation,
        expires_at=expires_at,
    )
    return _show_trust(trust)


@utils.arg("trusts", metavar="<trust>", nargs="+", help="Trust(s) to delete.")
def do_trust_delete(client, args):
    """Delete trusts; the tokens obtained through them stop working.

    Example: occli trust delete 9d3e5ee1b0b34b2e8d1b3c9f5f6f1a2b
    """
    return utils.for_each(
        args.trusts, lambda t: client.trusts.delete(client.trusts.find_resource(t)), "delete trust"
    )


@utils.arg("--trustor", metavar="<trustor-user>", help="Trustor user to filter (name or ID).")
@utils.arg("--trustee", metavar="<trustee-user>", help="Trustee user to filter (name or ID).")
@utils.arg(
    "--trustor-domain",
    metavar="<trustor-domain>",
    help="Domain that contains <trustor> (name or ID).",
)
@utils.arg(
    "--trustee-domain",
    metavar="<trustee-domain>",
    help="Domain that contains <trustee> (name or ID).",
)
@utils.arg(
    "--auth-user",
    action="store_true",
    dest="authuser",
    help="Only list trusts related to the authenticated user.",
)
@utils.output("list")
def do_trust_list(client, args):
    """List trusts (all of them for an admin; --auth-user: yours).

    Example: occli trust list --auth-user
    """
    if args.authuser and any(
        (args.trustor, args.trustor_domain, args.trustee, args.trustee_domain)
    ):
        raise exceptions.CommandError("--authuser cannot be used with --trustee or --trustor")
    if args.trustee_domain and not args.trustee:
        raise exceptions.CommandError("Using --trustee-domain mandates the use of --trustee")
    if args.trustor_domain and not args.trustor:
        raise exceptions.CommandError("Using --trustor-domain mandates the use of --trustor")
    if args.authuser:
        me = _me(client)
        found = {t.id: t for t in client.trusts.iter(trustor=me)}
        found.update({t.id: t for t in client.trusts.iter(trustee=me)})
        trusts = list(found.values())
    else:
        trustor = args.trustor and _trust_user(client, args.trustor, args.trustor_domain)
        trustee = args.trustee and _trust_user(client, args.trustee, args.trustee_domain)
        trusts = client.trusts.iter(trustor=trustor or None, trustee=trustee or None)
    return columns.table(
        trusts,
        ("id", "expires_at", "impersonation", "project_id", "trustee_user_id", "trustor_user_id"),
        headers=(
            "ID",
            "Expires At",
            "Impersonation",
            "Project ID",
            "Trustee User ID",
            "Trustor User ID",
        ),
    )


@utils.arg("trust", metavar="<trust>", help="Trust to display.")
@utils.output("show")
def do_trust_show(client, args):
    """Show a trust (its trustor's, its trustee's or an admin's).

    Example: occli trust show 9d3e5ee1b0b34b2e8d1b3c9f5f6f1a2b
    """
    return _show_trust(client.trusts.find_resource(args.trust))


def _show_credential(credential):
    return columns.show(credential, _CREDENTIAL_COLUMNS)


def _project_id(client, project):
    return client.projects.find_resource(project).id if project else None


@utils.arg("user", metavar="<user>", help="User that owns the credential (name or ID).")
@utils.arg(
    "--type",
    default="cert",
    metavar="<type>",
    help="New credential type: cert, ec2, totp and so on.",
)
@utils.arg("data", metavar="<data>", help="New credential data.")
@utils.arg(
    "--project",
    metavar="<project>",
    help="Project which limits the scope of the credential (name or ID).",
)
@utils.output("show")
def do_credential_create(client, args):
    """Create a credential: a user's secret (a certificate, a TOTP seed…).

    An ec2 credential's data is a JSON object with access and secret and
    needs --project.

    Example: occli credential create --type totp demo GEZDGNBVGY3TQOJQ
    """
    credential = client.credentials.create(
        client.users.find_resource(args.user).id,
        args.type,
        args.data,
        project=_project_id(client, args.project),
    )
    return _show_credential(credential)


@utils.arg(
    "credentials", metavar="<credential-id>", nargs="+", help="ID of credential(s) to delete."
)
def do_credential_delete(client, args):
    """Delete credentials.

    Example: occli credential delete 7f0a3b1c9d2e4f5a8b6c7d8e9f0a1b2c
    """
    return utils.for_each(args.credentials, client.credentials.delete, "delete credential")


@utils.arg("--user", metavar="<user>", help="Filter credentials by <user> (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.arg(
    "--type", metavar="<type>", help="Filter credentials by type: cert, ec2, totp and so on."
)
@utils.output("list")
def do_credential_list(client, args):
    """List the credentials you may read (--user's, of --type).

    Example: occli credential list --type ec2
    """
    user = client.users.find_resource(args.user, domain=args.user_domain).id if args.user else None
    return columns.table(
        client.credentials.iter(user=user, type=args.type),
        ("id", "type", "user_id", "blob", "project_id"),
        headers=("ID", "Type", "User ID", "Data", "Project ID"),
    )


@utils.arg("credential", metavar="<credential-id>", help="ID of credential to change.")
@utils.arg(
    "--user", metavar="<user>", required=True, help="User that owns the credential (name or ID)."
)
@utils.arg(
    "--type",
    metavar="<type>",
    required=True,
    help="New credential type: cert, ec2, totp and so on.",
)
@utils.arg("--data", metavar="<data>", required=True, help="New credential data.")
@utils.arg(
    "--project",
    metavar="<project>",
    help="Project which limits the scope of the credential (name or ID).",
)
def do_credential_set(client, args):
    """Set a credential's owner, type and data.

    Example: occli credential set --user demo --type cert --data "$(cat cert.pem)" 7f0a3b1c9d2e
    """
    client.credentials.update(
        args.credential,
        user=client.users.find_resource(args.user).id,
        type=args.type,
        blob=args.data,
        project=_project_id(client, args.project),
    )


@utils.arg("credential", metavar="<credential-id>", help="ID of credential to display.")
@utils.output("show")
def do_credential_show(client, args):
    """Show a credential, its data included.

    Example: occli credential show 7f0a3b1c9d2e4f5a8b6c7d8e9f0a1b2c
    """
    return _show_credential(client.credentials.get(args.credential))


def _ec2_user(client, args):
    """OSC's ``_determine_ec2_user``: --user (in --user-domain), else you."""
    return _user_id(client, args.user, args.user_domain)


def _show_ec2(cred):
    info = {k: v for k, v in cred.to_dict().items() if k != "links"}
    info["project_id"] = info.pop("tenant_id", None)
    return columns.show(info)


@utils.arg(
    "--project",
    metavar="<project>",
    help="Create credentials in project (name or ID; default: current authenticated project).",
)
@utils.arg(
    "--user",
    metavar="<user>",
    help="Create credentials for user (name or ID; default: current authenticated user).",
)
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.arg("--project-domain", metavar="<project-domain>", help="Domain the project belongs to.")
@utils.output("show")
def do_ec2_credentials_create(client, args):
    """Create EC2 credentials: an access key and its secret, shown here.

    Example: occli ec2 credentials create --project demo
    """
    if args.project:
        project = client.projects.find_resource(args.project, domain=args.project_domain).id
    else:
        project = client.checked_token().project_id
    return _show_ec2(client.ec2_credentials.create(_ec2_user(client, args), project))


@utils.arg("access_keys", metavar="<access-key>", nargs="+", help="Credentials access key(s).")
@utils.arg("--user", metavar="<user>", help="Delete credentials for user (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
def do_ec2_credentials_delete(client, args):
    """Delete EC2 credentials by access key.

    Example: occli ec2 credentials delete 0e3b5a9c1d7f4e2a8b6c4d2e0f1a3b5c
    """
    user = _ec2_user(client, args)
    return utils.for_each(
        args.access_keys,
        lambda key: client.ec2_credentials.delete(user, key),
        "delete EC2 credentials with access key",
    )


@utils.arg("--user", metavar="<user>", help="Filter list by user (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.output("list")
def do_ec2_credentials_list(client, args):
    """List EC2 credentials (yours, or --user's), their secrets included.

    Example: occli ec2 credentials list
    """
    return columns.table(
        client.ec2_credentials.list(_ec2_user(client, args)),
        ("access", "secret", "tenant_id", "user_id"),
        headers=("Access", "Secret", "Project ID", "User ID"),
    )


@utils.arg("access_key", metavar="<access-key>", help="Credentials access key.")
@utils.arg("--user", metavar="<user>", help="Show credentials for user (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain the user belongs to.")
@utils.output("show")
def do_ec2_credentials_show(client, args):
    """Show EC2 credentials, the secret included.

    Example: occli ec2 credentials show 0e3b5a9c1d7f4e2a8b6c4d2e0f1a3b5c
    """
    return _show_ec2(client.ec2_credentials.get(_ec2_user(client, args), args.access_key))
