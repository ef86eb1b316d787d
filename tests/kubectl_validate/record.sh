#!/usr/bin/env bash
# Records what the API server of each minor answers to kubectl-validate's own
# test documents into tests/kubectl_validate/verdicts.jsonl (facts only: the
# documents stay in the Go module cache).
#
#   tests/kubectl_validate/record.sh [MINOR...]     # default: 1.28-1.37; minors not named are kept
#
# Each minor's vergate-apiserver is built (or reused) by
# xtask/apiserver/build.sh, or by $VERGATE_APISERVER_BUILD when set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${VERGATE_APISERVER_BUILD:-$root/xtask/apiserver/build.sh}"
testcases="${VERGATE_KUBECTL_VALIDATE_TESTCASES:-$("$here/fetch.sh")}"
[ $# -gt 0 ] || set -- 1.28 1.29 1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/suite.py" input "$testcases" "$work/input.jsonl"
answers=()
for minor in "$@"; do
    bin="$(nice "$build" "$minor" | tail -n 1)"
    echo "record.sh: $minor: recording with $bin" >&2
    nice "$bin" verdicts --cases "$work/input.jsonl" -o "$work/$minor.jsonl" --log "$work/$minor.log" \
        || { tail -n 20 "$work/$minor.log" >&2; echo "record.sh: $minor: verdicts failed" >&2; exit 1; }
    answers+=("$minor=$work/$minor.jsonl")
done
python3 "$here/suite.py" merge "$testcases" "$here/verdicts.jsonl" "${answers[@]}"
echo "record.sh: wrote $here/verdicts.jsonl" >&2
