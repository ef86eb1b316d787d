"""One run of a command, timed: what the benchmark scripts beside this
file measure (imported by them; they run from the repository root with
xtask/bench on sys.path)."""

import resource
import subprocess
import time


def timed(command):
    """Wall and CPU (user + system of the command and its children)
    seconds of one run of `command`, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu
