"""Two builds of vergate side by side on CEL-heavy and plain inputs; run by
xtask/bench/cel.sh when BEFORE is set (see its header).

Arguments: BEFORE AFTER WORK TARGET ROUNDS. WORK holds with-rules/ and the
resources of cel.sh; the 5,004-resource file of the preflight bench is
written there too. Prints, per input: instructions (callgrind) before and
after and their ratio, then medians of wall and CPU time (user + system)
over ROUNDS runs in turn, and whether the two reports are byte-identical.
"""

import copy
import glob
import os
import re
import statistics
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import timed  # noqa: E402

before, after, work, target, rounds = sys.argv[1:6]
rounds = int(rounds)


def minors_of(path):
    header = open(path).readline()
    match = re.match(r"# minors: 1\.(\d+)\.\.=1\.(\d+)", header)
    if match:
        return {f"1.{m}" for m in range(int(match[1]), int(match[2]) + 1)}
    return {v.strip() for v in header.split(":", 1)[1].split(",")}


def preflight_file(n, minor, path):
    """The preflight bench's file (xtask/bench/preflight_compare.py)."""
    docs = []
    for file in sorted(glob.glob("tests/manifests/kubernetes/*.yaml")):
        if minor in minors_of(file):
            docs += [d for d in yaml.safe_load_all(open(file)) if d]
    out, copy_index = [], 0
    while len(out) < n:
        for doc in docs:
            doc = copy.deepcopy(doc)
            doc["metadata"]["name"] = f"{doc['metadata']['name']}-{copy_index}"
            out.append(doc)
        copy_index += 1
    with open(path, "w") as f:
        yaml.safe_dump_all(out[:n], f, sort_keys=False)


# PLAIN names a 5,004-resource file of its own (checked at PLAIN_TARGET,
# one thread); otherwise the preflight bench's is written.
plain = os.environ.get("PLAIN")
plain_target = os.environ.get("PLAIN_TARGET", "1.34")
if not plain:
    plain = f"{work}/preflight-5004.yaml"
    preflight_file(5004, plain_target, plain)
inputs = {
    "Gateway API with rules, flow style": ["check", "--target", target, "--crd", f"{work}/with-rules", f"{work}/resources.yaml"],
    "Gateway API with rules, block style": ["check", "--target", target, "--crd", f"{work}/with-rules", f"{work}/resources-block.yaml"],
    "Gateway API, rules stripped, block style": ["check", "--target", target, "--crd", f"{work}/without-rules", f"{work}/resources-block.yaml"],
    "5,004 resources (check --strict -j 1)": ["check", "--strict", "-j", "1", "--target", plain_target, plain],
}


def instructions(binary, args):
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found[1]) if found else float("nan")


def report(binary, args):
    run = subprocess.run([binary, *args, "--format", "json"], capture_output=True)
    return run.returncode, run.stdout


for label, args in inputs.items():
    same = report(before, args) == report(after, args)
    ir = {name: instructions(binary, args) for name, binary in (("before", before), ("after", after))}
    times = {"before": [], "after": []}
    for binary in (before, after):
        timed([binary, *args])
    for i in range(rounds):
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for name in order:
            times[name].append(timed([before if name == "before" else after, *args]))
    wall = {name: statistics.median(t[0] for t in ts) * 1000 for name, ts in times.items()}
    cpu = {name: statistics.median(t[1] for t in ts) * 1000 for name, ts in times.items()}
    print(f"{label}:")
    print(f"  instructions {ir['before'] / 1e6:,.0f} M / {ir['after'] / 1e6:,.0f} M = {ir['after'] / ir['before']:.3f}x (after / before)")
    print(f"  wall {wall['before']:.1f} / {wall['after']:.1f} ms = {wall['after'] / wall['before']:.2f}x; "
          f"CPU {cpu['before']:.1f} / {cpu['after']:.1f} ms = {cpu['after'] / cpu['before']:.2f}x ({rounds} runs each, in turn)")
    print(f"  reports {'byte-identical' if same else 'DIFFER'} (JSON, exit code)")
