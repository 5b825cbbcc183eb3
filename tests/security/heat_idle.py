"""Waiting for Heat's engine: a stack action runs on the engine's threads
after its request answered, so a test comparing the tables before and
after a request first lets what earlier requests started finish."""

import time

from occli.localcloud.orchestration.engine import stacks


def wait_engine_idle(cloud, seconds=60.0):
    """Return once no stack of the cloud is IN_PROGRESS and no engine task
    is running (the periodic ones may wait: they write nothing unless a
    deployment awaits them); an AssertionError after ``seconds``."""
    orchestration = getattr(cloud, "orchestration", None)
    if orchestration is None:
        return
    scheduler = orchestration.engine.scheduler
    deadline = time.monotonic() + seconds
    while True:
        with cloud.store.read() as db:
            running = stacks.in_progress(db)
        if not running and not scheduler._running:
            return
        assert time.monotonic() < deadline, "Heat's engine still busy: %s" % [
            (r["name"], r["action"]) for r in running
        ]
        time.sleep(0.01)
