"""The local cloud's one validation helper (``occli/localcloud/validation.py``):
its format checker, its cached validators, the error each service reports
and its text, the shared coercions, and that no other module builds a
jsonschema checker or validator of its own."""

import ast
import pathlib
import subprocess
import sys

import pytest

from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.compute.api import schemas as compute_schemas
from occli.localcloud.microversions import APIVersion

ROOT = pathlib.Path(__file__).resolve().parents[3]
OCCLI = ROOT / "occli"
HELPER = OCCLI / "localcloud" / "validation.py"


def _builds(node):
    """Whether ``node`` calls ``FormatChecker`` or a ``Draft…Validator``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == "FormatChecker" or (name.startswith("Draft") and name.endswith("Validator"))


def _imports(node):
    """Whether ``node`` imports jsonschema or one of its modules."""
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "jsonschema" for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "jsonschema"


def jsonschema_uses(source):
    """The sorted lines where ``source`` builds a jsonschema checker or
    validator or imports jsonschema."""
    return sorted(
        node.lineno for node in ast.walk(ast.parse(source)) if _builds(node) or _imports(node)
    )


def test_the_scan_sees_a_checker_a_validator_and_an_import():
    source = (
        "import jsonschema\n"
        "checker = jsonschema.FormatChecker()\n"
        "v = jsonschema.Draft7Validator({}, format_checker=checker)\n"
        "from jsonschema import Draft4Validator\n"
        "w = Draft4Validator({})\n"
    )
    assert jsonschema_uses(source) == [1, 2, 3, 4, 5]


def test_only_the_helper_uses_jsonschema():
    found = []
    for path in sorted(OCCLI.rglob("*.py")):
        if path == HELPER:
            continue
        for line in jsonschema_uses(path.read_text(encoding="utf-8")):
            found.append("%s:%d" % (path.relative_to(ROOT).as_posix(), line))
    assert found == [], "validate through occli.localcloud.validation"
    assert jsonschema_uses(HELPER.read_text(encoding="utf-8"))


def test_importing_the_helper_and_the_schemas_does_not_import_jsonschema():
    code = (
        "import sys\n"
        "import occli.localcloud.validation\n"
        "import occli.localcloud.compute.api.schemas\n"
        "import occli.localcloud.volume.schemas\n"
        "import occli.localcloud.identity.admin_schemas\n"
        "print('jsonschema' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("uuid", "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "1b4e28ba-2fa1-11d2-883f"),
        ("uuid", "{1b4e28ba2fa111d2883f0016d3cca427}", "not-a-uuid"),
        ("name", "web 1", " web"),
        ("name", "web", "web\n"),
        ("az_name", "zone-1", "zone:1"),
        ("name_or_description", "  %s  " % ("x" * 255), "x" * 256),
        ("base64", "aGVsbG8=", "aGVsbG8"),
        ("ipv4", "192.0.2.1", "192.0.2.256"),
        ("ipv6", "2001:db8::1", "2001:db8::g"),
        ("hostname", "web-1", "-web"),
        ("fqdn", "web-1.example.org", "web_1.example.org"),
    ],
)
def test_the_format_checker_holds_every_service_format(name, good, bad):
    checker = validation.format_checker()
    assert checker.conforms(good, name)
    assert not checker.conforms(bad, name)
    # not a string: the schema's ``type`` refuses it, not the format
    assert checker.conforms(42, name)


def test_the_format_checker_keeps_jsonschema_formats():
    # nova's server list query schema checks ``format: regex``
    assert validation.format_checker().conforms("^a.*", "regex")
    assert not validation.format_checker().conforms("(", "regex")
    assert validation.format_checker() is validation.format_checker()


def test_a_validator_is_built_once_per_schema_and_draft():
    schema = {"type": "object"}
    first = validation.validator(schema)
    assert validation.validator(schema) is first
    assert validation.validator(dict(schema)) is not first
    newer = validation.validator(schema, validation.DRAFT2020_12)
    assert newer is not first
    assert validation.validator(schema, validation.DRAFT2020_12) is newer
    assert type(first).__name__ == "Draft4Validator"
    assert type(newer).__name__ == "Draft202012Validator"


def test_a_versioned_compute_schema_is_built_once_per_version():
    version = APIVersion("2.94")
    assert compute_schemas.server_create(version) is compute_schemas.server_create(version)
    assert compute_schemas.server_create(version) is not compute_schemas.server_create(
        APIVersion("2.1")
    )


_SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["b"]}


def test_nova_and_keystone_report_the_first_error_cinder_the_best_match():
    with pytest.raises(errors.BadRequest) as first:
        validation.check(_SCHEMA, {"a": "x"})
    assert first.value.message == (
        "Invalid input for field/attribute a. Value: x. 'x' is not of type 'integer'"
    )
    with pytest.raises(errors.BadRequest) as best:
        validation.check(_SCHEMA, {"a": "x"}, order=validation.BEST)
    assert best.value.message == "'b' is a required property"


def test_a_valid_body_is_returned_as_is():
    body = {"a": 1, "b": None}
    assert validation.check(_SCHEMA, body) is body
    assert validation.first_error(_SCHEMA, body, validation.BEST) is None


def test_keystone_older_text_is_jsonschema_whole_text():
    password = {"type": "string"}
    schema = {"type": "object", "properties": {"user": {"properties": {"password": password}}}}
    with pytest.raises(errors.BadRequest) as nested:
        validation.check(schema, {"user": {"password": 1}}, text=validation.path_text)
    assert nested.value.message.startswith(
        "Invalid input for field 'user/password': 1 is not of type 'string'\n\n"
        "Failed validating 'type' in schema"
    )
    with pytest.raises(errors.BadRequest) as top:
        validation.check({"type": "string"}, 3, text=validation.path_text)
    assert top.value.message.startswith("3 is not of type 'string'\n\nFailed validating")


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        (True, True),
        (False, False),
        (" YES ", True),
        ("t", True),
        ("On", True),
        (1, True),
        ("n", False),
        ("OFF", False),
        (0, False),
    ],
)
def test_bool_from_string_reads_oslo_strings(subject, expected):
    assert validation.bool_from_string(subject) is expected
    assert validation.bool_from_string(subject, strict=True) is expected


def test_bool_from_string_unknown_text_is_the_default_or_oslo_error():
    assert validation.bool_from_string("maybe") is False
    assert validation.bool_from_string(None, default=True) is True
    assert validation.bool_from_string("", default=True) is True
    with pytest.raises(ValueError) as raised:
        validation.bool_from_string(" maybe", strict=True)
    assert str(raised.value) == (
        "Unrecognized value ' maybe', acceptable values are: '0', '1', 'f', 'false', 'n',"
        " 'no', 'off', 'on', 't', 'true', 'y', 'yes'"
    )
    with pytest.raises(ValueError, match="^Unrecognized value 'None'"):
        validation.bool_from_string(None, strict=True)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1b4e28ba-2fa1-11d2-883f-0016d3cca427", True),
        ("1B4E28BA2FA111D2883F0016D3CCA427", True),
        ("urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427", True),
        ("1b4e28ba-2fa1-11d2-883f-0016d3cca42", False),
        (None, False),
        (12, False),
    ],
)
def test_is_uuid_parses_like_uuid_uuid(value, expected):
    assert validation.is_uuid(value) is expected
