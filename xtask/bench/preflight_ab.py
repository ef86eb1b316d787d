"""Two builds of `vergate check --strict -j 1` side by side; run by
xtask/bench/preflight_ab.sh (see its header).

Arguments: BEFORE AFTER FILE TARGET RUNS. Prints the instructions of one
run of each (callgrind) and their ratio, the medians of CPU time (user +
system) and wall time over RUNS runs each in turn (after one warm-up run
each), and whether the two `--format json` reports are byte-identical.
"""

import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import timed  # noqa: E402

before, after, path, target, runs = sys.argv[1:6]
runs = int(runs)
args = ["check", "--strict", "-j", "1", "--target", target, path]


def instructions(binary):
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found[1]) if found else float("nan")


def report(binary):
    return subprocess.run([binary, *args, "--format", "json"], capture_output=True).stdout


counts = {name: instructions(binary) for name, binary in (("before", before), ("after", after))}
print(f"instructions: before {counts['before']:,}  after {counts['after']:,}  "
      f"ratio {counts['after'] / counts['before']:.3f}")
times = {"before": [], "after": []}
for binary in (before, after):
    timed([binary, *args])
for _ in range(runs):
    for name, binary in (("before", before), ("after", after)):
        times[name].append(timed([binary, *args]))
for name in ("before", "after"):
    wall = statistics.median(t[0] for t in times[name])
    cpu = statistics.median(t[1] for t in times[name])
    print(f"{name:>6}: median CPU {cpu * 1000:.1f} ms, median wall {wall * 1000:.1f} ms ({runs} runs)")
cpu_ratio = statistics.median(t[1] for t in times["after"]) / statistics.median(t[1] for t in times["before"])
print(f"CPU ratio (medians): {cpu_ratio:.3f}")
same = report(before) == report(after)
# Expected only of builds that should find the same (a speed change).
print(f"JSON reports byte-identical: {'yes' if same else 'no'}")
