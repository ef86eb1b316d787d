#!/usr/bin/env bash
# The editor path side by side: yaml-language-server with vergate's editor
# JSON Schema (docs/editor.md) and `vergate lsp`, driven by the same small
# LSP client (xtask/bench/lsp_driver.py, Python standard library only) on
# the same 359-line file of Deployments and Services at target 1.34:
#
#   first  spawn → first publishDiagnostics of the opened file (start-up
#          included; median of ROUNDS fresh servers)
#   edit   didChange → the next publishDiagnostics (median of ROUNDS×EDITS)
#   memory VmRSS of the server's process tree with MANY files open
#
#   xtask/bench/lsp.sh                          # ROUNDS=5 EDITS=10 MANY=200
#   ROUNDS=11 xtask/bench/lsp.sh
#   VERGATE=target/debug/vergate xtask/bench/lsp.sh
#   API=../main/generated/kubernetes xtask/bench/lsp.sh
#   SERVERS=vergate xtask/bench/lsp.sh          # one of the two (yaml, vergate)
#
# Needs python3, node and npm; yaml-language-server 2.0.0 is installed into
# the git-ignored target/tools/ (where .ci/run puts it). The schema is
# $API/json/v1.34-strict/all.json (`cargo xtask regen --api kubernetes`
# writes generated/kubernetes). `vergate lsp` is skipped, saying so, when the
# binary has no such subcommand. Builds the release binary unless VERGATE is
# given. Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
EDITS=${EDITS:-10}
MANY=${MANY:-200}
SERVERS=${SERVERS:-yaml vergate}
TARGET=${TARGET:-1.34}
API=${API:-generated/kubernetes}
work=target/bench-lsp
driver=xtask/bench/lsp_driver.py

schema="$(realpath -m "$API")/json/v$TARGET-strict/all.json"
if [ ! -f "$schema" ]; then
    echo "error: $schema: no such schema; run \`cargo xtask fetch-specs kubernetes --from <specs> && cargo xtask regen --api kubernetes\`, or give API=<generated/kubernetes elsewhere>" >&2
    exit 2
fi

yls=target/tools/node_modules/yaml-language-server/bin/yaml-language-server
if [ ! -f "$yls" ]; then
    npm install --no-save --no-audit --no-fund --prefix target/tools yaml-language-server@2.0.0 >&2
fi

if [ -z "${VERGATE:-}" ]; then
    cargo build --quiet --release --bin vergate
fi
vergate=$(realpath "${VERGATE:-target/release/vergate}")

# The workspace: the file, and the vergate.toml `vergate lsp` reads. Its
# path has no hidden component (yaml-language-server's globs skip those).
rm -rf "$work"
mkdir -p "$work"
printf 'target = "%s"\n' "$TARGET" > "$work/vergate.toml"
python3 - "$work/manifests.yaml" <<'PY'
import sys
deployment = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-{i}
  labels:
    app: web-{i}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web-{i}
  template:
    metadata:
      labels:
        app: web-{i}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: 80
---
"""
service = """apiVersion: v1
kind: Service
metadata:
  name: web-{i}
spec:
  selector:
    app: web-{i}
  ports:
    - port: 80
      targetPort: 80
  trafficDistribution: PreferClose
---
"""
# The known error every first answer must show: a misspelled key.
last = service.replace("  trafficDistribution", "  sessionAffinty: None\n  trafficDistribution").rstrip("-\n") + "\n"
text, i = "", 0
while (text + deployment + service + last).count("\n") <= 359:
    text += deployment.format(i=i) + service.format(i=i)
    i += 1
text += last.format(i=i)
text += "# padding\n" * (359 - text.count("\n"))
assert text.count("\n") == 359
open(sys.argv[1], "w").write(text)
PY

yaml_settings=$(python3 -c 'import json,sys; print(json.dumps({"yaml": {"schemas": {sys.argv[1]: ["*.yaml"]}, "validate": True, "hover": True, "completion": True, "schemaStore": {"enable": False}}}))' "$schema")

results=()
run() { # name command settings
    local name=$1 command=$2 settings=$3
    echo "== $name" >&2
    python3 "$driver" --command "$command" --root "$work" --file "$work/manifests.yaml" \
        --settings "$settings" --rounds "$ROUNDS" --edits "$EDITS" > "$work/$name.json"
    if [ "$MANY" -gt 0 ]; then
        echo "   $MANY files open" >&2
        python3 "$driver" --command "$command" --root "$work" --file "$work/manifests.yaml" \
            --settings "$settings" --many "$MANY" > "$work/$name-many.json"
    fi
    results+=("$name")
}

case " $SERVERS " in *" yaml "*)
    run yaml-language-server "node $(realpath "$yls") --stdio" "$yaml_settings" ;;
esac
case " $SERVERS " in *" vergate "*)
    if "$vergate" lsp --help > /dev/null 2>&1; then
        run vergate-lsp "$vergate lsp" '{}'
    else
        echo "== vergate-lsp: skipped: $vergate has no \`lsp\` subcommand yet (issue 43's language server); yaml-language-server's figures only" >&2
    fi ;;
esac

python3 - "$work" "${results[@]}" <<'PY'
import json, os, sys
work, names = sys.argv[1], sys.argv[2:]
rows = {}
for name in names:
    row = json.load(open(f"{work}/{name}.json"))
    many = f"{work}/{name}-many.json"
    if os.path.exists(many):
        row["many"] = json.load(open(many))
    rows[name] = row
lines = next(iter(rows.values()))["lines"]
print(f"{lines}-line file, medians; memory with the files open")
print("| server | first diagnostics ms | after an edit ms | diagnostics | RSS MiB (peak) |")
print("|---|---|---|---|---|")
for name, row in rows.items():
    many = row.get("many")
    memory = f"{many['rss_mib']} ({many['peak_mib']}) with {many['files']}" if many else "-"
    print(f"| {name} | {row['first_median_ms']} | {row['edit_median_ms']} | {row['diagnostics']} | {memory} |")
if {"yaml-language-server", "vergate-lsp"} <= rows.keys():
    a, b = rows["yaml-language-server"], rows["vergate-lsp"]
    print(f"\nvergate lsp: {a['first_median_ms'] / b['first_median_ms']:.1f}x faster to first diagnostics, "
          f"{a['edit_median_ms'] / b['edit_median_ms']:.1f}x after an edit")
PY
