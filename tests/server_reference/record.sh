#!/usr/bin/env bash
# Records the API server's verdicts on tests/server_reference/cases.jsonl.gz
# into tests/server_reference/corpus.jsonl.gz, per minor (default: 1.28-1.37).
#
#   tests/server_reference/record.sh [--set heldout] [MINOR...]
#
# --set heldout records the held-out set instead: heldout/cases.jsonl.gz
# into heldout/corpus.jsonl.gz.
# Each minor's vergate-apiserver is built (or reused) by
# xtask/apiserver/build.sh, or by $VERGATE_APISERVER_BUILD when set (another
# checkout's build.sh); it runs a default cluster of that minor on loopback
# and answers every case with dryRun=All, strict and warn field validation.
# Minors recorded before and not named here are kept. CRDs named under
# ../shared/crds/ are read from $VERGATE_CRDS (default ../shared/crds).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${VERGATE_APISERVER_BUILD:-$root/xtask/apiserver/build.sh}"
crds="${VERGATE_CRDS:-$root/../shared/crds}"
set_dir="$here"
if [ "${1:-}" = "--set" ]; then
    [ "${2:-}" = heldout ] || { echo "record.sh: --set takes heldout (got '${2:-}')" >&2; exit 1; }
    set_dir="$here/heldout"
    shift 2
fi
if [ ! -x "$build" ]; then
    echo "record.sh: no $build (set VERGATE_APISERVER_BUILD to a checkout's xtask/apiserver/build.sh)" >&2
    exit 1
fi
if [ $# -eq 0 ]; then
    set -- 1.28 1.29 1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/corpus.py" resolve "$set_dir/cases.jsonl.gz" "$root" "$crds" "$work/input.jsonl"

recorded=()
for minor in "$@"; do
    echo "record.sh: $minor: building" >&2
    if ! bin="$(nice "$build" "$minor")"; then
        echo "record.sh: $minor: build failed; skipped (see above)" >&2
        continue
    fi
    bin="$(printf '%s\n' "$bin" | tail -n 1)"
    echo "record.sh: $minor: recording with $bin" >&2
    start=$(date +%s)
    if ! nice "$bin" verdicts --cases "$work/input.jsonl" -o "$work/$minor.jsonl"; then
        echo "record.sh: $minor: verdicts failed; skipped" >&2
        continue
    fi
    echo "record.sh: $minor: $(wc -l <"$work/$minor.jsonl") verdicts in $(($(date +%s) - start)) s" >&2
    recorded+=("$minor=$work/$minor.jsonl")
done
if [ ${#recorded[@]} -eq 0 ]; then
    echo "record.sh: nothing recorded" >&2
    exit 1
fi
python3 "$here/corpus.py" merge "$set_dir/cases.jsonl.gz" "$set_dir/corpus.jsonl.gz" "${recorded[@]}"
echo "record.sh: wrote $set_dir/corpus.jsonl.gz ($(wc -c <"$set_dir/corpus.jsonl.gz") bytes)" >&2
