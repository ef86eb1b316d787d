#!/usr/bin/env bash
# Prints the directory of kubectl-validate's own test documents
# (`testcases/` of the Go module sigs.k8s.io/kubectl-validate at the version
# below), downloading the module from the Go module proxy when it is not in
# the module cache yet. Nothing is built and nothing is copied into the repo.
set -euo pipefail
version=v0.0.4
command -v go >/dev/null || { echo "tests/kubectl_validate/fetch.sh: no go on PATH (the Go module proxy serves sigs.k8s.io/kubectl-validate@$version)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir=$(cd "$work" && GOFLAGS= go mod download -json "sigs.k8s.io/kubectl-validate@$version" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
[[ -d $dir/testcases/manifests ]] || { echo "tests/kubectl_validate/fetch.sh: $dir has no testcases/manifests" >&2; exit 1; }
echo "$dir/testcases"
