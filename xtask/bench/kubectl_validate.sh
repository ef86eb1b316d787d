#!/usr/bin/env bash
# `vergate check` against kubectl-validate on the same built-in documents,
# side by side in one run (issue 40: "check keeps >= 100x kubectl-validate's
# speed"):
#
#   xtask/bench/kubectl_validate.sh KUBECTL_VALIDATE [VERGATE...]
#   RUNS=41 PEER_RUNS=7 FORMAT=text xtask/bench/kubectl_validate.sh ~/go/bin/kubectl-validate
#
# KUBECTL_VALIDATE is a kubectl-validate binary you built (this project
# neither builds nor keeps it); its newest built-in schemas are 1.30, so
# both tools check at 1.30. The input is 2,200 documents of
# tests/manifests/kubernetes (the files whose `# minors:` header includes
# 1.30, CRDs left out, replicated with varied names; written under
# target/). VERGATE defaults to the release build (built here). The tools
# run in turn, vergate RUNS times (default 41) and kubectl-validate
# PEER_RUNS times (default 7), both writing FORMAT (json, the default, or
# their default text). Prints the medians of wall and CPU time and the
# ratio of kubectl-validate's wall time to each vergate build's. Needs
# python3 with PyYAML. Not part of .ci/run.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 KUBECTL_VALIDATE [VERGATE...]" >&2
    exit 2
fi
peer=$(realpath "$1")
shift
builds=()
for build in "$@"; do
    builds+=("$(realpath "$build")")
done
cd "$(dirname "$0")/../.."
if [ ${#builds[@]} -eq 0 ]; then
    cargo build --quiet --release --bin vergate
    builds=("$PWD/target/release/vergate")
fi
file=target/bench-kubectl-validate/builtin-2200.yaml
mkdir -p "$(dirname "$file")"
python3 - "$file" <<'PY'
import sys, types
sys.modules["kubernetes_validate"] = types.ModuleType("kubernetes_validate")
sys.path.insert(0, "xtask/bench")
from preflight_compare import make_resources
make_resources(2200, "1.30", sys.argv[1], keep=lambda doc: doc.get("kind") != "CustomResourceDefinition")
PY
exec python3 xtask/bench/kubectl_validate.py "$file" "${RUNS:-41}" "${PEER_RUNS:-7}" "${FORMAT:-json}" "$peer" "${builds[@]}"
