#!/usr/bin/env bash
# Clean builds of the `vergate` binary at two commits, side by side (issue
# 42: "a clean build of the CLI takes no longer than today's"):
#
#   xtask/bench/clean_build.sh BEFORE AFTER
#   RUNS=3 PROFILE=dev xtask/bench/clean_build.sh 712feac HEAD
#
# Each commit is exported with `git archive` into a scratch folder and
# built with `cargo build --locked --offline --bin vergate` (PROFILE:
# release, the default, as `cargo install` builds; or dev) into a fresh
# target directory, dependencies included; the two commits take turns,
# RUNS times each. Prints each run's wall and CPU (user + system) seconds,
# then the medians and their ratio. Dependencies' sources come from the
# local cargo registry (fetch them first); nothing else is shared. Not part
# of .ci/run.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 BEFORE AFTER" >&2
    exit 2
fi
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-1}
PROFILE=${PROFILE:-release}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/vergate-clean-build.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
results="$scratch/results.tsv"
for side in before after; do
    commit=$([ "$side" = before ] && echo "$1" || echo "$2")
    mkdir -p "$scratch/$side/src"
    git archive "$(git rev-parse --verify "$commit^{commit}")" | tar -x -C "$scratch/$side/src"
done
for run in $(seq "$RUNS"); do
    for side in before after; do
        rm -rf "$scratch/$side/target"
        start=$(date +%s.%N)
        /usr/bin/time -f '%U %S' -o "$scratch/time" \
            cargo build --manifest-path "$scratch/$side/src/Cargo.toml" --locked --offline \
            --profile "$PROFILE" --bin vergate --target-dir "$scratch/$side/target" -q
        end=$(date +%s.%N)
        read -r user sys <"$scratch/time"
        printf '%s\t%s\t%.1f\t%.1f\n' "$side" "$run" "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" | tee -a "$results"
    done
done
python3 - "$results" "$1" "$2" "$PROFILE" <<'PY'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
med = {}
for side in ("before", "after"):
    wall = [float(r[2]) for r in rows if r[0] == side]
    cpu = [float(r[3]) for r in rows if r[0] == side]
    med[side] = (statistics.median(wall), statistics.median(cpu))
b, a = med["before"], med["after"]
print(f"clean build of the vergate binary ({sys.argv[4]}), medians of {len(rows) // 2} run(s) each:")
print(f"  before {sys.argv[2]}: wall {b[0]:.1f} s, CPU {b[1]:.1f} s")
print(f"  after  {sys.argv[3]}: wall {a[0]:.1f} s, CPU {a[1]:.1f} s")
print(f"  ratio after/before: wall {a[0] / b[0]:.3f}, CPU {a[1] / b[1]:.3f}")
PY
