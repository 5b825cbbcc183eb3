"""What the real Nova answered (``tests/fixtures/compute/realcloud/``), for
tests comparing the local cloud's answers with it."""

from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture


class Recorded:
    """The exchanges of one recording: ``rec[key]`` is ``{"request",
    "user", "status", "body"}``; ``ids`` the real cloud's ids."""

    def __init__(self, name):
        data = load_fixture("compute", "realcloud", name)
        self.exchanges = data["exchanges"]
        self.ids = data["ids"]

    def __getitem__(self, key):
        return self.exchanges[key]

    def fault(self, key, replace=()):
        """``(status, fault name, message)`` of a recorded error, with the
        real ids in the message replaced (``replace``: pairs)."""
        exchange = self.exchanges[key]
        ((name, body),) = exchange["body"].items()
        message = body["message"]
        for real, local in replace:
            message = message.replace(real, local)
        return exchange["status"], name, message


def fault_of(result):
    """``(status, fault name, message)`` of a local nova error."""
    ((name, body),) = result.json().items()
    return result.status, name, body["message"]


def assert_like(result, recorded, key, replace=()):
    """The local answer has the recorded status and, for an error, the
    same fault name and message (real ids ``replace``d by local ones)."""
    exchange = recorded[key]
    if exchange["status"] >= 400:
        assert fault_of(result) == recorded.fault(key, replace), key
    else:
        assert result.status == exchange["status"], (key, result.body)


def assert_shape_like(result, recorded, key, **kw):
    """Status and JSON shape (keys and value types) as recorded."""
    assert result.status == recorded[key]["status"], (key, result.body)
    assert_same_shape(result.json(), recorded[key]["body"], **kw)
