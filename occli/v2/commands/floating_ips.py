"""Floating IP commands: ``floating ip list/create/delete``."""
