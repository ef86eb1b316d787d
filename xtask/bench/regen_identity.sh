#!/usr/bin/env bash
# The regen's caches change no byte (issue 41): the Kubernetes output of a
# regen that starts with no cache (every file loaded, rendered and
# formatted) against the output of regens that take what they can from the
# previous one, for the minors before NEW and after adding NEW, and the
# demo APIs' committed trees. Fails (exit 1) at the first difference,
# printing `diff -r`'s summary.
#
#   NEW=1.37 PREV=1.36 XTASK=target/release/xtask bash xtask/bench/regen_identity.sh
#
# BASE=<dir> also compares the cold regen of the minors before NEW with a
# tree made by another build (say main's generated/kubernetes, before this
# work), without its .regen-cache and .regen-stamp.json. BASE must come
# from the same api.toml: NEW's fact tables (feature-gate and lifecycle
# recordings) date stages of older minors too, so with NEW's entries in
# api.toml the older minors' files legitimately differ from a tree made
# without them.
#
# Needs both minors' specs in upstream-specs/kubernetes and in api.toml
# (docs/new-minor.md); leaves generated/kubernetes as a regen of every
# present minor leaves it. Snapshots (about 330 MB each) go to
# target/regen-identity and are removed on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
new=${NEW:?set NEW, say NEW=1.37}
prev=${PREV:?set PREV, say PREV=1.36}
xtask=${XTASK:?set XTASK to a built xtask, say target/release/xtask}
specs=upstream-specs/kubernetes
out=generated/kubernetes
scratch=target/regen-identity
for minor in "$new" "$prev"; do
  [ -f "$specs/v$minor/swagger.json" ] || { echo "$specs/v$minor/swagger.json is missing" >&2; exit 2; }
done
rm -rf "$scratch"
mkdir -p "$scratch/aside"
restore() { for minor in "$new" "$prev"; do [ -d "$scratch/aside/v$minor" ] && mv "$scratch/aside/v$minor" "$specs/"; done; true; }
trap restore EXIT
aside() { for minor in "$@"; do mv "$specs/v$minor" "$scratch/aside/"; done; }
back() { for minor in "$@"; do mv "$scratch/aside/v$minor" "$specs/"; done; }
forget() { rm -rf "$out/.regen-cache" "$out/.regen-stamp.json"; }
regen() { "$xtask" regen --api kubernetes >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; exit 2; }; }
snapshot() { mkdir -p "$scratch/$1" && cp -a "$out/." "$scratch/$1/" && rm -rf "$scratch/$1/.regen-cache" "$scratch/$1/.regen-stamp.json"; }
same() {
  if diff -rq "$scratch/$1" "$scratch/$2" >"$scratch/diff"; then
    echo "same: $1 = $2 ($(find "$scratch/$1" -type f | wc -l) files)"
  else
    echo "DIFFERENT: $1 against $2 ($(wc -l <"$scratch/diff") entries):" >&2
    head -20 "$scratch/diff" >&2
    exit 1
  fi
}

# 1. The minors before NEW, cold: no cache.
aside "$new"
forget
regen
snapshot cold-before
if [ -n "${BASE:-}" ]; then
  mkdir -p "$scratch/base" && cp -a "$BASE/." "$scratch/base/"
  rm -rf "$scratch/base/.regen-cache" "$scratch/base/.regen-stamp.json"
  same base cold-before
  rm -rf "$scratch/base"
fi
# 2. The same minors, warm: the minors before PREV regenerated with the
#    caches of step 1, then PREV added with theirs.
aside "$prev"
regen
back "$prev"
regen
snapshot warm-before
same cold-before warm-before
rm -rf "$scratch/cold-before"
# 3. NEW added, warm (the caches of step 2), then the same cold.
back "$new"
regen
snapshot warm-after
forget
regen
snapshot cold-after
same cold-after warm-after
# 4. A regen with the caches present that renders nothing new.
rm -f "$out/.regen-stamp.json"
regen
snapshot warm-again
same cold-after warm-again
# 5. A damaged cache is ignored: every cache file cut in half.
for file in "$out"/.regen-cache/*; do
  [ -f "$file" ] && truncate -s $(($(stat -c %s "$file") / 2)) "$file"
done
rm -f "$out/.regen-stamp.json"
regen
snapshot damaged
same cold-after damaged
# 6. The committed demo trees: regenerated cold and warm, unchanged in git.
for api in demo demo-operator; do
  rm -rf "generated/$api/.regen-cache" "generated/$api/.regen-stamp.json"
  "$xtask" regen --api "$api" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; exit 2; }
  rm -f "generated/$api/.regen-stamp.json"
  "$xtask" regen --api "$api" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; exit 2; }
  git diff --quiet -- "generated/$api" || { echo "DIFFERENT: generated/$api against git" >&2; git diff --stat -- "generated/$api" >&2; exit 1; }
  echo "same: generated/$api = git, cold and warm"
done
rm -rf "$scratch"
echo "byte-identical: cold, warm, after adding $new, damaged cache, demo APIs"
