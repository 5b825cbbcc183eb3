"""``--wait``: poll a resource until it settles, with a timeout.

Progress goes to stderr, and only when stderr is a terminal, so that
``-f json`` output on stdout stays parseable.
"""

import sys
import time

from occli import exceptions


def wait_for(fetch, done, failed=None, timeout=600, interval=2,
             describe=None, label="resource", stream=None, sleep=time.sleep,
             clock=time.monotonic):
    """Call ``fetch()`` until ``done(obj)``; return the last object.

    ``failed(obj)`` returning a message stops with ResourceInErrorState;
    ``describe(obj)`` gives the progress text. A NotFound from ``fetch`` is
    passed to ``done`` as None (what a delete waits for).
    """
    stream = stream if stream is not None else sys.stderr
    show = getattr(stream, "isatty", lambda: False)()
    deadline = clock() + timeout
    last = None
    try:
        while True:
            try:
                obj = fetch()
            except exceptions.NotFound:
                obj = None
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
