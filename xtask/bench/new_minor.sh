#!/usr/bin/env bash
# Adding a new Kubernetes minor, side by side with adding the one before it
# (release build, not a test): prints the medians of RUNS interleaved runs of
#
#   - add PREV: regen with the minors before PREV, bring PREV's directory
#     back, time `xtask regen --api kubernetes`;
#   - add NEW:  regen with the minors before NEW (PREV included), bring
#     NEW's directory back, time the regen.
#
#   NEW=1.37 PREV=1.36 cargo xtask bench new-minor
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
cargo build --quiet --release -p xtask
xtask=./target/release/xtask
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
  local start end
  start=$(date +%s.%N)
  "$xtask" regen --api kubernetes >/dev/null 2>&1
  end=$(date +%s.%N)
  restore
  echo "$end - $start" | bc
}

prev_times=()
new_times=()
for _ in $(seq "$runs"); do
  prev_times+=("$(add "$prev" "$new")")
  new_times+=("$(add "$new")")
done
python3 - "$prev" "$new" "${prev_times[*]}" "${new_times[*]}" <<'PY'
import statistics, sys
prev, new, a, b = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
a, b = [float(x) for x in a], [float(x) for x in b]
print(f"| what | median | min … max | runs |")
print(f"|---|---|---|---|")
print(f"| add {prev} to the minors before it | {statistics.median(a):.3f} s | {min(a):.3f} … {max(a):.3f} s | {len(a)} |")
print(f"| add {new} to the minors before it | {statistics.median(b):.3f} s | {min(b):.3f} … {max(b):.3f} s | {len(b)} |")
print(f"ratio (add {new} / add {prev}), medians: {statistics.median(b) / statistics.median(a):.3f}")
PY
