"""Acting on several servers at once: the engine behind ``server delete``,
``reboot``, ``shelve``, ``resize confirm`` and the other commands naming
one or more servers.

Each server is looked up and acted on, up to ``--concurrency`` at a time;
with ``--wait`` each is then waited for. A failure is one line on stderr
and the exit code 1; the others go on.
"""

import argparse
import io
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Sequence
from typing import Any

from occli import exceptions
from occli import utils
from occli import waiters
from occli.v2.compute.commands import server_events


def each(
    client: Any,
    refs: Sequence[str],
    verb: str,
    action: Callable[[Any], object],
    args: argparse.Namespace,
    until: Collection[str] | None = None,
    pending: Collection[str] = (),
    find: Callable[[str], Any] | None = None,
) -> int:
    """Run ``action(server)`` on every server named in ``refs``.

    Up to ``--concurrency`` servers at a time (:func:`occli.utils.for_each`).
    With ``--wait`` (and ``until``), wait for each after all were asked.
    Each failure is one line on stderr, in the order of ``refs``; returns
    exit code 1 if any server failed. ``find`` looks a server up (default:
    ``client.servers.find_resource``).
    """
    concurrency = getattr(args, "concurrency", 1)
    found = {}

    def act(indexed):
        index, ref = indexed
        server = (find or client.servers.find_resource)(ref)
        action(server)
        found[index] = server

    def wait(pair):
        with waiters.accepted("the request was accepted but waiting failed"):
            try:
                waiters.wait_for_server(client.servers, pair[1], until or (), pending, **wait_args)
            except exceptions.ResourceInErrorState as exc:
                # e.g. a resize or unshelve nova's conductor found no host for
                why = server_events.failure(client, pair[1])
                if why is None:
                    raise
                raise exceptions.ResourceInErrorState("%s %s" % (exc, why)) from exc

    what = verb + " server"
    code = utils.for_each(
        list(enumerate(refs)), act, what, label=lambda indexed: indexed[1], concurrency=concurrency
    )
    if until is not None and getattr(args, "wait", False):
        wait_args = utils.wait_args(args)
        if concurrency > 1 and len(refs) > 1:
            # no progress line from several threads at once on one terminal
            wait_args["stream"] = io.StringIO()
        acted = [(ref, found[i]) for i, ref in enumerate(refs) if i in found]
        code |= utils.for_each(
            acted, wait, what, label=lambda pair: pair[0], concurrency=concurrency
        )
    return code
