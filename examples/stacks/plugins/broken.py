"""A plugin whose SDK is not installed: the engine logs a warning naming
this file and goes on without it (a broken plugin never stops Heat)."""

import acme_cloud_sdk  # noqa: F401 - not installed, on purpose


def resource_mapping():
    return {"Acme::Widget": None}
