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
#
# Between the regen that removes the minor's files and the timed one, the
# bench flushes what was written (`sync`). COLD=1 then drops the page
# cache (needs root): a minor lands months after the last regen, when the
# output is no longer cached, so that is the case users meet. SETTLE=<s>
# also waits that long: on ext4 without a journal, creating a file skips
# every inode freed in the last 5-10 s, and the timed regen creates the
# minor's ~2,000 files right where the previous regen deleted them, which
# a real new minor never does (16 % of one warm run's CPU). On the
# reference machine, though, 11 s of idling made the next regen take 50 %
# more CPU time, so the default is 0 (docs/benchmarks.md, 2026-11-30).
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
settle=${SETTLE:-0}
aside=target/bench-new-minor
mkdir -p "$aside"
restore() { for minor in "$new" "$prev"; do [ -d "$aside/v$minor" ] && mv "$aside/v$minor" "$specs/"; done; true; }
trap restore EXIT

# settle: what the preparatory regen wrote flushed, the page cache dropped
# with COLD=1, then SETTLE seconds (see above).
settle() {
  sync
  if [ -n "${COLD:-}" ]; then
    echo 3 >/proc/sys/vm/drop_caches || { echo "COLD=1 needs root (/proc/sys/vm/drop_caches)" >&2; exit 2; }
  fi
  sleep "$settle"
}

# add MINOR [OTHER]: OTHER (a later minor) and MINOR aside, regen, MINOR
# back, time the regen that adds it; prints seconds.
add() {
  for minor in "$@"; do mv "$specs/v$minor" "$aside/"; done
  "$xtask" regen --api kubernetes >/dev/null 2>&1
  mv "$aside/v$1" "$specs/"
  settle
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
