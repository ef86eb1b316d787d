#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (default 60 s each) and prints a
# summary line per target: executions, and whether a crash was found.
# Needs the nightly toolchain and cargo-fuzz (`cargo +nightly install cargo-fuzz`).
# Crashing inputs land in tests/fuzz/artifacts/<target>/; keep each one as a
# regression test (tests/fuzz_regressions.rs) once fixed.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
targets=$(cargo +nightly fuzz list --fuzz-dir .)
for target in $targets; do
  corpus="corpus/$target"
  mkdir -p "$corpus"
  seeds="seeds/$target"
  log="$(mktemp)"
  status=ok
  if ! cargo +nightly fuzz run --fuzz-dir . "$target" "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) -- \
      -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
    status=CRASH
  fi
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  printf '%-16s %-6s executions=%s (%ss)\n' "$target" "$status" "${runs:-?}" "$seconds"
  if [ "$status" = CRASH ]; then tail -n 30 "$log"; fi
done
