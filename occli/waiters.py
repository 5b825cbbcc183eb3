"""``--wait``: poll a resource until it settles, with a timeout.

Progress goes to stderr, and only when stderr is a terminal, so that
``-f json`` output on stdout stays parseable.
"""

import logging
import sys
import time

from occli import base
from occli import exceptions

LOG = logging.getLogger(__name__)

#: Polls in a row that may fail on a transient error before the wait fails
#: (each poll already carries the request retries of ``--retries``).
TRANSIENT_TRIES = 3


def wait_for(fetch, done, failed=None, timeout=600, interval=2,
             describe=None, label="resource", stream=None, sleep=time.sleep,
             clock=time.monotonic, transient_tries=TRANSIENT_TRIES):
    """Call ``fetch()`` until ``done(obj)``; return the last object.

    ``failed(obj)`` returning a message stops with ResourceInErrorState;
    ``describe(obj)`` gives the progress text. A NotFound from ``fetch`` is
    passed to ``done`` as None (what a delete waits for). A transient error
    (see :func:`is_transient`) is polled again, up to ``transient_tries``
    times in a row, waiting ``interval`` doubled each time.
    """
    stream = stream if stream is not None else sys.stderr
    show = getattr(stream, "isatty", lambda: False)()
    deadline = clock() + timeout
    last = None
    failures = 0
    try:
        while True:
            try:
                obj = fetch()
            except exceptions.NotFound:
                obj = None
            except Exception as exc:
                failures += 1
                if (failures > transient_tries or not is_transient(exc)
                        or clock() >= deadline):
                    raise
                LOG.debug("waiting for %s: %s; polling again", label, exc)
                sleep(min(interval * 2 ** (failures - 1),
                          max(0.0, deadline - clock())))
                continue
            failures = 0
            if done(obj):
                return obj
            message = failed(obj) if failed and obj is not None else None
            if message:
                raise exceptions.ResourceInErrorState(message)
            if show and describe and obj is not None:
                text = describe(obj)
                if text != last:
                    stream.write("\r%s: %s\033[K" % (label, text))
                    stream.flush()
                    last = text
            if clock() >= deadline:
                raise exceptions.WaitTimeout(
                    "Timed out after %ss waiting for %s%s." % (
                        timeout, label,
                        " (last state: %s)" % describe(obj)
                        if describe and obj is not None else ""))
            sleep(min(interval, max(0.0, deadline - clock())))
    finally:
        if show and last is not None:
            stream.write("\n")
            stream.flush()


def is_transient(exc):
    """A connection failure or a 502/503/504: worth asking again."""
    if isinstance(exc, exceptions.ClientException):
        return (isinstance(exc, exceptions.HTTPException)
                and exc.code in base.RETRIABLE_STATUSES)
    from keystoneauth1 import exceptions as ks_exceptions

    return isinstance(exc, ks_exceptions.RetriableConnectionFailure)
