"""kubectl-validate and vergate build(s) in turn on one file; run by
xtask/bench/kubectl_validate.sh (see its header).

Arguments: FILE RUNS PEER_RUNS FORMAT KUBECTL_VALIDATE VERGATE...
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import timed  # noqa: E402

path, runs, peer_runs, form, peer, *builds = sys.argv[1:]
runs, peer_runs = int(runs), int(peer_runs)
json = form == "json"


def timed_ms(command):
    """Wall and CPU milliseconds of one run."""
    wall, cpu = timed(command)
    return wall * 1000, cpu * 1000


commands = {peer: [peer, path, "--version", "1.30"] + (["-o", "json"] if json else [])}
for build in builds:
    commands[build] = [build, "check", "--target", "1.30", "--format", form, path]
times = {name: [] for name in commands}
for command in commands.values():
    timed_ms(command)  # warm-up
for turn in range(max(runs, peer_runs)):
    for name, command in commands.items():
        if turn < (peer_runs if name == peer else runs):
            times[name].append(timed_ms(command))

peer_wall = statistics.median(wall for wall, _ in times[peer])
print(f"2,200 built-in documents at 1.30, --format {form}; medians")
print("| tool | runs | wall | CPU | kubectl-validate's wall / this |")
print("|---|---:|---:|---:|---:|")
for name, runs_of in times.items():
    wall = statistics.median(w for w, _ in runs_of)
    cpu = statistics.median(c for _, c in runs_of)
    ratio = "" if name == peer else f"{peer_wall / wall:.0f}x"
    print(f"| {name} | {len(runs_of)} | {wall:,.1f} ms | {cpu:,.1f} ms | {ratio} |")
