"""The ``occli`` program: its process, around :func:`occli.shell.main`.

What only a process of its own may do, and the SDK and in-process callers
of ``shell.main`` must not see done to theirs: no cyclic garbage
collection while occli starts, and an exit without interpreter teardown
(:mod:`occli.process`). It imports nothing but the standard library's
smallest before collections are deferred, so that none runs while cliff
and keystoneauth1 are imported.
"""

import sys

from occli import process


def main() -> None:
    """Run ``occli`` with ``sys.argv`` and end the process with its code."""
    process.defer_collections()
    from occli import shell

    code = shell.main(sys.argv[1:])
    process.exit_now(code)
    sys.exit(code)


if __name__ == "__main__":
    main()
