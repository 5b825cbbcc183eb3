"""What a newcomer hits first (issue 15): usage errors, help texts, errors
that say what to do next."""

import pytest

USAGE_ERRORS = [
    (["server", "set", "vm1"], "--name"),
    (["server", "create", "v", "--flavor", "m1.tiny"], "--image"),
    (["software", "deployment", "create", "d", "--config", "c",
      "--server", "s", "--input-value", "bad"], "--input-value"),
    (["server", "create", "v", "--flavor", "m1.tiny", "--image", "i",
      "--user-data", "/nope"], "--user-data"),
    (["server", "create", "v", "--flavor", "m1.tiny", "--image", "i",
      "--min", "3", "--max", "2"], "--min"),
    (["server", "list", "-c", "nosuch"], "-c"),
    (["compute", "service", "set", "h", "s"], "--enable"),
]


@pytest.mark.parametrize("argv,option", USAGE_ERRORS,
                         ids=[" ".join(a[:3]) + "-" + o
                              for a, o in USAGE_ERRORS])
def test_usage_error_exits_2_with_one_line(cli, requests_mock, argv, option):
    code, out, err = cli(*argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert option in lines[0]
    assert "usage:" not in err
    assert requests_mock.request_history == []
