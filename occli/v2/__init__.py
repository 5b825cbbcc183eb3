"""Built-in managers: compute (Nova v2.1), identity (Keystone v3), network
(Neutron v2.0), block storage (Cinder v3), image (Glance v2), orchestration
(Heat v1) and object storage (Swift v1).

:class:`occli.client.Client` declares them as its attributes;
:func:`manager_mapping` shows them to the plugin registry too (the
``occli.managers`` entry point ``builtin``), so that ``plugin list`` lists
them and a plugin cannot take their names.
"""


def manager_mapping() -> dict[str, str]:
    """``{client attribute: "module:Class"}``, imported only when used."""
    from occli.client import Client

    return Client.builtin_managers()
