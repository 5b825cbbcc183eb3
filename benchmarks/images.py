"""Image and object bytes: 1 GiB uploaded and downloaded by ``occli``.

For each size in ``--sizes`` (10 MiB, 1 GiB) starts a fresh
``python -m occli.localcloud serve`` (all services, a free loopback port,
``--build-time 0``, no Swift account quota, its own temporary data dir) in
a child process, so that every size meets a cloud of the same history (a
cloud's allocator keeps some memory each new request thread used), writes
a file of real bytes (``os.urandom``, 1 MiB at a time, no holes) of that
size once, and runs the real ``occli`` commands against that cloud, one
process each:

* ``image create --file <file> --disk-format raw --container-format bare``
  and ``image save --file <out>`` (the local Glance: upload hashed with MD5
  and SHA-512, download checked against the checksum);
* ``object create`` and ``object save --file <out>`` (the local Swift:
  upload with its MD5 ETag, download checked against it), if this occli has
  them;

measuring each one's wall time beside ``cp`` of the same file on the same
disk (the median of :data:`CP_RUNS`: one ``cp`` on a shared disk varies
by 2 ×) and beside the hash floor: the digests the APIs require of the
same file on this machine (:data:`DIGESTS`: Glance's MD5 and SHA-512,
``md5sum`` and ``sha512sum`` run at once, or Swift's MD5, ``md5sum``; the
median of :data:`CP_RUNS`), which no client or server of these APIs can
go under however it moves the bytes; the peak RSS of the ``occli``
process (``ru_maxrss`` from ``os.wait4`` in a small launcher:
:mod:`rusage`) and of the local cloud (``VmHWM`` of ``/proc/<pid>/status``,
reset before each command by writing 5 to its ``clear_refs``; where that is
refused the peak since start-up). Bytes streamed a chunk at a time keep
both peaks flat from 10 MiB to 1 GiB; a body held whole grows them by the
file's size. Each saved file is compared with the original, then removed;
images, objects and each size's file are deleted after it, the cloud
stopped and its data dir removed.

Nothing is asserted: this reports speed and memory (``python
benchmarks/images.py``, ``--json`` for one JSON object; ``make bench``
shows :func:`rows`). The targets are issue 26's: each command at most
:data:`TARGETS` times the seconds of ``cp``, and each peak at the largest
size at most :data:`FLAT` times the peak of the 10 MiB transfer.
"""

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time

import rusage
from localcloud_load import OCCLI
from localcloud_load import scratch
from localcloud_load import start_server
from localcloud_load import stop_server

MIB = 1024 * 1024
SIZES = (10 * MIB, 1024 * MIB)
# a command's seconds over cp's, at the largest size (issue 26)
TARGETS = {"upload": 3.0, "download": 3.0}
# the largest size's peak RSS over the 10 MiB transfer's (issue 26)
FLAT = 1.2
# cp runs of each size, their median the floor
CP_RUNS = 3
CONTAINER = "bench-bytes"
# the digests each kind's API requires of its bytes, run at once: its floor
DIGESTS = {"image": ("md5sum", "sha512sum"), "object": ("md5sum",)}


