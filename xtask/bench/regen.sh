#!/usr/bin/env bash
# Regen of the nine Kubernetes minors, release build (not a test): prints the
# Markdown rows of docs/benchmarks.md § "Regen".
#
#   - per-phase times of a full regen (`--timings`: load, merge, gates.json,
#     pkl, json, rust, sync), medians over RUNS;
#   - a full regen into an empty generated/kubernetes (every file written);
#   - a no-op regen (nothing changed: the stamp says so, nothing is read);
#   - a no-op regen that must compare every file (`--check`);
#   - adding a minor: regen with v1.28–v1.35, then add v1.36 and regen;
#   - peak memory of a full regen (/usr/bin/time -v).
#
# Needs hyperfine and the fetched specs (cargo xtask fetch-specs kubernetes
# --from ../shared/upstream-specs/kubernetes). RUNS=n sets the run count.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-5}
specs=upstream-specs/kubernetes
if [ ! -f "$specs/v1.36/swagger.json" ]; then
  echo "fetch the specs first: cargo xtask fetch-specs kubernetes --from ../shared/upstream-specs/kubernetes" >&2
  exit 2
fi
cargo build --quiet --release -p xtask
xtask=./target/release/xtask
aside=target/bench-regen
mkdir -p "$aside"
restore() { [ -d "$aside/v1.36" ] && mv "$aside/v1.36" "$specs/v1.36" || true; }
trap restore EXIT

echo "phases of a full regen, $runs runs:"
for _ in $(seq "$runs"); do rm -rf generated/kubernetes; $xtask regen --api kubernetes --timings 2>&1 | tail -1; done

hyperfine --style basic --runs "$runs" --export-markdown "$aside/regen.md" \
  --prepare 'rm -rf generated/kubernetes' \
  --prepare "$xtask regen --api kubernetes" \
  --prepare 'true' \
  --prepare "mv $specs/v1.36 $aside/ && $xtask regen --api kubernetes && mv $aside/v1.36 $specs/" \
  -n 'full regen, empty output' "$xtask regen --api kubernetes" \
  -n 'no-op regen (stamp)' "$xtask regen --api kubernetes" \
  -n 'no-op regen --check (compares every file)' "$xtask regen --api kubernetes --check" \
  -n 'add v1.36 to v1.28–v1.35' "$xtask regen --api kubernetes"
cat "$aside/regen.md"

rm -rf generated/kubernetes
/usr/bin/time -v "$xtask" regen --api kubernetes 2>&1 | grep -E 'Maximum resident|Elapsed'
