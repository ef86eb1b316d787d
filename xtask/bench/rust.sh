#!/usr/bin/env bash
# Benchmark of the Rust output (not a test, not part of .ci/run): prints the
# Markdown tables of docs/benchmarks.md § "Rust output".
#
# Clean build time (median of RUNS hyperfine runs) and peak memory (largest
# process, /usr/bin/time -v) of three consumer crates, side by side in one run:
#   (a) k8s-openapi (K8S_OPENAPI, default 0.29.0) with feature MINOR,
#   (b) generated/kubernetes/rust with MINOR only,
#   (c) generated/kubernetes/rust with every minor it holds,
# where MINOR (e.g. v1_37) defaults to the newest minor of the generated
# crate; k8s-openapi must have that feature (0.29.0 has v1_33-v1_37).
# debug and release; once from scratch (dependencies included) and once for
# the types crate alone (its dependencies already built).
#
# Needs generated/kubernetes (cargo xtask fetch-specs kubernetes --from
# ../shared/upstream-specs/kubernetes && cargo xtask regen --api kubernetes),
# hyperfine and GNU time. RUNS=n sets the run count (default 3);
# PROFILES="debug" skips the release builds (default "debug release").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/bench-rust"
runs=${RUNS:-3}
krate="$root/generated/kubernetes/rust"
[ -f "$krate/Cargo.toml" ] || { echo "no $krate; run cargo xtask regen --api kubernetes first" >&2; exit 1; }
export CARGO_TERM_QUIET=true
mkdir -p "$work"

# The crate's minor features (`v1_28 = []` …), oldest first.
mapfile -t minors < <(sed -n 's/^\(v1_[0-9]*\) = \[\]$/\1/p' "$krate/Cargo.toml" | sort -t_ -k2,2n)
[ ${#minors[@]} -gt 0 ] || { echo "no v1_* features in $krate/Cargo.toml" >&2; exit 1; }
minor=${MINOR:-${minors[-1]}}
k8s_openapi=${K8S_OPENAPI:-0.29.0}
all=$(printf '"%s", ' "${minors[@]}"); all="[${all%, }]"

consumer() { # name, dependency line, types crate
  mkdir -p "$work/$1/src"
  cat >"$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$2
TOML
  echo "pub use $3 as types;" >"$work/$1/src/lib.rs"
  cp "$root/rust-toolchain.toml" "$work/$1/"
  (cd "$work/$1" && cargo generate-lockfile && cargo fetch)
}

consumer "k8s_openapi_$minor" "k8s-openapi = { version = \"=$k8s_openapi\", features = [\"$minor\"] }" k8s_openapi
consumer "vergate_$minor" "vergate-kubernetes = { path = \"$krate\", default-features = false, features = [\"$minor\"] }" vergate_kubernetes
consumer vergate_all "vergate-kubernetes = { path = \"$krate\", features = $all }" vergate_kubernetes
names=("k8s_openapi_$minor" "vergate_$minor" vergate_all)
labels=("(a) k8s-openapi $k8s_openapi, $minor" "(b) vergate, $minor only" "(c) vergate, all ${#minors[@]} minors (${minors[0]}-${minors[-1]})")
types=(k8s-openapi vergate-kubernetes vergate-kubernetes)

build_cmd() { # name, profile flag
  echo "cargo build $2 --offline --manifest-path $work/$1/Cargo.toml --target-dir $work/$1/target"
}

median() { # hyperfine json, command index
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][int(sys.argv[2])]; print(f\"{r['median']:.1f}\")" "$1" "$2"
}

peak_mb() { # command (run from scratch)
  /usr/bin/time -v bash -c "$1" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}'
}

declare -A clean crate mem
profiles=(${PROFILES:-debug release})
for profile in "${profiles[@]}"; do
  flag=""; [ "$profile" = release ] && flag="--release"
  # From scratch: the target directory removed before every run.
  args=(); for i in 0 1 2; do
    args+=(--prepare "rm -rf $work/${names[$i]}/target" -n "${names[$i]}" "$(build_cmd "${names[$i]}" "$flag")")
  done
  hyperfine --style none --runs "$runs" --export-json "$work/clean-$profile.json" "${args[@]}" >&2
  # The types crate alone: everything else already built.
  args=(); for i in 0 1 2; do
    args+=(--prepare "cargo clean --offline --quiet $flag -p ${types[$i]} --manifest-path $work/${names[$i]}/Cargo.toml --target-dir $work/${names[$i]}/target" \
      -n "${names[$i]}" "$(build_cmd "${names[$i]}" "$flag")")
  done
  hyperfine --style none --runs "$runs" --export-json "$work/crate-$profile.json" "${args[@]}" >&2
  for i in 0 1 2; do
    clean[$profile,$i]=$(median "$work/clean-$profile.json" "$i")
    crate[$profile,$i]=$(median "$work/crate-$profile.json" "$i")
    rm -rf "$work/${names[$i]}/target"
    mem[$profile,$i]=$(peak_mb "$(build_cmd "${names[$i]}" "$flag")")
  done
done

ratio() { python3 -c "import sys; print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$1" "$2"; }
row() { # table, profile, index
  local -n table=$1
  echo -n " ${table[$2,$3]} | $(ratio "${table[$2,$3]}" "${table[$2,0]}") |"
}
for table in clean crate; do
  if [ $table = clean ]; then
    echo "Clean build, dependencies included (median of $runs runs; peak = largest process):"
  else
    echo "The types crate alone, its dependencies already built (median of $runs runs):"
  fi
  echo
  head="| crate |"; rule="|---|"
  for profile in "${profiles[@]}"; do head+=" $profile s | × (a) |"; rule+="---|---|"; done
  [ $table = clean ] && for profile in "${profiles[@]}"; do head+=" peak MB $profile |"; rule+="---|"; done
  echo "$head"; echo "$rule"
  for i in 0 1 2; do
    line="| ${labels[$i]} |"
    for profile in "${profiles[@]}"; do line+=$(row $table "$profile" $i); done
    [ $table = clean ] && for profile in "${profiles[@]}"; do line+=" ${mem[$profile,$i]} |"; done
    echo "$line"
  done
  echo
done
