"""Value checks shared by compute's rules and its API layer."""

import uuid

# SQLite's INTEGER range: a larger Python int cannot even be bound
SQL_INT_MIN, SQL_INT_MAX = -(2**63), 2**63 - 1
# oslo ``bool_from_string`` truths among the values nova's schemas accept
_TRUE = (True, "True", "TRUE", "true", "1", "ON", "On", "on", "YES", "Yes", "yes")


def is_uuid(value):
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def sql_int(value):
    """Whether the int ``value`` fits an SQLite INTEGER."""
    return SQL_INT_MIN <= value <= SQL_INT_MAX


def truthy(value):
    """A request's boolean (``True``, ``"yes"``, …) as nova reads it."""
    return value in _TRUE
