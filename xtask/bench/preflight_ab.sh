#!/usr/bin/env bash
# Two builds of `vergate check --strict -j 1` side by side on the same
# file (issue 40's speed bar: within 10 % of the CPU of the build before
# the API server's Go checks):
#
#   xtask/bench/preflight_ab.sh BEFORE AFTER [FILE]
#   RUNS=31 TARGET=1.35 xtask/bench/preflight_ab.sh old/vergate target/release/vergate
#
# FILE defaults to the 5,004 resources of `cargo xtask bench preflight`
# (tests/manifests/kubernetes replicated, written under target/). Prints
# the instructions each build executes (valgrind's callgrind: repeatable
# on a loaded machine, the primary figure) and their ratio, then the
# medians of CPU time (user + system) and wall time over RUNS runs of
# each, the two builds run in turn, and whether their JSON reports are
# byte-identical. Needs valgrind and python3 with PyYAML. Not part of
# .ci/run.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 BEFORE AFTER [FILE]" >&2
    exit 2
fi
before=$(realpath "$1")
after=$(realpath "$2")
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-21}
TARGET=${TARGET:-1.35}
file=${3:-}
if [ -z "$file" ]; then
    file=target/bench-preflight/resources-5004.yaml
    mkdir -p target/bench-preflight
    python3 - "$file" <<'EOF'
import sys, types
sys.modules["kubernetes_validate"] = types.ModuleType("kubernetes_validate")
sys.path.insert(0, "xtask/bench")
import preflight_compare
preflight_compare.make_resources(5004, "1.34", sys.argv[1])
EOF
fi
exec python3 xtask/bench/preflight_ab.py "$before" "$after" "$file" "$TARGET" "$RUNS"
