#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (default 60 s each) on its seeds
# (seeds/<target>/) and the corpus it grows (corpus/<target>/, git-ignored),
# and prints a summary line per target: executions, and whether a crash was
# found. Each input runs under libFuzzer's 2 GiB RSS limit and a 20 s
# timeout, the bounds of the project's hostile-input tests. Exits 1 when a
# target crashes (the crashing input lands in artifacts/<target>/; keep it
# as a seed once fixed, so tests/fuzz_seeds.rs runs it in cargo test).
#
#   tests/fuzz/run.sh [SECONDS] [TARGET…]
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz
# --version 0.13.2 --locked`); .ci/run installs both.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
# The workspace's lock, so the fuzz build uses the versions tests use.
[ -f Cargo.lock ] || cp ../../Cargo.lock Cargo.lock
cargo +nightly fuzz build --fuzz-dir .
targets=${*:-$(cargo +nightly fuzz list --fuzz-dir .)}
crashed=0
for target in $targets; do
  corpus="corpus/$target"
  mkdir -p "$corpus" "artifacts/$target"
  seeds="seeds/$target"
  log="$(mktemp)"
  status=ok
  if ! cargo +nightly fuzz run --fuzz-dir . "$target" "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 >"$log" 2>&1; then
    status=CRASH
    crashed=1
  fi
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  printf '%-16s %-6s executions=%s (%ss)\n' "$target" "$status" "${runs:-?}" "$seconds"
  if [ "$status" = CRASH ]; then tail -n 40 "$log"; fi
  rm -f "$log"
done
exit "$crashed"
