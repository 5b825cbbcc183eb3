"""``--wait``: poll a resource until it settles, with a timeout.

:func:`wait_for` polls anything; :func:`wait_for_server`,
:func:`wait_for_servers` and :func:`wait_for_deployment` know when a Nova
server or a Heat deployment has settled. Progress goes to ``stream``
(stderr by default), and only when it is a terminal, so that ``-f json``
output on stdout stays parseable.
"""

import contextlib
import logging
import sys
import time
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterator
from typing import TYPE_CHECKING
from typing import TextIO
from typing import TypeVar
from typing import cast

from occli import base
from occli import exceptions

if TYPE_CHECKING:
    from occli.v2.orchestration import software_deployments

LOG = logging.getLogger(__name__)

#: Polls in a row that may fail on a transient error before the wait fails
#: (each poll already carries the request retries of ``--retries``).
TRANSIENT_TRIES = 3

#: Statuses of a server in the middle of an operation
#: (tests/fixtures/CONTRACT.md §3.6).
SERVER_TRANSITIONAL = frozenset(
    (
        "BUILD",
        "REBOOT",
        "HARD_REBOOT",
        "REBUILD",
        "RESIZE",
        "REVERT_RESIZE",
        "MIGRATING",
        "PASSWORD",
    )
)
#: ``until`` of a wait for a server to disappear, and its last statuses.
GONE = frozenset(("DELETED", "SOFT_DELETED"))

_T = TypeVar("_T")


def wait_for(
    fetch: Callable[[], _T],
    done: Callable[[_T | None], bool],
    failed: Callable[[_T], str | None] | None = None,
    timeout: float = 600,
    interval: float = 2,
    describe: Callable[[_T], str] | None = None,
    label: str = "resource",
    stream: TextIO | None = None,
    sleep: Callable[[float], object] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    transient_tries: int = TRANSIENT_TRIES,
) -> _T | None:
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
    last: str | None = None
    failures = 0
    try:
        while True:
            obj: _T | None
            try:
                obj = fetch()
            except exceptions.NotFound:
                obj = None
            except Exception as exc:
                failures += 1
                if failures > transient_tries or not is_transient(exc) or clock() >= deadline:
                    raise
                LOG.debug("waiting for %s: %s; polling again", label, exc)
                sleep(min(interval * 2 ** (failures - 1), max(0.0, deadline - clock())))
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
                    "Timed out after %ss waiting for %s%s."
                    % (
                        timeout,
                        label,
                        " (last state: %s)" % describe(obj)
                        if describe and obj is not None
                        else "",
                    )
                )
            sleep(min(interval, max(0.0, deadline - clock())))
    finally:
        if show and last is not None:
            stream.write("\n")
            stream.flush()


def is_transient(exc: BaseException) -> bool:
    """A connection failure or a 502/503/504: worth asking again."""
    if isinstance(exc, exceptions.ClientException):
        return isinstance(exc, exceptions.HTTPException) and exc.code in base.RETRIABLE_STATUSES
    from keystoneauth1 import exceptions as ks_exceptions

    return isinstance(exc, ks_exceptions.RetriableConnectionFailure)


@contextlib.contextmanager
def accepted(failure: str) -> Iterator[None]:
    """After a request was accepted: a failure says so (``failure: error``).

    Whatever fails then (a poll after its retries, a timeout, a dropped
    connection) becomes one WaitFailed line saying what exists already, so
    that nobody repeats a create. A resource found in ERROR (or another
    unexpected status) is reported as it is: that message names it.
    """
    try:
        yield
    except exceptions.ResourceInErrorState:
        raise
    except Exception as exc:  # any failure, named
        raise exceptions.WaitFailed("%s: %s" % (failure, exc)) from exc


def server_label(server: base.Resource) -> str:
    """``name (id)``, or the id of a server without a name."""
    name = getattr(server, "name", None)
    return "%s (%s)" % (name, server.id) if name else str(server.id)


def server_progress(server: base.Resource) -> str:
    """``BUILD 40% (spawning)``: status, progress and task state."""
    text = server.status
    progress = getattr(server, "progress", None)
    if progress is not None and text in SERVER_TRANSITIONAL:
        text += " %s%%" % progress
    if server.task_state:
        text += " (%s)" % server.task_state
    return text


def _server_settled(server: base.Resource, pending: Collection[str] = ()) -> bool:
    return (
        server.task_state is None
        and server.status not in SERVER_TRANSITIONAL
        and server.status not in pending
    )


