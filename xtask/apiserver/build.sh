#!/usr/bin/env bash
# Builds vergate-apiserver for one Kubernetes minor and prints its path.
#
#   xtask/apiserver/build.sh 1.36
#
# Output: target/apiserver/v1.36/vergate-apiserver (from the repo root). A
# binary whose inputs (Go sources, the minor's go.mod/go.sum, this script,
# the Go version) are unchanged since it was built is reused as is.
set -euo pipefail

fail() { echo "xtask/apiserver/build.sh: $*" >&2; exit 1; }

minor=${1:-}
[[ $minor =~ ^1\.([0-9]+)$ ]] || fail "give a minor like 1.36 (got '${minor}')"
m=${BASH_REMATCH[1]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
modfile="minors/v$minor/go.mod"
[[ -f $here/$modfile ]] || fail "no $here/$modfile: minor $minor is not set up (run xtask/apiserver/minors/new.sh $minor)"
command -v go >/dev/null || fail "no go on PATH (Go 1.26 or newer is needed)"

kube=$(sed -n 's/^\(require\)\{0,1\}[[:space:]]*k8s.io\/kubernetes \(v[0-9.]*\)$/\2/p' "$here/$modfile")
[[ -n $kube ]] || fail "$modfile does not require k8s.io/kubernetes vX.Y.Z"
outdir="$root/target/apiserver/v$minor"
out="$outdir/vergate-apiserver"
mkdir -p "$outdir"

export GOTOOLCHAIN=${GOTOOLCHAIN:-local} GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
stamp=$(cd "$here" && { go version; cat build.sh "$modfile" "minors/v$minor/go.sum" ./*.go; } | sha256sum | cut -d' ' -f1)
if [[ -x $out && -f $out.stamp && $(cat "$out.stamp") == "$stamp" ]]; then
  echo "$out"
  exit 0
fi

# What hack/lib/version.sh stamps into a release build, so that /version and
# the server's idea of its own version are the release's.
pkg=k8s.io/component-base/version
ldflags="-s -w -X $pkg.gitVersion=$kube -X $pkg.gitMajor=1 -X $pkg.gitMinor=$m -X $pkg.gitTreeState=clean"
start=$(date +%s)
if ! (cd "$here" && nice go build -trimpath -modfile="$modfile" -tags "k8s_1_$m" -ldflags "$ldflags" -o "$out.tmp" .) >&2; then
  rm -f "$out.tmp"
  fail "go build of vergate-apiserver for Kubernetes $kube failed (see above)"
fi
mv "$out.tmp" "$out"
echo "$stamp" >"$out.stamp"
echo "xtask/apiserver/build.sh: built $out for Kubernetes $kube in $(( $(date +%s) - start ))s, $(du -m "$out" | cut -f1) MiB" >&2
echo "$out"
