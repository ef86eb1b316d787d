#!/usr/bin/env bash
# The YAML parsers vergate could read documents with, side by side on the
# preflight benchmark's file (events only, one thread, best of RUNS):
# prints the Markdown table of docs/benchmarks.md § "YAML parsers".
#
#   cargo xtask bench yaml-parsers        # after cargo xtask bench preflight
#
# Builds xtask/bench/yaml_parsers (its own workspace) into target/.
set -euo pipefail
cd "$(dirname "$0")/../.."
file=${FILE:-target/bench-preflight/resources.yaml}
[ -f "$file" ] || { echo "no $file: run cargo xtask bench preflight first (it writes it), or set FILE" >&2; exit 2; }
cargo build --quiet --release --manifest-path xtask/bench/yaml_parsers/Cargo.toml --target-dir target/bench-yaml-parsers
taskset -c 0 target/bench-yaml-parsers/release/yaml-parsers-bench "$file" "${RUNS:-5}"