def _server_fault(server: base.Resource) -> str:
    fault = (getattr(server, "fault", None) or {}).get("message")
    return fault or "no fault reported"


def wait_for_server(
    manager: base.Manager,
    server: base.Resource,
    until: Collection[str],
    pending: Collection[str] = (),
    name: str | None = None,
    timeout: float = 600,
    interval: float = 2,
    stream: TextIO | None = None,
) -> base.Resource | None:
    """Poll ``manager.get`` until the server settles in a status of ``until``.

    ``until=GONE`` waits for the server to disappear. A server is settled
    when its task_state is null and its status is not transitional (nor in
    ``pending``); settling in ERROR, or in another status than expected,
    stops the wait with ResourceInErrorState. ``name`` labels the server in
    messages (default: :func:`server_label`).
    """
    server_id = server.id
    name = name or server_label(server)

    def done(s: base.Resource | None) -> bool:
        if until is GONE:
            return s is None or s.status in GONE
        return s is not None and s.status in until and _server_settled(s, pending)

    def failed(s: base.Resource) -> str | None:
        if not _server_settled(s, pending):
            return None
        if s.status == "ERROR":
            return "Server %s is in ERROR state: %s" % (name, _server_fault(s))
        if until is not GONE:
            return "Server %s is %s, expected %s." % (name, s.status, " or ".join(sorted(until)))
        return None

    return wait_for(
        lambda: manager.get(server_id),
        done,
        failed,
        timeout=timeout,
        interval=interval,
        describe=server_progress,
        label="server " + name,
        stream=stream,
    )


def wait_for_servers(
    fetch: Callable[[], list[base.Resource]],
    expected: int,
    what: str,
    timeout: float = 600,
    interval: float = 2,
    stream: TextIO | None = None,
) -> list[base.Resource]:
    """Poll ``fetch()`` (one list of servers per poll) until ``expected``
    servers have settled; any not ACTIVE then is a ResourceInErrorState
    naming each. ``what`` names them (``servers of reservation r-1``).
    Returns the servers."""

    def done(found: list[base.Resource] | None) -> bool:
        return found is not None and (
            len(found) >= expected and all(_server_settled(s) for s in found)
        )

    def describe(found: list[base.Resource]) -> str:
        counts: dict[str, int] = {}
        for s in found:
            text = server_progress(s)
            counts[text] = counts.get(text, 0) + 1
        return ", ".join("%d %s" % (n, text) for text, n in sorted(counts.items()))

    # done() is never true of None (a list NotFound): wait_for returns a list
    servers = cast(
        "list[base.Resource]",
        wait_for(
            fetch,
            done,
            timeout=timeout,
            interval=interval,
            describe=describe,
            label="%d %s" % (expected, what),
            stream=stream,
        ),
    )
    failed = [s for s in servers if s.status != "ACTIVE"]
    if failed:
        reasons = []
        for s in failed:
            if s.status == "ERROR":
                reasons.append("%s is in ERROR state: %s" % (server_label(s), _server_fault(s)))
            else:
                reasons.append("%s is %s, expected ACTIVE" % (server_label(s), s.status))
        message = "%d of %d %s failed: %s" % (len(failed), len(servers), what, "; ".join(reasons))
        raise exceptions.ResourceInErrorState(message if message.endswith(".") else message + ".")
    return servers


def wait_for_deployment(
    manager: "software_deployments.SoftwareDeploymentManager",
    deployment: base.Resource,
    timeout: float = 3600,
    interval: float = 2,
    stream: TextIO | None = None,
) -> base.Resource:
    """Poll a Heat software deployment until COMPLETE; ResourceInErrorState
    on FAILED, NotFound if it disappears."""
    from occli.v2.orchestration import software_deployments as sd

    def done(obj: base.Resource | None) -> bool:
        if obj is None:
            raise exceptions.NotFound("Deployment %s disappeared while waiting." % deployment.id)
        return obj.status == sd.COMPLETE

    def failed(obj: base.Resource) -> str | None:
        if obj.status == sd.FAILED:
            return "Deployment %s FAILED: %s" % (obj.id, obj.status_reason)
        return None

    # done() raises NotFound rather than be true of None: a deployment comes back
    return cast(
        base.Resource,
        wait_for(
            lambda: manager.get(deployment.id),
            done,
            failed=failed,
            timeout=timeout,
            interval=interval,
            describe=lambda obj: obj.status,
            label="deployment %s" % deployment.id,
            stream=stream,
        ),
    )
