#!/usr/bin/env bash
# Benchmark of the derive (not a test): prints the Markdown table of
# docs/benchmarks.md § "Derive macro".
#
#   1. the proc-macro crate's own build time: vergate-macros + vergate-codegen
#      + vergate-core rebuilt with syn & co already built, and from scratch;
#   2. the time a 60-field × 16-minor `#[vergate::versioned]` module adds to a
#      crate's build (`cargo check` and `cargo build`, debug), against the
#      same superset struct with no derive and with a plain serde derive.
#
# Needs hyperfine (`apt-get install hyperfine`). RUNS=n sets the run count.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/bench-derive"
runs=${RUNS:-5}
export CARGO_TERM_QUIET=true
mkdir -p "$work"

# The bench crates: their own workspace, their own target directory.
gen_crate() { # name, body
  mkdir -p "$work/$1/src"
  cat >"$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
vergate = { path = "$root" }
TOML
  printf '%s\n' "$2" >"$work/$1/src/lib.rs"
}

# 60 fields over 16 minors (1.20..=1.35): 20 always there, 20 arriving one
# minor after another, 10 removed, 10 deprecated; strings, integers, lists, maps.
fields() { # with_gates
  local i ty
  for i in $(seq 0 59); do
    case $((i % 5)) in
      0) ty="Option<String>" ;; 1) ty="Option<i32>" ;; 2) ty="Option<Vec<String>>" ;;
      3) ty="Option<std::collections::BTreeMap<String, String>>" ;; 4) ty="Option<bool>" ;;
    esac
    if [ "$1" = yes ]; then
      if [ "$i" -ge 20 ] && [ "$i" -lt 40 ]; then echo "        #[introduced_in(\"1.$((21 + (i - 20) % 15))\")]"; fi
      if [ "$i" -ge 40 ] && [ "$i" -lt 50 ]; then echo "        #[removed_in(\"1.$((25 + i - 40))\")]"; fi
      if [ "$i" -ge 50 ]; then echo "        #[deprecated_in(\"1.$((22 + i - 50))\")]"; fi
    fi
    echo "        /// Field number $i."
    echo "        pub field_$i: $ty,"
  done
}

gen_crate bench_plain "pub mod api {
    pub struct Wide {
$(fields no)
    }
}"
gen_crate bench_serde "pub mod api {
    use vergate::__private::serde;
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(crate = \"vergate::__private::serde\", rename_all = \"camelCase\")]
    pub struct Wide {
$(fields no)
    }
}"
gen_crate bench_versioned "#[vergate::versioned(minors = \"1.20..=1.35\")]
pub mod api {
    pub struct Wide {
$(fields yes)
    }
}"
cat >"$work/Cargo.toml" <<TOML
[workspace]
members = ["bench_plain", "bench_serde", "bench_versioned"]
resolver = "2"
TOML
cp "$root/rust-toolchain.toml" "$work/"

cd "$work"
cargo build --workspace >/dev/null 2>&1 # dependencies once
json="$work/results"
mkdir -p "$json"
for mode in check build; do
  hyperfine --style none --runs "$runs" --warmup 1 --export-json "$json/crate-$mode.json" \
    --prepare "touch bench_plain/src/lib.rs bench_serde/src/lib.rs bench_versioned/src/lib.rs" \
    -n "plain-$mode" "cargo $mode -p bench_plain" \
    -n "serde-$mode" "cargo $mode -p bench_serde" \
    -n "versioned-$mode" "cargo $mode -p bench_versioned" >/dev/null
done

# The macro crate's own build, in a target directory of its own.
cd "$root"
export CARGO_TARGET_DIR="$work/target-macros"
cargo build -p vergate-macros >/dev/null 2>&1
hyperfine --style none --runs "$runs" --export-json "$json/macros-own.json" \
  --prepare "cargo clean -p vergate-macros -p vergate-codegen -p vergate-core" \
  -n "macros-own" "cargo build -p vergate-macros" >/dev/null
hyperfine --style none --runs "$runs" --export-json "$json/macros-scratch.json" \
  --prepare "rm -rf $CARGO_TARGET_DIR" \
  -n "macros-scratch" "cargo build -p vergate-macros" >/dev/null

python3 - "$json" <<'PY'
import json, sys, statistics, pathlib
d = pathlib.Path(sys.argv[1])
med = {}
for f in d.glob("*.json"):
    for r in json.loads(f.read_text())["results"]:
        med[r["command"]] = statistics.median(r["times"])
print("| what (debug, 2 cores, median) | check | build |")
print("|---|---|---|")
for name, label in [("plain", "superset struct, no derive"),
                    ("serde", "superset struct, serde derive (one type)"),
                    ("versioned", "`#[vergate::versioned]`, 16 minors")]:
    print(f"| {label} | {med[name+'-check']:.2f} s | {med[name+'-build']:.2f} s |")
for base, label in [("plain", "no derive"), ("serde", "serde derive")]:
    c = med["versioned-check"] - med[base + "-check"]
    b = med["versioned-build"] - med[base + "-build"]
    print(f"| added by the derive vs {label} | {c:+.2f} s | {b:+.2f} s |")
print()
print("| the proc-macro crate's build (debug, median) | time |")
print("|---|---|")
print(f"| vergate-macros + vergate-codegen + vergate-core, syn & co built | {med['macros-own']:.2f} s |")
print(f"| from scratch (syn, quote, proc-macro2, heck, thiserror too) | {med['macros-scratch']:.2f} s |")
PY
