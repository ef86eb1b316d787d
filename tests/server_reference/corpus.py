#!/usr/bin/env python3
"""The two steps of record.sh around the API server (Python 3 stdlib only).

resolve CASES ROOT CRDS OUT
    Writes the API server's input (`{"name", "crds", "document"}` a line):
    each case's `crd_files` read and split into one CRD text per document.
    Paths are relative to ROOT; those under `../shared/crds/` are read
    from CRDS.

merge CASES CORPUS MINOR=VERDICTS...
    Folds the verdicts of the given minors into CORPUS (one line per case:
    `{"name", "results": [{"minors": [...], "strict": ..., "warn": ...}]}`,
    minors with the same answers grouped, `warn` left out when it is the
    same as `strict`), keeping the other minors'
    recordings and dropping cases no longer in CASES. Long messages are cut
    (the corpus is committed; the verdict and the fields are what is
    compared).
"""

import gzip
import json
import os
import re
import sys

SHARED = "../shared/crds/"
MESSAGE_LIMIT = 200


def open_text(path):
    """Opens a text file for reading, gzip-compressed when its name ends in
    `.gz` (the committed cases and corpus are, to keep them small in git)."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def write_text(path, text):
    """Writes `text`, gzip-compressed when the name ends in `.gz`, with no
    time stamp in the header, so a recording is byte-reproducible."""
    data = text.encode("utf-8")
    if path.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    with open(path, "wb") as dst:
        dst.write(data)


def minor_key(minor):
    major, rest = minor.split(".")
    return (int(major), int(rest))


def split_documents(text):
    docs, cur = [], []
    for line in text.split("\n"):
        if line.rstrip(" \t") == "---" or line.startswith("--- "):
            docs.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    docs.append("\n".join(cur))
    out = []
    for doc in docs:
        meaningful = [
            l for l in doc.split("\n") if l.strip() and not l.strip().startswith("#")
        ]
        if meaningful:
            out.append(doc.rstrip("\n") + "\n")
    return out


APPROVAL = "    api-approved.kubernetes.io: https://github.com/kubernetes-sigs/gateway-api/pull/3328\n"


def approved(doc):
    """The committed Gateway API CRDs (tests/cel/gateway-api, trimmed) lost
    upstream's `api-approved.kubernetes.io` annotation, which the API server
    requires of a CRD in a *.k8s.io group: put it back (vergate does not
    read it)."""
    marker = "  annotations:\n    gateway.networking.k8s.io/bundle-version:"
    if "api-approved.kubernetes.io" in doc or marker not in doc:
        return doc
    return doc.replace("  annotations:\n", "  annotations:\n" + APPROVAL, 1)


def resolve(cases, root, crds, out):
    texts = {}
    with open_text(cases) as src, open(out, "w") as dst:
        for line in src:
            case = json.loads(line)
            crd_texts = []
            for path in case.get("crd_files", []):
                if path not in texts:
                    if path.startswith(SHARED):
                        full = os.path.join(crds, path[len(SHARED):])
                    else:
                        full = os.path.join(root, path)
                    with open(full) as f:
                        texts[path] = [approved(d) for d in split_documents(f.read())]
                crd_texts.extend(texts[path])
            record = {"name": case["name"], "crds": crd_texts, "document": case["document"]}
            dst.write(json.dumps(record, ensure_ascii=False) + "\n")


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def cut(text):
    """A message as kept: the server's random UIDs (a Job's generated
    selector) written `<uid>`, then cut."""
    if isinstance(text, str):
        text = UUID.sub("<uid>", text)
    if isinstance(text, str) and len(text) > MESSAGE_LIMIT:
        return text[:MESSAGE_LIMIT] + "…"
    return text


GENERATED = re.compile(r'(Invalid value: ")[^"]*(")')


def answer(result, generates_name):
    """One answer (strict or warn) as the corpus keeps it. For a document
    with `generateName`, the server's random name in a `metadata.name`
    cause is written `<generated>`."""
    if result is None:
        return None
    if generates_name:
        for c in result.get("causes") or []:
            if c.get("field") == "metadata.name" and c.get("message"):
                c["message"] = GENERATED.sub(r"\1<generated>\2", c["message"], count=1)
    kept = {}
    for key in ("verdict", "stage", "code", "reason"):
        if key in result and result[key] not in (None, ""):
            kept[key] = result[key]
    # The server lists some causes (a CRD schema's) in no stable order, and
    # its message repeats them in that order: causes are sorted, and the
    # message kept only when there are none.
    causes = sorted(
        (
            {k: cut(c[k]) for k in ("field", "reason", "message") if c.get(k)}
            for c in result.get("causes") or []
        ),
        key=lambda c: (c.get("field", ""), c.get("reason", ""), c.get("message", "")),
    )
    if causes:
        kept["causes"] = causes
    elif result.get("message"):
        kept["message"] = cut(result["message"])
    warnings = sorted(cut(w) for w in result.get("warnings") or [])
    if warnings:
        kept["warnings"] = warnings
    return kept


def merge(cases, corpus, recordings):
    with open_text(cases) as src:
        all_cases = [json.loads(line) for line in src]
    names = [case["name"] for case in all_cases]
    generates = {c["name"] for c in all_cases if "generateName" in c["document"]}
    per_case = {name: {} for name in names}
    if os.path.exists(corpus):
        with open_text(corpus) as src:
            lines = src.readlines()
        for line in lines:
            entry = json.loads(line)
            if entry["name"] not in per_case:
                continue
            for group in entry["results"]:
                for minor in group["minors"]:
                    per_case[entry["name"]][minor] = {
                        "strict": group.get("strict"),
                        "warn": group.get("warn", group.get("strict")),
                    }
    for arg in recordings:
        minor, path = arg.split("=", 1)
        seen = set()
        for line in open(path):
            rec = json.loads(line)
            name = rec["name"]
            if name not in per_case:
                sys.exit(f"{path}: case {name!r} is not in {cases}")
            seen.add(name)
            per_case[name][minor] = {
                "strict": answer(rec.get("strict"), name in generates),
                "warn": answer(rec.get("warn"), name in generates),
            }
        for name in names:
            if name not in seen:
                per_case[name].pop(minor, None)
        missing = len(names) - len(seen)
        if missing:
            print(f"merge: {minor}: {missing} cases without a verdict", file=sys.stderr)
    out = []
    for name in names:
        groups = {}
        for minor in sorted(per_case[name], key=minor_key):
            result = per_case[name][minor]
            key = json.dumps(result, sort_keys=True, ensure_ascii=False)
            groups.setdefault(key, (result, []))[1].append(minor)
        results = []
        for result, minors in groups.values():
            group = {"minors": minors, "strict": result["strict"]}
            if result["warn"] != result["strict"]:
                group["warn"] = result["warn"]
            results.append(group)
        line = {"name": name, "results": results}
        out.append(json.dumps(line, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
    tmp = corpus + ".tmp.gz" if corpus.endswith(".gz") else corpus + ".tmp"
    write_text(tmp, "".join(out))
    os.replace(tmp, corpus)


def main(argv):
    if len(argv) == 5 and argv[0] == "resolve":
        resolve(*argv[1:])
    elif len(argv) >= 3 and argv[0] == "merge":
        merge(argv[1], argv[2], argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
