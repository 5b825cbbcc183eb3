"""occli-plugin-hello: an example occli plugin (commands and a manager)."""

__version__ = "1.0"
