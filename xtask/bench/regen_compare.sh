#!/usr/bin/env bash
# This tree's regen of the nine Kubernetes minors side by side with another
# commit's, in one hyperfine run (release builds, medians over RUNS):
#
#   - adding v1.36 to a v1.28–v1.35 tree;
#   - a no-op `--check` (builds everything, compares every file);
#
# each run as base, this tree, base again, so that a change in the shared
# machine's load shows as a difference between the two base rows.
#
#   BASE=<commit> cargo xtask bench regen-compare
#
# The base commit is unpacked with `git archive` into target/bench-compare/
# (the xtask works in the tree it was built from), built into its own
# target/bench-compare/target/ and given a copy of the fetched specs. Needs hyperfine and the specs (cargo xtask fetch-specs kubernetes
# --from ../shared/upstream-specs/kubernetes).
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${BASE:?set BASE to the commit to compare with, e.g. BASE=main}
runs=${RUNS:-7}
specs=upstream-specs/kubernetes
if [ ! -f "$specs/v1.36/swagger.json" ]; then
  echo "fetch the specs first: cargo xtask fetch-specs kubernetes --from ../shared/upstream-specs/kubernetes" >&2
  exit 2
fi
aside=$PWD/target/bench-compare
rm -rf "$aside/base"
mkdir -p "$aside/base"
git archive "$base" | tar -x -C "$aside/base"
# Its own target dir: cargo hashes a workspace member by its path relative
# to the workspace, so the two trees' crates would share artifact names.
cargo build --quiet --release -p xtask --manifest-path "$aside/base/Cargo.toml" --target-dir "$aside/target"
cp "$aside/target/release/xtask" "$aside/xtask-base"
cargo build --quiet --release -p xtask
cp target/release/xtask "$aside/xtask-new"
cp -a "$specs"/v* "$aside/base/$specs/"
# The fact tables, for a base that records them in api.toml's [facts].
for facts in "$specs"/feature-gates "$specs"/api-lifecycle; do
  if [ -d "$facts" ]; then cp -a "$facts" "$aside/base/$specs/"; fi
done

# without_v1_36 DIR XTASK: DIR's v1.28–v1.35 tree, v1.36's spec back in place.
without_v1_36() {
  echo "cd $1 && mv $specs/v1.36 $1/v1.36.aside && $2 regen --api kubernetes >/dev/null 2>&1 && mv $1/v1.36.aside $specs/v1.36"
}
restore() {
  for dir in "$PWD" "$aside/base"; do
    [ -d "$dir/v1.36.aside" ] && mv "$dir/v1.36.aside" "$dir/$specs/v1.36" || true
  done
}
trap restore EXIT
old="$aside/xtask-base"
new="$aside/xtask-new"
hyperfine --style basic --runs "$runs" --export-json "$aside/compare.json" \
  --prepare "$(without_v1_36 "$aside/base" "$old")" \
  --prepare "$(without_v1_36 "$PWD" "$new")" \
  --prepare "$(without_v1_36 "$aside/base" "$old")" \
  --prepare "cd $aside/base && $old regen --api kubernetes >/dev/null 2>&1" \
  --prepare "$new regen --api kubernetes >/dev/null 2>&1" \
  --prepare "cd $aside/base && $old regen --api kubernetes >/dev/null 2>&1" \
  -n "add v1.36, $base" "$old regen --api kubernetes" \
  -n 'add v1.36, this tree' "$new regen --api kubernetes" \
  -n "add v1.36, $base again" "$old regen --api kubernetes" \
  -n "no-op --check, $base" "$old regen --api kubernetes --check" \
  -n 'no-op --check, this tree' "$new regen --api kubernetes --check" \
  -n "no-op --check, $base again" "$old regen --api kubernetes --check"
python3 - "$aside/compare.json" <<'PY'
import json, statistics, sys
print("| what | median | min … max | user (mean) | system (mean) |")
print("|---|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    t = r["times"]
    print(f"| {r['command']} | {statistics.median(t):.3f} s | {min(t):.3f} … {max(t):.3f} s"
          f" | {r['user']:.2f} s | {r['system']:.2f} s |")
PY
