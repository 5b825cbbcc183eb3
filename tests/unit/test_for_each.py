"""utils.for_each: several items at a time, output in the order of the items."""

import logging
import threading

import pytest

from occli import exceptions
from occli import utils

LOG = logging.getLogger("occli.test_for_each")
WAIT = 30  # seconds an action waits for another before the test fails


class Tracker:
    """Counts the actions running at once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running = 0
        self.peak = 0
        self.ran = []  # items, in the order they end

    def __enter__(self):
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)

    def __exit__(self, *exc):
        with self.lock:
            self.running -= 1


def messages(caplog):
    return [r.getMessage() for r in caplog.records if r.name.startswith("occli")]


def test_failures_and_logs_come_in_the_order_of_the_items(caplog):
    tracker = Tracker()
    five_failed = threading.Event()
    first_alone = []

    def action(item):
        with tracker:
            if item == 0:
                first_alone.append(tracker.running)
            LOG.warning("working on %d", item)
            try:
                if item == 1:  # ends last: after item 5 failed
                    assert five_failed.wait(WAIT), "item 5 never ran alongside"
                    raise exceptions.ClientException("one")
                if item == 5:
                    five_failed.set()
                    raise exceptions.NotFound("five", code=404)
            finally:
                tracker.ran.append(item)  # in the order they end

    code = utils.for_each(range(6), action, "poke", label=lambda i: "i%d" % i, concurrency=3)
    assert code == 1
    assert first_alone == [1]
    assert tracker.ran[-1] == 1 and tracker.ran.index(5) < 5
    assert 1 < tracker.peak <= 3
    assert messages(caplog) == [
        "working on 0",
        "working on 1",
        "Failed to poke i1: one",
        "working on 2",
        "working on 3",
        "working on 4",
        "working on 5",
        "Failed to poke i5: five (HTTP 404)",
    ]


@pytest.mark.parametrize("concurrency", [1, 2, 8])
def test_the_bound_on_actions_at_once(concurrency):
    tracker = Tracker()
    gate = threading.Barrier(min(concurrency, 19), timeout=WAIT)

    def action(item):
        with tracker:
            if item and concurrency > 1 and item <= 19 - 19 % gate.parties:
                gate.wait()  # as many at once as allowed, or the test fails

    assert utils.for_each(range(20), action, "poke", concurrency=concurrency) == 0
    assert tracker.peak == min(concurrency, 19)


def test_serial_and_concurrent_output_is_the_same(caplog):
    def action(item):
        LOG.warning("item %d", item)
        if item % 3 == 0:
            raise exceptions.Conflict("busy %d" % item, code=409)

    outputs = []
    for concurrency in (1, 4):
        caplog.clear()
        code = utils.for_each(range(10), action, "poke", concurrency=concurrency)
        outputs.append((code, messages(caplog)))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 1


def test_an_unexpected_error_is_raised_and_stops_the_rest():
    ran = []

    def action(item):
        ran.append(item)
        if item == 1:
            raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        utils.for_each(range(50), action, "poke", concurrency=2)
    assert len(ran) < 50


@pytest.mark.parametrize("text", ["0", "-1", "x", str(utils.MAX_CONCURRENCY + 1)])
def test_concurrency_option_values(cli, text):
    code, out, err = cli("server", "delete", "vm1", "--concurrency", text)
    assert code == 2 and "--concurrency" in err
