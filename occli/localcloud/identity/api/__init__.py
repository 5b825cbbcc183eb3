"""Keystone's HTTP edge: :mod:`.service` holds ``IdentityService``,
:mod:`.admin` the admin API's routes and views."""
