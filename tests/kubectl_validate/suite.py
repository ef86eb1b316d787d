"""kubectl-validate's test documents, split and read as its own test
(pkg/cmd/validate_test.go) does: a file's documents as apimachinery's
YAMLReader splits them, a comment-only document a success, and each other
document's leading comment the status its suite expects.

    suite.py input TESTCASES OUT.jsonl           the cases for vergate-apiserver verdicts
    suite.py merge TESTCASES VERDICTS MINOR=ANSWERS.jsonl...
"""
import glob
import hashlib
import json
import os
import sys


def documents(text):
    """The documents of a file: cut at `---` lines, empty ones dropped."""
    docs, cur = [], []
    for line in text.split("\n"):
        if line.startswith("---") and line[3:].strip() == "":
            if cur:
                docs.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    if cur and "\n".join(cur) != "":
        docs.append("\n".join(cur))
    return [d for d in docs if d != ""]


def is_empty(doc):
    return all(l.strip() == "" or l.strip().startswith("#") or l.strip() == "---" for l in doc.split("\n"))


def expected(doc):
    """The status the suite expects: its leading comment's, Success when empty."""
    if is_empty(doc):
        return "Success"
    comment = []
    for line in doc.split("\n"):
        if not comment and line.strip() == "":
            continue
        if not line.startswith("#"):
            break
        comment.append(line[1:])
    return json.loads("\n".join(comment)).get("status", "")


def cases(testcases):
    """Every document: (file, index, text)."""
    for path in sorted(glob.glob(os.path.join(testcases, "manifests", "*.yaml"))):
        with open(path) as f:
            for index, doc in enumerate(documents(f.read())):
                yield os.path.basename(path), index, doc


def crds(testcases):
    out = []
    for path in sorted(glob.glob(os.path.join(testcases, "crds", "*.yaml"))):
        with open(path) as f:
            for doc in documents(f.read()):
                if "kind: CustomResourceDefinition" in doc:
                    out.append(doc)
    return out


def main(argv):
    if argv[0] == "input":
        testcases, out = argv[1], argv[2]
        defs = crds(testcases)
        with open(out, "w") as dst:
            for name, index, doc in cases(testcases):
                if not is_empty(doc):
                    dst.write(json.dumps({"name": f"{name}#{index}", "crds": defs, "document": doc}) + "\n")
    elif argv[0] == "merge":
        testcases, verdicts = argv[1], argv[2]
        answers = {}
        for arg in argv[3:]:
            minor, path = arg.split("=", 1)
            with open(path) as f:
                for line in f:
                    answer = json.loads(line)
                    strict = answer["strict"]
                    answers.setdefault(answer["name"], {})[minor] = {
                        "verdict": strict["verdict"],
                        "fields": sorted({c["field"] for c in strict.get("causes") or [] if c.get("field")}),
                        "message": strict.get("message", "")[:300],
                    }
        # Minors recorded before and not recorded now are kept.
        kept = {}
        if os.path.exists(verdicts):
            with open(verdicts) as f:
                for line in f:
                    record = json.loads(line)
                    kept[f"{record['file']}#{record['index']}"] = record["server"]
        for name, server in kept.items():
            for minor, answer in server.items():
                answers.setdefault(name, {}).setdefault(minor, answer)
        with open(verdicts, "w") as dst:
            for name, index, doc in cases(testcases):
                record = {
                    "file": name,
                    "index": index,
                    "sha256": hashlib.sha256(doc.encode()).hexdigest(),
                    "kubectl_validate_expects": expected(doc),
                    "server": answers.get(f"{name}#{index}", {}),
                }
                dst.write(json.dumps(record, sort_keys=True) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
