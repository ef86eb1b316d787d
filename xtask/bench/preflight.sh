#!/usr/bin/env bash
# Preflight throughput, side by side in one run on the same files:
# `vergate check --strict` (every core and one core) against kubernetes-validate
# (PyPI) in strict mode.
#
#   cargo xtask bench preflight            # 3000 resources, target 1.34
#   N=5000 RUNS=5 cargo xtask bench preflight
#
# Needs generated/kubernetes (cargo xtask fetch-specs kubernetes --from
# ../shared/upstream-specs/kubernetes && cargo xtask regen --api kubernetes).
# Installs kubernetes-validate into a venv under target/. Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-3000}
RUNS=${RUNS:-5}
PEER_RUNS=${PEER_RUNS:-3}
TARGET=${TARGET:-1.34}
work=target/bench-preflight
mkdir -p "$work"

if [ ! -f generated/kubernetes/gates.json ]; then
    echo "generated/kubernetes/gates.json is missing: run cargo xtask fetch-specs kubernetes --from ../shared/upstream-specs/kubernetes && cargo xtask regen --api kubernetes" >&2
    exit 2
fi
if [ ! -x "$work/venv/bin/kubernetes-validate" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet kubernetes-validate
fi
cargo build --quiet --release --bin vergate
cargo bench --quiet -p xtask --bench preflight --no-run

exec "$work/venv/bin/python" xtask/bench/preflight_compare.py \
    --resources "$N" --runs "$RUNS" --peer-runs "$PEER_RUNS" --target "$TARGET" --work "$work"
