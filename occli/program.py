"""The ``occli`` program: its process, around :func:`occli.shell.main`.

What only a process of its own may do, and the SDK and in-process callers
of ``shell.main`` must not see done to theirs: no cyclic garbage
collection while occli starts, and an exit without interpreter teardown.
This module imports nothing but the standard library's smallest, so that
collections are deferred before cliff and keystoneauth1 are imported.
"""

import gc
import os
import sys

#: Set while collections are deferred: what :func:`usual_collections` restores.
_deferred: list[bool] = []


def main() -> None:
    """Run ``occli`` with ``sys.argv`` and end the process with its code."""
    defer_collections()
    from occli import shell

    code = shell.main(sys.argv[1:])
    exit_now(code)
    sys.exit(code)


def defer_collections() -> None:
    """Collect no cyclic garbage until the command's own work begins.

    occli imports a few hundred modules as it starts, and every collection
    of the youngest objects scans what they made again, for cycles that
    do not exist: a few milliseconds of a warm ``server list``. A
    collection once fifty thousand objects are young scans them all at
    once (10 ms), so collections are off rather than rarer.
    """
    if gc.isenabled():
        gc.disable()
        _deferred.append(True)


def usual_collections() -> None:
    """Collections again (after :func:`defer_collections`), once the
    command's own work begins (which may make cyclic garbage: pure-Python
    JSON encoding, a long interactive session). The objects made while
    starting are frozen first (``gc.freeze``): the first collection would
    otherwise scan them all, and they live as long as the process."""
    if _deferred:
        del _deferred[:]
        gc.freeze()
        gc.enable()


def exit_now(code: object) -> None:
    """End the process with ``code`` without tearing the interpreter down.

    Python's exit destroys every module one by one (a fifth of a warm
    ``occli server list``); nothing of occli needs it. What an exit must
    still do is done first: the ``atexit`` functions (logging's shutdown
    flushes ``--log-file``), then stdout and stderr are flushed. If a
    stream cannot be flushed (a closed pipe) or a thread other than the
    main one still runs, this returns and the usual exit happens instead.
    """
    import atexit
    import threading

    if threading.active_count() > 1 or not _flushed():
        return
    atexit._run_exitfuncs()
    _flushed()
    os._exit(code if isinstance(code, int) and 0 <= code <= 255 else 1)


def _flushed() -> bool:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the usual exit reports it
            return False
    return True


if __name__ == "__main__":
    main()
