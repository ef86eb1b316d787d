#!/usr/bin/env bash
# CEL validation rules' cost in `vergate check --crd`: the same custom
# resources checked against Gateway API's CRDs (tests/cel/gateway-api/v1.3.0)
# with their x-kubernetes-validations, and against the same CRDs with every
# rule stripped. Side by side in one hyperfine run.
#
#   xtask/bench/cel.sh                 # 3000 resources, target 1.31
#   N=6000 RUNS=10 xtask/bench/cel.sh
#   VERGATE=target/quick/vergate xtask/bench/cel.sh
#   ALTERNATE=41 xtask/bench/cel.sh    # runs in turn per command (default 41)
#   BEFORE=/path/to/older/vergate xtask/bench/cel.sh   # before / after
#   PLAIN=resources.yaml PLAIN_TARGET=1.35 BEFORE=… xtask/bench/cel.sh
#                                      # a 5,004-resource file of your own
#
# With BEFORE, the two builds are compared instead, on the same inputs with
# the rules kept (flow and block style), stripped (block style: what changed
# besides CEL), and on the 5,004-resource file of
# `cargo xtask bench preflight` (`check --strict -j 1 --target 1.34`), or
# PLAIN's at PLAIN_TARGET: the
# instructions each run executes (valgrind's callgrind, repeatable on a
# loaded machine: the primary figure), then medians of wall and CPU time,
# the two builds run in turn (ALTERNATE times each), and their reports
# compared byte for byte.
#
# Needs python3 with PyYAML (to strip the rules), and hyperfine unless
# BEFORE is set (then valgrind). Builds the release binary. Not part of
# .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-3000}
RUNS=${RUNS:-10}
TARGET=${TARGET:-1.31}
work=target/bench-cel
crds=tests/cel/gateway-api/v1.3.0
mkdir -p "$work/with-rules" "$work/without-rules"

# VERGATE=<binary> measures that build instead (a quicker profile while
# iterating); the figures in docs/benchmarks.md are the release build's.
if [ -z "${VERGATE:-}" ]; then
    cargo build --quiet --release --bin vergate
fi
vergate=${VERGATE:-target/release/vergate}

python3 - "$crds" "$work" "$N" <<'PY'
import pathlib, sys, yaml
crds, work, n = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])

def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k != "x-kubernetes-validations"}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node

for path in sorted(crds.glob("*.yaml")):
    text = path.read_text()
    (work / "with-rules" / path.name).write_text(text)
    docs = [strip(d) for d in yaml.safe_load_all(text) if d]
    (work / "without-rules" / path.name).write_text(yaml.safe_dump_all(docs, sort_keys=False))

# Resources a real repository holds: routes with a few rules, matches,
# filters and backends, and gateways with several listeners; all valid.
route = """apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: route-{i}, namespace: apps}}
spec:
  parentRefs: [{{name: gw-{g}, sectionName: https}}]
  hostnames: [app-{i}.example.com]
  rules:
  - matches:
    - path: {{type: PathPrefix, value: /api/v{i}}}
      headers: [{{name: x-tenant, value: t{i}}}]
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier: {{set: [{{name: x-route, value: r{i}}}]}}
    backendRefs:
    - {{name: api-{i}, port: 8080, weight: 90}}
    - {{name: api-canary-{i}, port: 8080, weight: 10}}
  - matches:
    - path: {{type: Exact, value: /healthz}}
    filters:
    - type: URLRewrite
      urlRewrite: {{path: {{type: ReplaceFullPath, replaceFullPath: /ready}}}}
    backendRefs:
    - {{name: api-{i}, port: 8081}}
"""
grpc = """apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {{name: grpc-{i}, namespace: apps}}
spec:
  parentRefs: [{{name: gw-{g}}}]
  rules:
  - matches:
    - method: {{type: Exact, service: svc.v{i}.Greeter, method: SayHello}}
    backendRefs:
    - {{name: grpc-{i}, port: 9090}}
"""
gateway = """apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw-{i}, namespace: apps}}
spec:
  gatewayClassName: example
  listeners:
  - {{name: http, protocol: HTTP, port: 80, hostname: "*.example.com"}}
  - name: https
    protocol: HTTPS
    port: 443
    hostname: "*.example.com"
    tls: {{mode: Terminate, certificateRefs: [{{name: cert-{i}}}]}}
  - {{name: tcp, protocol: TCP, port: 5432}}
"""
docs = []
for i in range(n):
    template = (route, route, route, grpc, gateway)[i % 5]
    docs.append(template.format(i=i, g=i % 7))