def write_file(path, size):
    """``size`` bytes from ``os.urandom``, 1 MiB a write: real blocks."""
    with open(path, "wb") as f:
        for _ in range(size // MIB):
            f.write(os.urandom(MIB))
        f.write(os.urandom(size % MIB))


def label(size):
    return "%d GiB" % (size // (1024 * MIB)) if size >= 1024 * MIB else "%d MiB" % (size // MIB)


class Cloud:
    """The ``serve`` child and how ``occli`` reaches it."""

    def __init__(self, root, proc):
        self.proc = proc
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("OS_") and k != "OCCLI_CACHE_DIR"
        }
        self.env.update(
            OS_CLIENT_CONFIG_FILE=os.path.join(root, "data", "clouds.yaml"),
            OS_CLOUD="local",
            OCCLI_CACHE_DIR=os.path.join(root, "cache"),
        )

    def reset_peak(self):
        """Make the cloud's VmHWM its current RSS; False if refused."""
        try:
            with open("/proc/%d/clear_refs" % self.proc.pid, "w") as f:
                f.write("5")
        except OSError:
            return False
        return True

    def peak(self):
        """The cloud's VmHWM, in MiB."""
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        raise RuntimeError("no VmHWM for the local cloud")

    def cpu(self):
        """The cloud's CPU seconds so far (user and system)."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def run(self, *argv):
        """``(wall seconds, occli's peak RSS, occli's CPU seconds, the
        cloud's RSS before and its peak during, the cloud's CPU seconds
        during)`` of one ``occli`` run (which must succeed), in MiB."""
        self.reset_peak()
        before, cpu = self.peak(), self.cpu()
        figures = rusage.measure([OCCLI] + list(argv), self.env)
        return figures + (before, self.peak(), self.cpu() - cpu)

    def occli(self, *argv):
        """Run occli unmeasured; its stdout."""
        proc = subprocess.run([OCCLI] + list(argv), env=self.env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError("occli %s failed: %s" % (" ".join(argv), proc.stderr[-500:]))
        return proc.stdout

    def has(self, *words):
        """Whether this occli has the command ``words``."""
        proc = subprocess.run(
            [OCCLI] + list(words) + ["--help"], env=self.env, capture_output=True, text=True
        )
        return proc.returncode == 0


def copy_seconds(source, target):
    """Wall seconds of ``cp source target`` (removed after), the median
    of :data:`CP_RUNS`."""
    runs = []
    for _ in range(CP_RUNS):
        runs.append(rusage.measure(["cp", source, target])[0])
        os.unlink(target)
    return sorted(runs)[len(runs) // 2]


def digest_seconds(source, tools):
    """Wall seconds of the ``tools`` (``md5sum``…) over ``source``, all
    started at once (one core each), the median of :data:`CP_RUNS`."""
    runs = []
    for _ in range(CP_RUNS):
        start = time.perf_counter()
        procs = [subprocess.Popen([tool, source], stdout=subprocess.DEVNULL) for tool in tools]
        if any(proc.wait() for proc in procs):
            raise RuntimeError("%s failed on %s" % (" ".join(tools), source))
        runs.append(time.perf_counter() - start)
    return sorted(runs)[len(runs) // 2]


def one_size(cloud, kinds, work, size):
    """Each kind's upload and download of a file of ``size`` bytes:
    ``{"cp": seconds, "floor": {kind: seconds}, kind: {"upload"|"download":
    {"seconds", "occli", "occli_cpu", "cloud", "cloud_before",
    "cloud_cpu"}}}`` (peaks and RSS in MiB, CPU in seconds; ``floor``:
    :func:`digest_seconds` of the kind's :data:`DIGESTS`)."""
    source = os.path.join(work, "bytes-%d" % size)
    out = os.path.join(work, "saved-%d" % size)
    print("images: writing %s of random bytes" % label(size), file=sys.stderr, flush=True)
    write_file(source, size)
    result = {"cp": copy_seconds(source, out)}
    result["floor"] = {kind: digest_seconds(source, DIGESTS[kind]) for kind in kinds}
    name = "bench-%d" % size
    try:
        for kind in kinds:
            print("images: %s of %s" % (kind, label(size)), file=sys.stderr, flush=True)
            if kind == "image":
                up = ["image", "create", "--file", source, "--disk-format", "raw"]
                up += ["--container-format", "bare", name]
                down = ["image", "save", "--file", out, name]
                remove = ["image", "delete", name]
            else:
                up = ["object", "create", CONTAINER, source, "--name", name]
                down = ["object", "save", "--file", out, CONTAINER, name]
                remove = ["object", "delete", CONTAINER, name]
            figures = {}
            for step, argv in (("upload", up), ("download", down)):
                seconds, occli, occli_cpu, before, peak, cpu = cloud.run(*argv)
                figures[step] = {
                    "seconds": seconds,
                    "occli": occli,
                    "occli_cpu": occli_cpu,
                    "cloud": peak,
                    "cloud_before": before,
                    "cloud_cpu": cpu,
                }
            if not filecmp.cmp(source, out, shallow=False):
                raise RuntimeError("the saved %s differs from the uploaded file" % kind)
            os.unlink(out)
            cloud.occli(*remove)
            result[kind] = figures
    finally:
        for path in (source, out):
            if os.path.exists(path):
                os.unlink(path)
    return result


def measure(sizes=SIZES, extra=()):
    """Upload and download each size, each on a fresh cloud (so that every
    size meets a cloud of the same history): ``{"sizes": [...], "kinds":
    [...], "skipped": {kind: why}, "reset": bool, "results": [one_size(...)
    per size]}``."""
    work = scratch()
    result: dict = {"sizes": list(sizes), "results": []}
    try:
        for size in sizes:
            root = scratch()
            proc = None
            try:
                proc, _, _ = start_server(
                    root, "--build-time", "0", "--object-quota-bytes", "-1", *extra, timeout=60
                )
                cloud = Cloud(root, proc)
                kinds, skipped = ["image"], {}
                if cloud.has("object", "create") and cloud.has("object", "save"):
                    kinds.append("object")
                    cloud.occli("container", "create", CONTAINER)
                else:
                    skipped["object"] = "this occli has no `object create`/`object save`"
                result["results"].append(one_size(cloud, kinds, work, size))
                result.update(kinds=kinds, skipped=skipped, reset=cloud.reset_peak())
            finally:
                stop_server(proc)
                shutil.rmtree(root, ignore_errors=True)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


COMMANDS = {
    ("image", "upload"): "`image create --file`",
    ("image", "download"): "`image save --file`",
    ("object", "upload"): "`object create`",
    ("object", "download"): "`object save --file`",
}


def rows(result):
    """The ``make bench`` rows (arguments of ``benchmarks/run.py``'s
    ``Row``): at the largest size each command's time against ``cp`` of the
    same file (and, as a note, over the hash floor of its digests), and
    each command's peak RSS, occli's and the local cloud's,
    at every size (ratio: the largest size's over the smallest's)."""
    sizes, results = result["sizes"], result["results"]
    big, last = label(sizes[-1]), results[-1]
    table = []
    for kind in result["kinds"]:
        for step in ("upload", "download"):
            seconds, floor = last[kind][step]["seconds"], last["floor"][kind]
            table.append(
                dict(
                    figure="%s, %s" % (COMMANDS[kind, step], big),
                    occli="%.2f s (%.0f MiB/s)" % (seconds, sizes[-1] / MIB / seconds),
                    peer="%.2f s `cp`; %.2f s %s" % (last["cp"], floor, " ∥ ".join(DIGESTS[kind])),
                    ratio=seconds / last["cp"],
                    target=TARGETS[step],
                    note="%.1f × the digests' floor" % (seconds / floor),
                )
            )
    sizes_text = " / ".join(label(size) for size in sizes)
    for kind in result["kinds"]:
        for step in ("upload", "download"):
            for process, who in (("occli", "occli"), ("cloud", "local cloud")):
                peaks = [r[kind][step][process] for r in results]
                table.append(
                    dict(
                        figure="peak RSS of %s, %s: %s" % (who, COMMANDS[kind, step], sizes_text),
                        occli=" / ".join("%.0f MiB" % peak for peak in peaks),
                        peer="%.0f MiB at %s" % (peaks[0], label(sizes[0])),
                        ratio=peaks[-1] / peaks[0],
                        target=FLAT,
                        note="" if result["reset"] or process == "occli" else "peak since start",
                    )
                )
    for kind, why in result["skipped"].items():
        table.append(dict(figure="%s bytes" % kind, occli="-", peer="-", note="skipped: " + why))
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(n) * MIB for n in text.split(",")],
        default=list(SIZES),
        help="file sizes in MiB, comma-separated (default 10,1024)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.sizes)
    if args.json:
        print(json.dumps(result))
        return 0
    for row in rows(result):
        note = " [%s]" % row["note"] if row.get("note") else ""
        print("%s: %s (%s)%s" % (row["figure"], row["occli"], row["peer"], note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
