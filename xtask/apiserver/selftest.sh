#!/usr/bin/env bash
# Runs `vergate-apiserver verdicts` on the sample in testdata/ and checks every
# verdict against testdata/sample.json; then runs it again and checks that the
# two outputs are byte-identical (recording is deterministic).
#
#   xtask/apiserver/selftest.sh [1.36]
#
# Needs python3 (standard library only) and the project's shared/crds (beside
# the repo, or at $VERGATE_SHARED/crds) for the real-CRD cases.
set -euo pipefail

fail() { echo "xtask/apiserver/selftest.sh: $*" >&2; exit 1; }

minor=${1:-1.36}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
shared=${VERGATE_SHARED:-$root/../shared}
[[ -d $shared/crds ]] || fail "no $shared/crds: set VERGATE_SHARED to the folder holding crds/"
command -v python3 >/dev/null || fail "python3 is needed"

bin=$("$here/build.sh" "$minor")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Assemble the cases file from the sample's documents and CRDs.
python3 - "$here/testdata" "$shared/crds" "$work/cases.jsonl" <<'PY'
import json, sys
testdata, crds, out = sys.argv[1:]
CEL_RULE = [
    "            x-kubernetes-validations:\n",
    "            - rule: \"!has(self.jobLabel) || self.jobLabel != 'forbidden'\"\n",
    "              message: jobLabel must not be 'forbidden'\n",
]
def crd_text(ref):
    if ref.startswith("shared+cel:"):
        lines = open(f"{crds}/{ref.split(':', 1)[1]}").readlines()
        at = lines.index("          spec:\n")  # the top-level spec property of the first version
        return "".join(lines[: at + 1] + CEL_RULE + lines[at + 1 :])
    if ref.startswith("shared:"):
        return open(f"{crds}/{ref.split(':', 1)[1]}").read()
    return open(f"{testdata}/{ref}").read()
sample = json.load(open(f"{testdata}/sample.json"))
with open(out, "w") as f:
    for c in sample["cases"]:
        line = {"name": c["name"], "crds": [crd_text(r) for r in c.get("crds", [])],
                "document": open(f"{testdata}/{c['document']}").read()}
        f.write(json.dumps(line) + "\n")
PY

for run in 1 2; do
  start=$(date +%s)
  "$bin" verdicts --cases "$work/cases.jsonl" -o "$work/verdicts.$run.jsonl" ||
    fail "run $run of $bin verdicts failed"
  echo "selftest: run $run took $(( $(date +%s) - start ))s" >&2
done
cmp -s "$work/verdicts.1.jsonl" "$work/verdicts.2.jsonl" ||
  fail "two runs recorded different verdicts:$(diff "$work/verdicts.1.jsonl" "$work/verdicts.2.jsonl" | head -20)"

python3 - "$here/testdata/sample.json" "$work/verdicts.1.jsonl" "$minor" <<'PY'
import json, sys
sample, got, minor = sys.argv[1:]
cases = json.load(open(sample))["cases"]
lines = [json.loads(l) for l in open(got)]
problems = []
if [l["name"] for l in lines] != [c["name"] for c in cases]:
    problems.append("output names or order differ from the input")
for c, l in zip(cases, lines):
    if l["minor"] != minor:
        problems.append(f"{c['name']}: minor {l['minor']!r}, expected {minor!r}")
    for side in ("strict", "warn"):
        want, v = c[side], l[side]
        where = f"{c['name']} ({side})"
        for key in ("verdict", "code", "reason"):
            if key in want and v.get(key) != want[key]:
                problems.append(f"{where}: {key} {v.get(key)!r}, expected {want[key]!r}")
        if v.get("stage") != want.get("stage"):
            problems.append(f"{where}: stage {v.get('stage')!r}, expected {want.get('stage')!r}")
        if "field" in want and want["field"] not in [x["field"] for x in v["causes"]]:
            problems.append(f"{where}: no cause at {want['field']!r} in {v['causes']}")
        if "message" in want and want["message"] not in v["message"]:
            problems.append(f"{where}: message {v['message']!r} lacks {want['message']!r}")
        if "warning" in want and not any(want["warning"] in w for w in v["warnings"]):
            problems.append(f"{where}: warnings {v['warnings']} lack {want['warning']!r}")
for p in problems:
    print("selftest: FAIL", p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"selftest: {len(cases)} cases, both modes, as expected; two runs identical", file=sys.stderr)
PY
