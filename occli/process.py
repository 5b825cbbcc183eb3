"""The ``occli`` process around a command: no cyclic garbage collection
while it starts, and an exit without interpreter teardown.

:func:`defer_collections` and :func:`exit_now` are the program's
(:mod:`occli.program`, ``python -m occli.shell``); :func:`usual_collections`
runs once the command's own work begins, where the shell and the command
adapter know it does. Nothing of occli is imported here.
"""

import gc
import os
import sys

#: Set while collections are deferred: what :func:`usual_collections` restores.
_deferred: list[bool] = []


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
