"""The worker threads background servers share (server.ThreadPool and
PooledDispatcher): each server keeps waitress's dispatcher semantics (at
most ``threads`` of its requests at once, the rest queued in order, a
shutdown finishing the running ones and cancelling the rest) and no server
waits for another's requests."""

import threading
import time

import occli.testing
from occli.localcloud import server as srv

DEADLINE = 10.0


class _Task:
    """A waitress task (channel) that blocks until ``release`` is set."""

    def __init__(self, log, release):
        self.log = log
        self.release = release
        self.cancelled = False

    def service(self):
        self.log.append(("start", self))
        self.release.wait(DEADLINE)
        self.log.append(("end", self))

    def cancel(self):
        self.cancelled = True


def _until(check):
    deadline = time.monotonic() + DEADLINE
    while not check():
        assert time.monotonic() < deadline, "not reached in %s s" % DEADLINE
        time.sleep(0.005)


def _running(log):
    started = {id(t) for kind, t in log if kind == "start"}
    return len(started - {id(t) for kind, t in log if kind == "end"})


def test_a_dispatcher_runs_its_count_at_once_in_order():
    dispatcher = srv.PooledDispatcher(srv.ThreadPool())
    dispatcher.set_thread_count(2)
    log: list = []
    release = threading.Event()
    tasks = [_Task(log, release) for _ in range(5)]
    for task in tasks:
        dispatcher.add_task(task)
    _until(lambda: _running(log) == 2)
    assert list(dispatcher.queue) == tasks[2:]
    release.set()
    _until(lambda: len(log) == 10)
    assert [t for kind, t in log if kind == "start"][2:] == tasks[2:]
    assert dispatcher.running == 0 and not dispatcher.queue


def test_a_shutdown_finishes_the_running_and_cancels_the_queued():
    dispatcher = srv.PooledDispatcher(srv.ThreadPool())
    dispatcher.set_thread_count(1)
    log: list = []
    release = threading.Event()
    first, second = _Task(log, release), _Task(log, release)
    dispatcher.add_task(first)
    dispatcher.add_task(second)
    _until(lambda: _running(log) == 1)
    threading.Timer(0.05, release.set).start()
    assert dispatcher.shutdown(timeout=DEADLINE) is True
    assert ("end", first) in log
    assert second.cancelled and ("start", second) not in log
    later = _Task(log, release)
    dispatcher.add_task(later)  # after shutdown: queued, never run
    assert list(dispatcher.queue) == [later] and dispatcher.running == 0


def test_no_dispatcher_waits_for_another_on_the_same_pool():
    pool = srv.ThreadPool()
    busy, free = srv.PooledDispatcher(pool), srv.PooledDispatcher(pool)
    busy.set_thread_count(1)
    free.set_thread_count(1)
    log: list = []
    held, released = threading.Event(), threading.Event()
    busy.add_task(_Task(log, held))
    _until(lambda: _running(log) == 1)
    released.set()
    other = _Task(log, released)
    free.add_task(other)
    _until(lambda: ("end", other) in log)
    held.set()
    _until(lambda: _running(log) == 0)


def test_a_test_cloud_starts_no_thread_and_serves_on_the_pool(monkeypatch):
    """A fresh cloud's start starts no thread (its loop and its requests run
    on the process's pool, where earlier clouds left idle ones), its slow
    routes still under a count of their own (a login is one), and two
    clouds served at once each answer."""
    occli.testing.start_local_cloud().stop()  # the template made
    # 8 idle threads in the pool: more than two clouds' loops and requests
    release, running = threading.Event(), []

    def hold():
        running.append(1)
        release.wait(DEADLINE)

    for _ in range(8):
        srv._POOL.run(hold)
    _until(lambda: len(running) == 8)
    release.set()
    _until(lambda: srv._POOL._idle >= 8)
    started: list = []
    start = threading.Thread.start

    def counting(thread):
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counting)
    with occli.testing.start_local_cloud() as one, occli.testing.start_local_cloud() as two:
        assert started == []
        dispatcher = one.server.server.task_dispatcher
        assert isinstance(dispatcher.fast_pool, srv.PooledDispatcher)
        assert dispatcher.fast_pool.count == occli.testing.cloud.TEST_THREADS
        assert dispatcher.slow_pool.count == one.config.slow_threads
        assert list(one.client().flavors.list()) and list(two.client().flavors.list())
    assert dispatcher.fast_pool.running == dispatcher.slow_pool.running == 0


def test_a_stopped_server_leaves_its_loop_and_frees_the_thread():
    """A stop ends the server's loop (its listening socket closed: a new
    connection is refused) and the pool thread it ran on is idle again."""
    import socket

    with occli.testing.start_local_cloud() as cloud:
        list(cloud.client().flavors.list())
        server = cloud.server
    assert server._ended.is_set()
    try:
        socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE).close()
    except ConnectionRefusedError:
        pass
    else:
        raise AssertionError("a stopped server still accepts connections")
