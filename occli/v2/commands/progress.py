"""A progress line for commands moving data (``image create/save``,
``object create/save``): drawn on the app's stderr when it is a terminal,
nothing at all in scripts."""

from collections.abc import Callable

from occli import utils


def start(args: object, label: str, total: int | None) -> Callable[..., None] | None:
    """A ``progress(done, size=None)`` callback drawing ``label: N% (… of
    … MiB)`` on stderr when it is a terminal (``size``: the total, when
    ``total`` was not known); None in scripts."""
    stream = utils.stderr(args)
    if not getattr(stream, "isatty", lambda: False)():
        return None

    def show(done: int, size: int | None = None) -> None:
        whole = total if total is not None else size
        mib = "%.1f MiB" % (done / 1048576)
        if whole:
            text = "%s: %d%% (%s of %.1f MiB)" % (label, done * 100 // whole, mib, whole / 1048576)
        else:
            text = "%s: %s" % (label, mib)
        stream.write("\r%s\033[K" % text)
        stream.flush()

    return show


def end(args: object, progress: Callable[..., None] | None) -> None:
    """End the line :func:`start` drew (nothing when it drew none)."""
    if progress is not None:
        utils.stderr(args).write("\n")
