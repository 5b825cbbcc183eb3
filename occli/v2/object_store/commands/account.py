"""Swift account commands: ``object store account …``, with
python-openstackclient's names, options and columns
(openstackclient/object/v1/account.py)."""

from occli import columns
from occli import utils
from occli.v2.object_store.commands.containers import set_property_option
from occli.v2.object_store.commands.containers import unset_property_option


@set_property_option("account")
@utils.option_names(properties="--property")
def do_object_store_account_set(client, args):
    """Set account properties.

    Example: occli object store account set --property team=web
    """
    client.object_store.set_account_properties(dict(args.properties))


@utils.output("show")
def do_object_store_account_show(client, args):
    """Display account details.

    Example: occli object store account show
    """
    return columns.show(client.object_store.show_account())


@unset_property_option("account")
@utils.option_names(properties="--property")
def do_object_store_account_unset(client, args):
    """Unset account properties.

    Example: occli object store account unset --property team
    """
    client.object_store.unset_account_properties(args.properties)
