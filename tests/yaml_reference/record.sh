#!/bin/sh
# Records tests/yaml_reference/corpus.jsonl: each case of cases.jsonl as
# kubectl's libraries read it (reference.go). Needs Debian's golang-go,
# golang-k8s-sigs-yaml-dev and golang-gopkg-yaml.v2-dev; works offline.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${GOCACHE:-$(mktemp -d)}
GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOCACHE="$cache" GOPROXY=off \
    go run "$here/reference.go" <"$here/cases.jsonl" >"$here/corpus.jsonl.new"
mv "$here/corpus.jsonl.new" "$here/corpus.jsonl"
echo "recorded $(wc -l <"$here/corpus.jsonl") cases in $here/corpus.jsonl"
