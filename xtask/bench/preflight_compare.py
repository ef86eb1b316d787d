"""Side-by-side preflight throughput; run by xtask/bench/preflight.sh (cargo xtask bench preflight).

Builds N resources from tests/manifests/kubernetes (the files whose
`# minors:` header includes the target, replicated with varied names), writes
them as one multi-document YAML file, then times `vergate check --strict` (release build, whole process, with the
embedded Kubernetes data) on every core and on one core (taskset -c 0, as
`-j 1`), kubernetes-validate --strict on the same file (one core: it is one
Python thread), and the in-process bench on one core (parse + check, check
alone, reading alone). Prints a Markdown table of medians and the peak memory of each
vergate run.
"""

import argparse
import copy
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import time

import kubernetes_validate
import yaml


def minors_of(path):
    header = open(path).readline()
    match = re.match(r"# minors: 1\.(\d+)\.\.=1\.(\d+)", header)
    if match:
        return {f"1.{m}" for m in range(int(match[1]), int(match[2]) + 1)}
    return {v.strip() for v in header.split(":", 1)[1].split(",")}


def make_resources(n, target, path, keep=lambda doc: True):
    """Writes `n` resources to `path`: the documents of the files for
    `target` that `keep` keeps, replicated with varied names. Returns how
    many distinct documents there were."""
    docs = []
    for file in sorted(glob.glob("tests/manifests/kubernetes/*.yaml")):
        if target in minors_of(file):
            docs += [d for d in yaml.safe_load_all(open(file)) if d and keep(d)]
    out = []
    copy_index = 0
    while len(out) < n:
        for doc in docs:
            doc = copy.deepcopy(doc)
            doc["metadata"]["name"] = f"{doc['metadata']['name']}-{copy_index}"
            out.append(doc)
        copy_index += 1
    out = out[:n]
    with open(path, "w") as f:
        yaml.safe_dump_all(out, f, sort_keys=False)
    return len(docs)


def one_core(cmd):
    return (["taskset", "-c", "0"] + cmd) if shutil.which("taskset") else cmd


def timed(cmd, runs, pin=True):
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(one_core(cmd) if pin else cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def peak_kib(cmd):
    """Peak resident memory of a run (GNU time's %M), in KiB."""
    run = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    return int(run.stderr.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resources", type=int, required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--peer-runs", type=int, required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    n = args.resources
    path = f"{args.work}/resources.yaml"
    distinct = make_resources(n, args.target, path)
    size = sum(1 for _ in open(path, "rb").read().splitlines())

    vergate_cmd = ["target/release/vergate", "check", "--strict", "--target", args.target, path]
    vergate_s, vergate_run = timed(vergate_cmd, args.runs, pin=False)
    assert vergate_run.returncode in (0, 1), vergate_run.stderr
    vergate_summary = vergate_run.stderr.strip().splitlines()[-1]
    vergate_one_s, _ = timed(vergate_cmd[:2] + ["-j", "1"] + vergate_cmd[2:], args.runs)
    input_kib = os.path.getsize(path) / 1024
    both_kib = peak_kib(vergate_cmd)
    one_kib = peak_kib(vergate_cmd[:2] + ["-j", "1"] + vergate_cmd[2:])
    empty = f"{args.work}/one.yaml"
    with open(empty, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n")
    base_kib = peak_kib(vergate_cmd[:-1] + [empty])

    peer_cmd = ["target/bench-preflight/venv/bin/kubernetes-validate", "--strict",
                "--quiet", "-k", f"{args.target}.0", path]
    peer_s, peer_run = timed(peer_cmd, args.peer_runs)
    peer_failures = sum(1 for line in peer_run.stdout.splitlines()
                        if line.startswith(("ERROR", "FAIL")))

    bench = subprocess.run(
        one_core(["cargo", "bench", "--quiet", "-p", "xtask", "--bench", "preflight", "--",
                  "generated/kubernetes", args.target, path, str(args.runs)]),
        capture_output=True, text=True, check=True)
    in_process = json.loads(bench.stdout.strip().splitlines()[-1])

    print(f"{n} resources ({distinct} distinct manifests replicated with varied names, "
          f"{size} lines, {in_process['bytes']} bytes), target {args.target}, "
          f"{os.cpu_count()} cores; one-core rows pinned with taskset -c 0")
    print(f"vergate: {vergate_summary}")
    print(f"kubernetes-validate {kubernetes_validate.__version__}: exit {peer_run.returncode}, "
          f"{peer_failures} failure lines")
    print()
    print("| tool | what is timed | median | resources/s | vs kubernetes-validate |")
    print("|---|---|---|---|---|")
    peer_rate = n / peer_s
    rows = [
        ("kubernetes-validate --strict", f"whole process, {args.peer_runs} runs", peer_s, peer_rate),
        ("vergate check --strict", f"whole process (release), every core, {args.runs} runs",
         vergate_s, n / vergate_s),
        ("vergate check --strict -j 1", f"whole process (release), one core, {args.runs} runs",
         vergate_one_s, n / vergate_one_s),
        ("vergate, in process", f"YAML parse + preflight, {args.runs} runs",
         n / in_process["parse_and_check_per_s"], in_process["parse_and_check_per_s"]),
        ("vergate, in process", f"YAML reading alone (trees built, as check reads), {args.runs} runs",
         n / in_process["read_only_per_s"], in_process["read_only_per_s"]),
        ("vergate, in process", f"preflight of parsed documents, {args.runs} runs",
         n / in_process["check_only_per_s"], in_process["check_only_per_s"]),
        ("yaml-rust2, in process", f"YAML events alone (the full parser, no tree), {args.runs} runs",
         n / in_process["yaml_events_only_per_s"], in_process["yaml_events_only_per_s"]),
    ]
    for tool, what, seconds, rate in rows:
        print(f"| {tool} | {what} | {seconds * 1000:.1f} ms | {rate:,.0f} | {rate / peer_rate:,.0f}× |")
    print()
    print(f"Peak memory (GNU time, max RSS): every core {both_kib / 1024:.1f} MiB, "
          f"one core {one_kib / 1024:.1f} MiB, one-document run {base_kib / 1024:.1f} MiB "
          f"(the embedded data and the binary); input {input_kib / 1024:.1f} MiB, so "
          f"{both_kib / input_kib:.1f}× the input in all, "
          f"{(both_kib - base_kib) / input_kib:.1f}× beyond the one-document run.")


if __name__ == "__main__":
    main()
