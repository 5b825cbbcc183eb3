"""Serve a LocalCloud over HTTP with waitress (multi-threaded, and with
``workers`` > 1 in several forked processes sharing one listening socket)."""

import collections
import ctypes
import ctypes.util
import functools
import gc
import logging
import mmap
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import waitress
from waitress import wasyncore
from waitress.channel import ClientDisconnected
from waitress.server import MultiSocketServer
from waitress.task import ThreadedTaskDispatcher

from occli.localcloud import spool
from occli.localcloud.app import DropConnection

LOG = logging.getLogger("occli.localcloud")


def wsgi_app(cloud):
    """The cloud's WSGI app adapted to waitress: DropConnection makes
    waitress close the socket without writing a response."""
    app = cloud.wsgi

    def application(environ, start_response):
        try:
            return app(environ, start_response)
        except DropConnection:
            raise ClientDisconnected("fault injection: connection dropped") from None

    return application


def connect_host(host):
    """The host clients should use to reach a server bound to ``host``."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return "[%s]" % host if ":" in host else host


class ThreadPool:
    """Threads shared by the dispatchers (:class:`PooledDispatcher`) of a
    process's background servers: occli.testing starts a cloud per test,
    and starting and joining its 6 worker threads was most of a fresh
    cloud's wall time on a loaded machine. A thread runs one task at a
    time and holds nothing of a cloud between tasks (a store's connections
    are per store, :class:`~occli.localcloud.store.Store`); a task finding
    no idle thread starts one, so no server waits for another's tasks. An
    idle thread ends after ``IDLE_SECONDS``."""

    IDLE_SECONDS = 60.0

    def __init__(self):
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._work: collections.deque[Callable[[], object]] = collections.deque()
        self._idle = 0
        self._started = 0

    def run(self, func):
        """Call ``func()`` on a thread of the pool."""
        with self._lock:
            self._work.append(func)
            if len(self._work) > self._idle:
                self._started += 1
                threading.Thread(
                    target=self._serve, daemon=True, name="occli-localcloud-%d" % self._started
                ).start()
            else:
                self._ready.notify()

    def _serve(self):
        while True:
            with self._lock:
                while not self._work:
                    self._idle += 1
                    woken = self._ready.wait(self.IDLE_SECONDS)
                    self._idle -= 1
                    if not woken and not self._work:
                        return
                func = self._work.popleft()
            func()


_POOL = ThreadPool()


def _new_pool():
    # a forked child has none of its parent's threads
    global _POOL
    _POOL = ThreadPool()


os.register_at_fork(after_in_child=_new_pool)


class PooledDispatcher:
    """Waitress's task dispatcher (``ThreadedTaskDispatcher``: at most
    ``set_thread_count`` tasks run at once, the others wait in ``queue`` in
    order; ``shutdown`` lets the running ones finish and cancels the rest)
    on the threads of a :class:`ThreadPool`."""

    def __init__(self, pool):
        self.pool = pool
        self.lock = threading.Lock()
        self.done = threading.Condition(self.lock)
        self.queue: collections.deque[Any] = collections.deque()
        self.count = 0
        self.running = 0

    def set_thread_count(self, count):
        with self.lock:
            self.count = count
            self._start()

    def add_task(self, task):
        with self.lock:
            self.queue.append(task)
            self._start()

    def _start(self):
        # the lock held
        while self.queue and self.running < self.count:
            self.running += 1
            self.pool.run(functools.partial(self._service, self.queue.popleft()))

    def _service(self, task):
        try:
            task.service()
        except BaseException:
            LOG.exception("Exception when servicing %r", task)
        finally:
            with self.lock:
                self.running -= 1
                self._start()
                self.done.notify_all()

    def shutdown(self, cancel_pending=True, timeout=5):
        deadline = time.monotonic() + timeout
        with self.lock:
            self.count = 0
            while self.running:
                left = deadline - time.monotonic()
                if left <= 0:
                    LOG.warning("%d task(s) still running", self.running)
                    return False
                self.done.wait(left)
            if not cancel_pending:
                return False
            while self.queue:
                self.queue.popleft().cancel()
        return True


def _pool_dispatcher(pool):
    return ThreadedTaskDispatcher() if pool is None else PooledDispatcher(pool)


#: A request body of more bytes than this (waitress's ``inbuf_overflow``:
#: the size from which a body is spooled to a file) makes a bulk request.
BULK_BODY = 512 * 1024


class SlowDispatcher:
    """A task dispatcher (``threads`` threads) with two more pools of
    ``slow_threads`` threads each: one for the requests ``slow(method,
    path)`` names, the services' slow routes (``Service.slow_request``:
    identity's password hashing, ~45 ms of a core each; Heat's
    ``/validate``), one for bulk requests, whose body is over
    :data:`BULK_BODY` bytes (a Swift object, Glance image data: hashed and
    stored, ~1.5 ms of a core a MiB). Each is waitress's
    ``ThreadedTaskDispatcher``, or with ``pool`` (a :class:`ThreadPool`) a
    :class:`PooledDispatcher` on its threads.

    A flood of either then waits in its pool's queue (bounded by waitress's
    connection limit), at most ``slow_threads`` run at once, and the other
    threads stay free for token holders: with one pool, 8 clients posting
    wrong passwords held all 8 threads and other projects' reads queued
    behind them (p99 10 ms → 0.3–1.5 s, issue 19); 4 clients putting 5 MB
    objects, hashed four at a time on two cores, kept another project's
    metadata write 6.5–12.5 × its idle p99 (issue 26). Uploads do not queue
    behind logins, nor logins behind uploads.
    """

    def __init__(self, slow, slow_threads, pool=None):
        self.slow = slow
        self.fast_pool = _pool_dispatcher(pool)
        self.slow_pool = _pool_dispatcher(pool)
        self.slow_pool.set_thread_count(slow_threads)
        self.bulk_pool = _pool_dispatcher(pool)
        self.bulk_pool.set_thread_count(slow_threads)

    @property
    def queue(self):
        """The other requests waiting for a thread."""
        return self.fast_pool.queue

    def set_thread_count(self, count):
        self.fast_pool.set_thread_count(count)

    def add_task(self, task):
        # the task is a channel whose first request is parsed, its body
        # received (waitress adds it holding the channel's requests lock)
        requests = getattr(task, "requests", None)
        request = requests[0] if requests else None
        if not request or request.error:
            self.fast_pool.add_task(task)
        elif self.slow(request.command, request.path):
            self.slow_pool.add_task(task)
        elif request.body_rcv is not None and len(request.body_rcv) > BULK_BODY:
            self.bulk_pool.add_task(task)
        else:
            self.fast_pool.add_task(task)

    def shutdown(self, cancel_pending=True, timeout=5):
        self.slow_pool.shutdown(cancel_pending, timeout)
        self.bulk_pool.shutdown(cancel_pending, timeout)
        return self.fast_pool.shutdown(cancel_pending, timeout)


def _dispatcher(cloud, threads, pool=None):
    services = cloud.services

    def slow(method, path):
        return any(svc.slow_request(method, path) for svc in services)

    dispatcher = SlowDispatcher(slow, cloud.config.slow_threads, pool)
    dispatcher.set_thread_count(threads)
    return dispatcher


# How waitress moves bytes (its defaults in brackets). recv_bytes [8 KiB]:
# a 1 GiB upload in 4,096 reads of the socket, not 131,072. A streamed
# answer (files.Reader, 1 MiB chunks) waits in memory for a slower client
# up to outbuf_high_watermark [16 MiB] per connection, then the handler
# blocks; outbuf_overflow [1 MiB] above it, so that it is never spooled to
# a temporary file (written to disk and read back: a 1 GiB download cost
# up to 1 GiB of writes). A single larger answer still spools.
BYTES = {
    "recv_bytes": 256 * 1024,
    "outbuf_high_watermark": 4 * 1024 * 1024,
    "outbuf_overflow": 8 * 1024 * 1024,
}


#: Digests of arriving bodies hashed at once per process (``spool.Tail``),
#: beside the bulk pool's threads: with 2, 4 clients putting 5 MB objects
#: raised another project's write p99 from 15 to 21–25 ms (issue 26).
DIGEST_THREADS = 1


def _body_digests(cloud):
    """``(method, path)`` → the digests a request's handler will ask of its
    body (the first service's ``Service.body_digests`` that names any)."""
    services = cloud.services

    def digests_for(method, path):
        for svc in services:
            names = svc.body_digests(method, path)
            if names:
                return tuple(names)
        return ()

    return digests_for


def make_server(cloud, host="127.0.0.1", port=8775, threads=None, sockets=None, pool=None):
    """Bind (``port`` 0 picks a free port) and return the waitress server;
    or serve ``sockets`` (already listening) instead of binding. ``pool``:
    a :class:`ThreadPool` whose threads serve the requests (else threads of
    the server's own).

    Waitress refuses (413) a body larger than any mounted service accepts
    (``Service.max_body``) before buffering it; its default is 1 GB.
    Slow routes have threads of their own (:class:`SlowDispatcher`); a
    large body spools to the data dir, hashed as it arrives
    (:func:`.spool.spooling_channel`).
    Raises OSError (e.g. EADDRINUSE) if the address cannot be bound.
    """
    where = {"sockets": sockets} if sockets else {"host": host, "port": port}
    threads = threads or cloud.config.threads
    server = waitress.create_server(
        wsgi_app(cloud),
        **where,
        _dispatcher=_dispatcher(cloud, threads, pool),
        threads=threads,
        ident="occli-localcloud",
        clear_untrusted_proxy_headers=True,
        channel_timeout=60,
        # waitress refuses a body of exactly max_request_body_size bytes
        max_request_body_size=max(svc.max_body for svc in cloud.services) + 1,
        **BYTES,
    )
    channel = spool.spooling_channel(
        cloud.config.data_dir, _body_digests(cloud), threading.Semaphore(DIGEST_THREADS)
    )
    listeners = server.map.values() if isinstance(server, MultiSocketServer) else [server]
    for listener in listeners:
        listener.channel_class = channel
    return server


def server_url(server, host):
    return "http://%s:%d" % (connect_host(host), int(server.effective_port))


#: glibc's mallopt parameter: the size from which malloc maps memory
#: of its own for a block (and unmaps it when freed)
_M_MMAP_THRESHOLD = -3
#: blocks of this size and larger are mapped: a streamed body's 1 MiB
#: chunks (and waitress's buffers of them) go back to the system when
#: freed instead of growing the heap
MMAP_THRESHOLD = 256 * 1024


def tune_allocator():
    """Have glibc map each block of :data:`MMAP_THRESHOLD` bytes or more
    on its own (where the C library is glibc; elsewhere nothing). By
    default glibc raises that threshold each time such a block is freed,
    up to 32 MiB, after which a streamed object's chunks come from the
    heap, which keeps what they fragmented: a 1 GiB download grew a
    serving process's peak memory by about a fifth over a 10 MiB one
    (issue 26); with the threshold fixed it stays flat. True if set."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def freeze_startup():
    """Put what a started cloud holds for its whole life (modules, routes,
    schemas, seeded rows' objects) out of the collector's reach
    (``gc.freeze``, its start-up garbage collected first): every full
    collection walked it again, about 8% of a serving process's CPU
    (issue 26). Objects made later are collected as before."""
    gc.collect()
    gc.freeze()


def serve(cloud, host="127.0.0.1", port=8775, threads=None, on_ready=None, workers=None):
    """Run the cloud in the foreground until SIGTERM/SIGINT.

    Writes ``clouds.yaml`` and ``endpoint`` once bound, then calls
    ``on_ready(url)`` if given. Returns the URL served.

    ``workers`` (default ``cloud.config.workers``) > 1: see
    :func:`serve_workers`.
    """
    workers = workers or getattr(cloud.config, "workers", 1) or 1
    if workers > 1:
        return serve_workers(cloud, host, port, threads, on_ready, workers)
    server = make_server(cloud, host, port, threads)
    url = server_url(server, host)
    cloud.write_client_config(url)
    LOG.info("local cloud listening on %s (data in %s)", url, cloud.config.data_dir)
    if on_ready is not None:
        on_ready(url)

    def terminate(signum, frame):
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, terminate)
    tune_allocator()
    freeze_startup()
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.close()
        cloud.close()
    return url


WORKER_STOP_TIMEOUT = 5.0


def listen(host, port, backlog=1024):
    """A listening TCP socket on ``host``:``port`` (0: a free port)."""
    family, socktype, proto, _, sockaddr = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, socktype, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(sockaddr)
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    return sock


def serve_workers(cloud, host, port, threads, on_ready, workers):
    """Serve with ``workers`` processes (Python's GIL lets one process use
    about one core): this process binds the socket, closes ``cloud`` (it
    has migrated and seeded the database and set the fault rules), forks
    the workers, and waits. Each worker opens its own LocalCloud on the
    database (``attach=True``: own connections, no migration) and serves
    the inherited socket with waitress, ``accept`` spreading connections.

    SIGTERM/SIGINT here are forwarded to the workers, which finish and
    exit; a worker that exits on its own stops the others and this process
    (exit status 1 if it failed); a worker whose parent dies gets SIGTERM
    (Linux).
    """
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    url = "http://%s:%d" % (connect_host(host), bound)
    cloud.write_client_config(url)
    config, classes = cloud.config, cloud.service_classes
    factory = type(cloud)
    cloud.close()
    parent = os.getpid()
    children = set()

    def terminate(signum, frame):
        raise SystemExit(0)

    # each worker's open connections, in memory shared across the fork
    counts = memoryview(mmap.mmap(-1, 4 * workers)).cast("i")
    previous = {s: signal.signal(s, terminate) for s in (signal.SIGTERM, signal.SIGINT)}
    status = 0
    try:
        for index in range(workers):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the child
                _worker(factory, config, classes, sock, threads, parent, (counts, index))
            children.add(pid)
        sock.close()
        LOG.info(
            "local cloud listening on %s with %d workers (pids %s; data in %s)",
            url,
            workers,
            " ".join(str(p) for p in sorted(children)),
            config.data_dir,
        )
        if on_ready is not None:
            on_ready(url)
        pid, code = os.wait()
        children.discard(pid)
        # exit status 0: it was signalled too (e.g. Ctrl-C reaches the group)
        status = 1 if code else 0
        LOG.log(
            logging.ERROR if code else logging.INFO,
            "local cloud worker %d exited (wait status %d); stopping",
            pid,
            code,
        )
    finally:
        sock.close()
        _stop_children(children)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if status:
        raise SystemExit(status)
    return url


def _stop_children(children):
    for pid in children:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + WORKER_STOP_TIMEOUT
    while children:
        for pid in list(children):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                children.discard(pid)
        if children and time.monotonic() > deadline:
            for pid in children:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            deadline = float("inf")
        if children:
            time.sleep(0.02)


def _die_with_parent(parent):
    """Ask Linux for SIGTERM when the parent exits; exit if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


ACCEPT_YIELD = 0.01


def balance_accepts(server, counts, index):
    """Make a worker holding more connections than another wait
    ``ACCEPT_YIELD`` seconds before accepting, so that the less loaded one
    (woken by the same connection) takes it: keep-alive clients spread
    evenly over the workers (the kernel alone may give one worker all 8).
    A worker still accepts when no other does."""
    accept = server.handle_accept

    def handle_accept():
        mine = len(server.active_channels)
        counts[index] = mine
        if mine > min(counts):
            time.sleep(ACCEPT_YIELD)
        accept()
        counts[index] = len(server.active_channels)

    readable = server.readable

    def balanced_readable():
        # every loop turn: closed connections are counted out promptly
        counts[index] = len(server.active_channels)
        return readable()

    server.handle_accept = handle_accept
    server.readable = balanced_readable


def _worker(factory, config, classes, sock, threads, parent, balance):  # pragma: no cover
    """A worker process's life; never returns (``os._exit``)."""
    code = 1
    try:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda signum, frame: sys.exit(0))
        _die_with_parent(parent)
        cloud = factory(config, services=classes, attach=True)
        server = make_server(cloud, threads=threads, sockets=[sock])
        balance_accepts(server, *balance)
        tune_allocator()
        freeze_startup()
        LOG.info("local cloud worker %d serving", os.getpid())
        try:
            server.run()
        finally:
            server.close()
            cloud.close()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:
        LOG.exception("local cloud worker %d failed", os.getpid())
    finally:
        logging.shutdown()
        os._exit(code)


class BackgroundServer:
    """A local cloud served in the background (tests, embedding): its loop
    and its requests on the process's :class:`ThreadPool`, so that a
    server's start and stop start and join no thread (occli.testing starts
    a cloud per test)."""

    def __init__(self, cloud, host="127.0.0.1", port=0, threads=None):
        self.cloud = cloud
        self.server = make_server(cloud, host, port, threads, pool=_POOL)
        self.url = server_url(self.server, host)
        self.port = int(self.server.effective_port)
        self._started = False
        self._ended = threading.Event()

    def _run(self):
        try:
            self.server.run()
        except (OSError, ValueError):
            LOG.debug("local cloud server loop ended", exc_info=True)
        finally:
            self._ended.set()

    def start(self):
        self.cloud.write_client_config(self.url)
        self._started = True
        _POOL.run(self._run)
        return self

    def stop(self, timeout=10):
        """Stop the worker threads (a request in progress finishes), then
        close the listening socket and every open connection: in the other
        order a worker finishing a request would wake a closed loop."""
        self.server.task_dispatcher.shutdown(timeout=timeout)
        sockets = self.server._map
        if self._started and not self._ended.is_set():
            try:
                # runs in the loop, which then ends (its map is empty)
                self.server.trigger.pull_trigger(
                    lambda: wasyncore.close_all(sockets, ignore_all=True)
                )
            except OSError:
                # the trigger was already closed: the loop is ending anyway
                LOG.debug("local cloud trigger already closed", exc_info=True)
            self._ended.wait(timeout)
        wasyncore.close_all(sockets, ignore_all=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
