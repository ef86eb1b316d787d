#!/usr/bin/env bash
# Regen of the nine Kubernetes minors, release build (not a test): prints the
# Markdown rows of docs/benchmarks.md § "Regen".
#
#   - per-phase times (`--timings`) of adding v1.36 to a v1.28–v1.35 tree and
#     of a full regen into an empty output, RUNS each;
#   - hyperfine, medians over RUNS:
#       - adding a minor: regen with v1.28–v1.35, then add v1.36 and regen;
#       - the same onto a v1.28–v1.35 tree put back from a copy: nothing was
#         deleted just before. (ext4 without a journal, as on the benchmark
#         machine, skips inodes freed in the last minutes when it allocates
#         one, a buffer lookup each; creating v1.36's 862 files seconds after
#         deleting them costs ~0.3 s of CPU that adding a new minor does not.)
#       - a no-op regen (nothing changed: the stamp says so, nothing is read);
#       - a no-op regen that must build and compare every file (`--check`);
#       - a full regen into an empty generated/kubernetes (every file written);
#   - peak memory of adding a minor and of a full regen (/usr/bin/time -v).
#
# Needs hyperfine and the fetched specs (cargo xtask fetch-specs kubernetes
# --from ../shared/upstream-specs/kubernetes). RUNS=n sets the run count.
# The machine should be otherwise idle: on two cores, anything else running
# shows in every figure.
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
# The v1.28–v1.35 tree, with v1.36's spec back in place for the next regen.
without_v1_36="mv $specs/v1.36 $aside/ && $xtask regen --api kubernetes >/dev/null 2>&1 && mv $aside/v1.36 $specs/"
# The same tree put back from a copy; the tree it replaces is moved aside
# (deleted at the end), so nothing is deleted before the measured regen.
rm -rf "$aside/saved" "$aside/trash"
mkdir -p "$aside/trash"
bash -c "$without_v1_36"
cp -a generated/kubernetes "$aside/saved"
restored="mv generated/kubernetes \$(mktemp -d -p $aside/trash) && cp -a $aside/saved generated/kubernetes"
cleanup() { restore; rm -rf "$aside/saved" "$aside/trash"; }
trap cleanup EXIT

# phases TITLE PREPARE: the --timings line of RUNS regens, each after PREPARE.
phases() {
  echo "phases of $1, $runs runs:"
  for _ in $(seq "$runs"); do
    bash -c "$2"
    $xtask regen --api kubernetes --timings 2>&1 | tail -1
  done
}
phases "adding v1.36" "$without_v1_36"
phases "adding v1.36 to a restored tree" "$restored"
phases "a full regen into an empty output" "rm -rf generated/kubernetes"

hyperfine --style basic --runs "$runs" --export-json "$aside/regen.json" \
  --prepare "$without_v1_36" \
  --prepare "$restored" \
  --prepare "$xtask regen --api kubernetes" \
  --prepare 'true' \
  --prepare 'rm -rf generated/kubernetes' \
  -n 'add v1.36 to v1.28–v1.35' "$xtask regen --api kubernetes" \
  -n 'add v1.36 to a restored v1.28–v1.35 tree' "$xtask regen --api kubernetes" \
  -n 'no-op regen (stamp)' "$xtask regen --api kubernetes" \
  -n 'no-op regen --check (builds and compares every file)' "$xtask regen --api kubernetes --check" \
  -n 'full regen, empty output' "$xtask regen --api kubernetes"
python3 - "$aside/regen.json" <<'PY'
import json, statistics, sys
print("| what | median | min … max | user (mean) | system (mean) |")
print("|---|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    t = r["times"]
    print(f"| {r['command']} | {statistics.median(t):.3f} s | {min(t):.3f} … {max(t):.3f} s"
          f" | {r['user']:.2f} s | {r['system']:.2f} s |")
PY

bash -c "$without_v1_36"
echo "add v1.36:"
/usr/bin/time -v "$xtask" regen --api kubernetes 2>&1 | grep -E 'Maximum resident|Elapsed'
rm -rf generated/kubernetes
echo "full regen:"
/usr/bin/time -v "$xtask" regen --api kubernetes 2>&1 | grep -E 'Maximum resident|Elapsed'
