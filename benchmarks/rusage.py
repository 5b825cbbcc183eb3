"""A command's own peak RSS, wall time and CPU time, as a launcher sees them.

Linux counts in a child's ``ru_maxrss`` the resident size of the process
that started it, as it was when the child exec'd (``vfork``: until then the
child runs in its parent's memory). From ``make bench``'s own process, tens
of MiB after its first figures, every command measured seemed at least as
large as it: ``image save`` of 10 MiB and of 1 GiB were both "78 MiB" where
each is 35. So each command is started by a small launcher (``python -I
-S``, importing nothing but ``os``, ``sys`` and ``time``; its own few MiB
are the floor of what it reports), which times it and reads its rusage.
"""

import subprocess
import sys

LAUNCHER = r"""
import os, sys, time
null = os.open(os.devnull, os.O_WRONLY)
start = time.perf_counter()
quiet = [(os.POSIX_SPAWN_DUP2, null, 1)]
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=quiet)
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, usage.ru_utime + usage.ru_stime, elapsed)
"""


def measure(argv, env=None):
    """``(wall seconds, peak RSS in MiB, CPU seconds)`` of one run of
    ``argv`` (its stdout discarded), which must succeed: RuntimeError with
    the end of its stderr otherwise."""
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", LAUNCHER] + list(argv),
        env=env,
        capture_output=True,
        text=True,
    )
    fields = proc.stdout.split()
    if proc.returncode != 0 or len(fields) != 4 or fields[0] != "0":
        raise RuntimeError("%s failed: %s" % (" ".join(argv), proc.stderr[-500:]))
    _code, maxrss, cpu, elapsed = fields
    return float(elapsed), int(maxrss) / 1024.0, float(cpu)  # KiB on Linux
