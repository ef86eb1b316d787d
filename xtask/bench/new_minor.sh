#!/usr/bin/env bash
# Adding a new Kubernetes minor, side by side with adding the one before it
# (release build, not a test): prints the medians (wall and CPU time) of
# RUNS interleaved runs of
#
#   - add PREV: regen with the minors before PREV, bring PREV's directory
#     back, time `xtask regen --api kubernetes`;
#   - add NEW:  regen with the minors before NEW (PREV included), bring
#     NEW's directory back, time the regen.
#
#   NEW=1.37 PREV=1.36 cargo xtask bench new-minor
#   NEW=1.37 PREV=1.36 XTASK=target/release/xtask bash xtask/bench/new_minor.sh
#
# INSTR=1 also counts each side's instructions once (valgrind's callgrind,
# the timed regen's setup repeated; this machine's perf has no counters):
# the figure the shared machine's load does not move. The profiles stay in
# target/bench-new-minor/cg-add-<minor>.out for `callgrind_annotate`.
#
# Needs both minors' specs in upstream-specs/kubernetes (and in api.toml:
# docs/new-minor.md). Interleaving the two puts whatever else the machine
# does into both figures alike.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-5}
new=${NEW:?set NEW, say NEW=1.37}
prev=${PREV:?set PREV, say PREV=1.36}
specs=upstream-specs/kubernetes
for minor in "$new" "$prev"; do
  [ -f "$specs/v$minor/swagger.json" ] || { echo "$specs/v$minor/swagger.json is missing" >&2; exit 2; }
done
# XTASK=<binary> measures a build already made (the embedded index a regen
# rewrites makes cargo rebuild the release xtask, minutes with LTO).
xtask=${XTASK:-}
if [ -z "$xtask" ]; then
  cargo build --quiet --release -p xtask
  xtask=./target/release/xtask
fi
aside=target/bench-new-minor
mkdir -p "$aside"
restore() { for minor in "$new" "$prev"; do [ -d "$aside/v$minor" ] && mv "$aside/v$minor" "$specs/"; done; true; }
trap restore EXIT

# add MINOR [OTHER]: OTHER (a later minor) and MINOR aside, regen, MINOR
# back, time the regen that adds it; prints seconds.
add() {
  for minor in "$@"; do mv "$specs/v$minor" "$aside/"; done
  "$xtask" regen --api kubernetes >/dev/null 2>&1
  mv "$aside/v$1" "$specs/"
  # wall, user and system seconds
  /usr/bin/time -f "%e,%U,%S" -o "$aside/time" "$xtask" regen --api kubernetes >/dev/null 2>&1
  restore
  cat "$aside/time"
}

# count MINOR [OTHER]: the regen that adds MINOR under callgrind; prints
# its instructions.
count() {
  for minor in "$@"; do mv "$specs/v$minor" "$aside/"; done
  "$xtask" regen --api kubernetes >/dev/null 2>&1
  mv "$aside/v$1" "$specs/"
  valgrind --tool=callgrind --callgrind-out-file="$aside/cg-add-$1.out" \
    "$xtask" regen --api kubernetes >/dev/null 2>&1
  restore
  sed -n 's/^\(summary\|totals\): *//p' "$aside/cg-add-$1.out" | head -1
}
if [ -n "${INSTR:-}" ]; then
  prev_ir=$(count "$prev" "$new")
  new_ir=$(count "$new")
  echo "instructions: add $prev $prev_ir, add $new $new_ir, ratio $(python3 -c "print(f'{$new_ir / $prev_ir:.3f}')")"
fi

# RUNS=0 with INSTR=1: the instructions alone.
[ "$runs" -gt 0 ] || exit 0
prev_times=()
new_times=()
for _ in $(seq "$runs"); do
  prev_times+=("$(add "$prev" "$new")")
  new_times+=("$(add "$new")")
done
python3 - "$prev" "$new" "${prev_times[*]}" "${new_times[*]}" <<'PY'
import statistics, sys
prev, new = sys.argv[1], sys.argv[2]
runs = [[[float(x) for x in run.split(",")] for run in arg.split()] for arg in sys.argv[3:5]]
print("| what | wall, median | min … max | CPU (user + system), median | runs |")
print("|---|---|---|---|---|")
medians = []
for minor, times in zip((prev, new), runs):
    wall = [t[0] for t in times]
    cpu = [t[1] + t[2] for t in times]
    medians.append((statistics.median(wall), statistics.median(cpu)))
    print(f"| add {minor} to the minors before it | {statistics.median(wall):.3f} s | {min(wall):.3f} … {max(wall):.3f} s"
          f" | {statistics.median(cpu):.3f} s | {len(times)} |")
print(f"ratio add {new} / add {prev}, medians: wall {medians[1][0] / medians[0][0]:.3f}, CPU {medians[1][1] / medians[0][1]:.3f}")
PY
