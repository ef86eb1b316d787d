#!/usr/bin/env bash
# `vergate upgrade` on one large file beside `vergate check` on the same
# file: wall time and peak resident memory (`/usr/bin/time -v`), medians of
# RUNS runs each, and the ratio of upgrade's peak to check's (issue #44's
# goal: at most 3x).
#
#   cargo xtask bench upgrade                                # 60 MB, 3 runs
#   MB=20 RUNS=5 BEFORE=/path/to/an/older/vergate cargo xtask bench upgrade
#   VERGATE=/path/to/vergate xtask/bench/upgrade.sh          # that build
#
# The file is every manifest of tests/manifests/kubernetes/ (each upgrades
# from 1.28 to 1.36; two of every forty change) repeated to MB megabytes.
# BEFORE names another build to measure the same way, side by side. Uses
# the embedded Kubernetes index; not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
MB=${MB:-60}
RUNS=${RUNS:-3}
work=target/bench-upgrade
mkdir -p "$work"
# VERGATE=<binary> measures that build instead of building the release one
# (a release build with line tables, for one, runs the same code).
if [ -z "${VERGATE:-}" ]; then
    cargo build --quiet --release --bin vergate
fi
after=${VERGATE:-target/release/vergate}

big=$work/big-${MB}mb.yaml
if [ ! -f "$big" ]; then
    one=$work/one.yaml
    for f in tests/manifests/kubernetes/*.yaml; do
        echo '---'
        cat "$f"
    done >"$one"
    : >"$big.partial"
    while [ "$(stat -c %s "$big.partial")" -lt $((MB * 1000000)) ]; do
        cat "$one" >>"$big.partial"
    done
    mv "$big.partial" "$big"
fi

# median of the numbers on standard input
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure LABEL BINARY ARGS…: the medians of wall seconds and peak MB.
measure() {
    local label=$1 binary=$2
    shift 2
    local walls=() peaks=()
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%e %M' -o "$work/time" "$binary" "$@" >/dev/null 2>&1 || true
        # (a non-zero exit adds a line before the figures)
        read -r wall kb < <(tail -n 1 "$work/time")
        walls+=("$wall")
        peaks+=("$((kb / 1024))")
    done
    local wall peak
    wall=$(printf '%s\n' "${walls[@]}" | median)
    peak=$(printf '%s\n' "${peaks[@]}" | median)
    printf '%-28s %8s s %8s MB\n' "$label" "$wall" "$peak"
    echo "$peak" >"$work/peak-$label"
}

size=$(stat -c %s "$big")
echo "input: $big, $((size / 1000000)) MB, $(grep -c '^---' "$big") documents; medians of $RUNS runs"
for build in after ${BEFORE:+before}; do
    binary=$after
    [ "$build" = before ] && binary=$BEFORE
    measure "check ($build)" "$binary" check --target 1.36 "$big"
    measure "upgrade ($build)" "$binary" upgrade --from 1.28 --to 1.36 "$big"
    check=$(cat "$work/peak-check ($build)")
    upgrade=$(cat "$work/peak-upgrade ($build)")
    awk -v u="$upgrade" -v c="$check" -v b="$build" \
        'BEGIN { printf "upgrade / check peak (%s): %.2fx\n", b, u / c }'
done
