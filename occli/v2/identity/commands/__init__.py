"""The identity commands: the token and configuration in use, and the
administration of projects, users, roles and domains."""
