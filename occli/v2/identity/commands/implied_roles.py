"""Implied role commands (Keystone): ``implied role …``, with
OpenStackClient's names, options and columns
(``openstackclient/identity/v3/implied_role.py``). Roles are named by name
or id; creating and deleting a rule needs the admin role."""

from occli import utils

# OSC's ListImpliedRole._COLUMNS
_LIST_HEADERS = ("Prior Role ID", "Prior Role Name", "Implied Role ID", "Implied Role Name")


def _rule_options(func):
    func = utils.arg(
        "--implied-role",
        metavar="<role>",
        required=True,
        help="Role implied by <role> (name or ID).",
    )(func)
    return utils.arg("role", metavar="<role>", help="Role implying another (name or ID).")(func)


def _roles(client, args):
    return client.roles.find_resource(args.role), client.roles.find_resource(args.implied_role)


@_rule_options
@utils.output("show")
def do_implied_role_create(client, args):
    """Make a role imply another: its holders get both (admin).

    Example: occli implied role create operator --implied-role reader
    """
    rule = client.inference_rules.create(*_roles(client, args))
    info = rule.to_dict()
    # OSC: the two roles' ids, by key
    return ("implies", "prior_role"), (info["implies"]["id"], info["prior_role"]["id"])


@_rule_options
def do_implied_role_delete(client, args):
    """Stop a role implying another (admin).

    Example: occli implied role delete operator --implied-role reader
    """
    client.inference_rules.delete(*_roles(client, args))


@utils.output("list")
def do_implied_role_list(client, args):
    """List which roles imply which (admin or system reader).

    Example: occli implied role list
    """
    rows = [
        (rule.prior_role["id"], rule.prior_role["name"], implied["id"], implied["name"])
        for rule in client.inference_rules.iter()
        for implied in rule.implies
    ]
    return _LIST_HEADERS, rows
