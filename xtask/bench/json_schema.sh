#!/usr/bin/env bash
# JSON Schema benchmark: vergate against openapi2jsonschema (PyPI
# `openapi2jsonschema-ng`, the tool behind the per-version Kubernetes schema
# trees kubeconform users download), side by side on one Kubernetes minor's
# standalone strict tree, several alternating runs, medians.
#
#   xtask/bench/json_schema.sh [MINOR] [RUNS]      (defaults: 1.34, 5)
#
# Needs the Kubernetes specs fetched first:
#   cargo xtask fetch-specs kubernetes --from ../shared/upstream-specs/kubernetes
# Installs the peer tool into a venv under target/bench/. Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
minor=${1:-1.34}
runs=${2:-5}
spec=$root/upstream-specs/kubernetes/v$minor/swagger.json
# openapi2jsonschema resolves its references against `$PWD/<output>`, so
# its output directory must be relative.
work=target/bench/json-schema
venv=$root/target/bench/venv

if [[ ! -f $spec ]]; then
    echo "no $spec; run: cargo xtask fetch-specs kubernetes --from ../shared/upstream-specs/kubernetes" >&2
    exit 1
fi

echo "==> openapi2jsonschema-ng into $venv"
if [[ ! -x $venv/bin/openapi2jsonschema ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet openapi2jsonschema-ng
fi
"$venv/bin/pip" show openapi2jsonschema-ng | grep -E '^(Name|Version):'

echo "==> vergate (release)"
cargo build --quiet --release -p vergate-codegen --example json_schema_tree
vergate=$root/target/release/examples/json_schema_tree

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.4f}')"; }

tool_times=() every_times=() kinds_times=()
for run in $(seq "$runs"); do
    rm -rf "$work" && mkdir -p "$work"
    start=$(now)
    "$venv/bin/openapi2jsonschema" --kubernetes --expanded --stand-alone --strict \
        -o "$work/tool" "$spec" >"$work/tool.log" 2>&1
    tool_times+=("$(elapsed "$start" "$(now)")")
    start=$(now)
    "$vergate" upstream-specs/kubernetes "$minor" "$work/vergate" --every-definition 2>/dev/null
    every_times+=("$(elapsed "$start" "$(now)")")
    start=$(now)
    "$vergate" upstream-specs/kubernetes "$minor" "$work/vergate-kinds" 2>/dev/null
    kinds_times+=("$(elapsed "$start" "$(now)")")
    echo "run $run: openapi2jsonschema ${tool_times[-1]} s, vergate (every definition) ${every_times[-1]} s, vergate (kinds) ${kinds_times[-1]} s"
done

echo "==> file sets (last run)"
python3 - "$work" "${tool_times[*]}" "${every_times[*]}" "${kinds_times[*]}" "$minor" <<'PY'
import os, statistics, sys
work, tool, every, kinds, minor = sys.argv[1:]
med = lambda s: statistics.median(float(x) for x in s.split())
def files(d):
    return set(os.listdir(os.path.join(work, d)))
t, v, k = files("tool"), files("vergate"), files("vergate-kinds")
size = lambda d: sum(os.path.getsize(os.path.join(work, d, f)) for f in os.listdir(os.path.join(work, d))) / 1e6
print(f"openapi2jsonschema: {len(t)} files, {size('tool'):.1f} MB")
print(f"vergate --every-definition: {len(v)} files, {size('vergate'):.1f} MB; in both: {len(t & v)}")
print(f"  only openapi2jsonschema: {len(t - v)} {sorted(t - v)[:12]}")
print(f"  only vergate: {len(v - t)} {sorted(v - t)[:12]}")
print(f"vergate kinds only (what regen writes): {len(k)} files, {size('vergate-kinds'):.1f} MB; in the tool's set: {len(k & t)}")
mt, me, mk = med(tool), med(every), med(kinds)
print()
print(f"| Kubernetes {minor}, standalone strict | median of {len(tool.split())} runs | files |")
print("|---|---|---|")
print(f"| openapi2jsonschema-ng | {mt:.2f} s | {len(t)} |")
print(f"| vergate, every definition | {me:.3f} s | {len(v)} |")
print(f"| vergate, resource kinds | {mk:.3f} s | {len(k)} |")
print()
print(f"ratio (every definition): {mt / me:.0f}x faster; (kinds): {mt / mk:.0f}x faster")
PY
