"""Serve a LocalCloud over HTTP with waitress (multi-threaded)."""

import logging
import signal
import threading

import waitress
from waitress import wasyncore
from waitress.channel import ClientDisconnected

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


def make_server(cloud, host="127.0.0.1", port=8775, threads=None):
    """Bind (``port`` 0 picks a free port) and return the waitress server.

    Waitress refuses (413) a body larger than any mounted service accepts
    (``Service.max_body``) before buffering it; its default is 1 GB.
    Raises OSError (e.g. EADDRINUSE) if the address cannot be bound.
    """
    return waitress.create_server(
        wsgi_app(cloud),
        host=host,
        port=port,
        threads=threads or cloud.config.threads,
        ident="occli-localcloud",
        clear_untrusted_proxy_headers=True,
        channel_timeout=60,
        # waitress refuses a body of exactly max_request_body_size bytes
        max_request_body_size=max(svc.max_body for svc in cloud.services) + 1,
    )


def server_url(server, host):
    return "http://%s:%d" % (connect_host(host), int(server.effective_port))


def serve(cloud, host="127.0.0.1", port=8775, threads=None, on_ready=None):
    """Run the cloud in the foreground until SIGTERM/SIGINT.

    Writes ``clouds.yaml`` and ``endpoint`` once bound, then calls
    ``on_ready(url)`` if given. Returns the URL served.
    """
    server = make_server(cloud, host, port, threads)
    url = server_url(server, host)
    cloud.write_client_config(url)
    LOG.info("local cloud listening on %s (data in %s)", url, cloud.config.data_dir)
    if on_ready is not None:
        on_ready(url)

    def terminate(signum, frame):
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.close()
        cloud.close()
    return url


class BackgroundServer:
    """A local cloud served from a daemon thread (tests, embedding)."""

    def __init__(self, cloud, host="127.0.0.1", port=0, threads=None):
        self.cloud = cloud
        self.server = make_server(cloud, host, port, threads)
        self.url = server_url(self.server, host)
        self.port = int(self.server.effective_port)
        self._thread = threading.Thread(target=self._run, daemon=True, name="occli-localcloud")

    def _run(self):
        try:
            self.server.run()
        except (OSError, ValueError):
            LOG.debug("local cloud server loop ended", exc_info=True)

    def start(self):
        self.cloud.write_client_config(self.url)
        self._thread.start()
        return self

    def stop(self, timeout=10):
        """Close the listening socket and every open connection, and stop
        the worker threads."""
        sockets = self.server._map
        if self._thread.is_alive():
            try:
                # runs in the loop thread, which then exits (its map is empty)
                self.server.trigger.pull_trigger(
                    lambda: wasyncore.close_all(sockets, ignore_all=True)
                )
            except OSError:
                # the trigger was already closed: the loop is ending anyway
                LOG.debug("local cloud trigger already closed", exc_info=True)
            self._thread.join(timeout)
        wasyncore.close_all(sockets, ignore_all=True)
        self.server.task_dispatcher.shutdown(timeout=timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
