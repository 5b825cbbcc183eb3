"""SQL lives only in the local cloud's rules modules.

The HTTP layer (every service's ``api.py`` or ``api/`` package,
``app.py``) and the public test plugin
(``occli/testing``) reach the database only through rule functions: no
call of a method named ``execute``/``executemany``/``executescript`` and
no SQL statement in a string.
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
LOCALCLOUD = ROOT / "occli" / "localcloud"
# (file relative to ROOT, line) allowed to run SQL anyway: none
ALLOWED: set = set()
SQL_CALLS = ("execute", "executemany", "executescript")
SQL_TEXT = re.compile(
    r"\bSELECT\b.*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b"
    r"|\bDELETE\s+FROM\b|\b(CREATE|DROP|ALTER)\s+(TABLE|INDEX|TRIGGER)\b|\bPRAGMA\s+\w+",
    re.S,
)


def http_and_plugin_modules():
    """The modules that must hold no SQL, sorted."""
    found = set(LOCALCLOUD.glob("**/api.py"))
    found |= set(LOCALCLOUD.glob("**/*_api.py"))
    found |= set(LOCALCLOUD.glob("*/api/*.py"))
    found.add(LOCALCLOUD / "app.py")
    found |= set((ROOT / "occli" / "testing").glob("*.py"))
    return sorted(found)


def sql_uses(source):
    """``[(line, what)]`` of the SQL calls and SQL texts in ``source``."""
    uses = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in SQL_CALLS
        ):
            uses.append((node.lineno, "call of .%s()" % node.func.attr))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQL_TEXT.search(node.value)
        ):
            uses.append((node.lineno, "SQL text %r" % node.value[:60]))
    return uses


def test_the_scan_covers_the_http_layer_and_the_plugin():
    names = {p.relative_to(ROOT).as_posix() for p in http_and_plugin_modules()}
    for expected in (
        "occli/localcloud/app.py",
        "occli/localcloud/network/api/service.py",
        "occli/localcloud/compute/api/network_proxies.py",
        "occli/localcloud/compute/api/service.py",
        "occli/localcloud/identity/api/service.py",
        "occli/localcloud/volume/api/service.py",
        "occli/testing/cloud.py",
    ):
        assert expected in names


@pytest.mark.parametrize(
    "source, found",
    [
        ('db.execute("SELECT 1 FROM servers")', 2),
        ("req.db.executemany(sql, rows)", 1),
        ("conn.executescript(script)", 1),
        ('sql = "UPDATE servers SET host = ? WHERE id = ?"', 1),
        ('sql = "INSERT OR IGNORE INTO t (a) VALUES (?)"', 1),
        ('"DELETE FROM network_ports"', 1),
        ('"Select a server from the list"', 0),
        ("rules.execute_plan(db)", 0),
    ],
)
def test_the_scan_finds_sql_calls_and_texts(source, found):
    assert len(sql_uses(source)) == found


@pytest.mark.parametrize(
    "path", http_and_plugin_modules(), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_sql_outside_rules_modules(path):
    name = path.relative_to(ROOT).as_posix()
    uses = [
        "%s:%d: %s" % (name, line, what)
        for line, what in sql_uses(path.read_text(encoding="utf-8"))
        if (name, line) not in ALLOWED
    ]
    assert uses == [], "SQL outside the rules modules (move it into a rule function)"
