"""The engine's worker threads: many stack actions, a step at a time.

Heat runs each stack action as a green thread of its engine
(``heat/engine/scheduler.py``'s ``TaskRunner``: a task is a generator that
yields between steps). The local engine does the same with a few real
threads: a task is a generator yielding the seconds until it wants its
next step; the workers take whichever task is due, run one step, and put
it back. A thousand stacks in progress need no thousand threads, and no
task holds a lock or a transaction between its steps, so other tenants'
requests are never queued behind a stack.
"""

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Generator

LOG = logging.getLogger(__name__)

Task = Generator[float, None, None]


class Scheduler:
    """``workers`` threads stepping the submitted tasks when they are due.

    Threads start on the first :meth:`submit`; :meth:`stop` ends them
    (a step in progress finishes; tasks not finished are dropped, as a
    heat-engine that stops drops its green threads).
    """

    def __init__(self, workers: int = 4, name: str = "heat-engine") -> None:
        self.workers = max(1, workers)
        self.name = name
        self._heap: list[tuple[float, int, Task]] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._stopping = False
        self._running = 0

    def submit(self, task: Task, delay: float = 0.0) -> None:
        """Run ``task`` from now (or after ``delay`` seconds)."""
        with self._cond:
            if self._stopping:
                task.close()
                return
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._seq), task))
            if not self._threads:
                for i in range(self.workers):
                    thread = threading.Thread(
                        target=self._work, name="%s-%d" % (self.name, i), daemon=True
                    )
                    self._threads.append(thread)
                    thread.start()
            self._cond.notify()

    def busy(self) -> int:
        """Tasks waiting or running (``occli.testing`` waits for none)."""
        with self._cond:
            return len(self._heap) + self._running

    def _next(self) -> Task | None:
        with self._cond:
            while not self._stopping:
                if self._heap:
                    due, _seq, task = self._heap[0]
                    wait = due - time.monotonic()
                    if wait <= 0:
                        heapq.heappop(self._heap)
                        self._running += 1
                        return task
                    self._cond.wait(wait)
                else:
                    self._cond.wait()
            return None

    def _work(self) -> None:
        while True:
            task = self._next()
            if task is None:
                return
            delay: float | None
            try:
                delay = next(task)
            except StopIteration:
                delay = None
            except Exception:  # a broken task never stops the engine
                LOG.exception("an engine task failed")
                delay = None
            with self._cond:
                self._running -= 1
                if delay is not None and not self._stopping:
                    heapq.heappush(self._heap, (time.monotonic() + delay, next(self._seq), task))
                    self._cond.notify()
                else:
                    task.close()

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            tasks = [t for _due, _seq, t in self._heap]
            self._heap.clear()
            self._cond.notify_all()
        for task in tasks:
            task.close()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