(work / "resources.yaml").write_text("---\n".join(docs))
# The same resources in block style, as kubectl and Helm print them (the
# reader's fast path), where the rules weigh more against the rest.
block = [yaml.safe_load(doc) for doc in docs]
(work / "resources-block.yaml").write_text(yaml.safe_dump_all(block, sort_keys=False))
PY

if [ -n "${BEFORE:-}" ]; then
    exec python3 xtask/bench/cel_before_after.py "$BEFORE" "$vergate" "$work" "$TARGET" "${ALTERNATE:-21}"
fi

for style in resources resources-block; do
    hyperfine --warmup 2 --runs "$RUNS" --export-json "$work/$style.json" \
        -n "with CEL rules" "$vergate check --target $TARGET --crd $work/with-rules $work/$style.yaml" \
        -n "rules stripped" "$vergate check --target $TARGET --crd $work/without-rules $work/$style.yaml"
    python3 - "$work/$style.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
median = {r["command"]: statistics.median(r["times"]) for r in results}
user = {r["command"]: r["user"] for r in results}
print(f"{sys.argv[1]}: medians {median['with CEL rules']*1000:.1f} ms / {median['rules stripped']*1000:.1f} ms = "
      f"{median['with CEL rules']/median['rules stripped']:.2f}x; user CPU {user['with CEL rules']*1000:.0f} / {user['rules stripped']*1000:.0f} ms = "
      f"{user['with CEL rules']/user['rules stripped']:.2f}x")
PY
done
# The figures in docs/benchmarks.md: the two commands run in turn
# (ALTERNATE times each, after two warm-up runs of each), so a busy moment
# hits both alike; medians of wall time and of CPU (user + system). At
# 30-100 ms a single hyperfine run moves by ±25 %.
python3 - "$vergate" "$TARGET" "$work" "${ALTERNATE:-41}" <<'PY'
import statistics, sys
sys.path.insert(0, "xtask/bench")
from timing import timed as run
vergate, target, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

for style in ("resources", "resources-block"):
    commands = {
        crds: [vergate, "check", "--target", target, "--crd", f"{work}/{crds}", f"{work}/{style}.yaml"]
        for crds in ("with-rules", "without-rules")
    }
    times = {crds: [] for crds in commands}
    for command in commands.values():
        run(command)
        run(command)
    for i in range(n):
        order = ("with-rules", "without-rules") if i % 2 == 0 else ("without-rules", "with-rules")
        for crds in order:
            times[crds].append(run(commands[crds]))
    wall = {crds: statistics.median(t[0] for t in ts) * 1000 for crds, ts in times.items()}
    cpu = {crds: statistics.median(t[1] for t in ts) * 1000 for crds, ts in times.items()}
    print(f"{style} (in turn, {n} runs each): wall {wall['with-rules']:.1f} / {wall['without-rules']:.1f} ms = "
          f"{wall['with-rules'] / wall['without-rules']:.2f}x; CPU {cpu['with-rules']:.1f} / {cpu['without-rules']:.1f} ms = "
          f"{cpu['with-rules'] / cpu['without-rules']:.2f}x")
PY
"$vergate" check --target "$TARGET" --crd "$work/with-rules" "$work/resources.yaml" 2>&1 | tail -1
