#!/usr/bin/env python3
"""Trims KubeVirt's api/openapi-spec/swagger.json to the fixture kept here.

Usage: trim.py <kubevirt git dir> <tag> <out.json>
(e.g. `trim.py ~/src/kubevirt v1.8.0 v1.8/swagger.json`).

Kept: the kinds MigrationPolicy, VirtualMachineExport (whichever versions the
release serves) and VirtualMachineInstance with their lists, every type they
reach, the subresource path `…/virtualmachineinstances/{name}/pause`
(of subresources.kubevirt.io/v1, a PUT with a PauseOptions body), apimachinery's Status, WatchEvent, DeleteOptions and Patch, and the paths of their plurals whose every `$ref` is kept, with the
shared `parameters` those paths use (DeleteOptions, Patch bodies).
VirtualMachineInstance's type graph is cut to its spec and status objects,
the device status types and apimachinery's; a kept type's property whose type
was cut is left out (and from `required`). Everything else is byte-for-byte
the upstream value, re-serialized with sorted keys.
"""
import json
import subprocess
import sys

repo, tag, out = sys.argv[1:4]
doc = json.loads(subprocess.run(
    ["git", "-C", repo, "show", f"{tag}:api/openapi-spec/swagger.json"],
    check=True, capture_output=True).stdout)
defs = doc["definitions"]
PLURALS = ("migrationpolicies", "virtualmachineexports", "virtualmachineinstances")
FULL = [n for n in defs if n.split(".")[-1] in (
    "MigrationPolicy", "MigrationPolicyList",
    "VirtualMachineExport", "VirtualMachineExportList", "PauseOptions")]
FULL += ["k8s.io.apimachinery.pkg.apis.meta.v1." + n for n in ("Status", "WatchEvent", "DeleteOptions", "Patch")]
PAUSE = "/apis/subresources.kubevirt.io/v1/namespaces/{namespace}/virtualmachineinstances/{name}/pause"
CUT_TO = {"v1.VirtualMachineInstance", "v1.VirtualMachineInstanceList",
          "v1.VirtualMachineInstanceSpec", "v1.VirtualMachineInstanceStatus",
          "v1.DeviceStatus", "v1.DeviceStatusInfo", "v1.DeviceResourceClaimStatus",
          "v1.DeviceAttribute"}


def refs(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "$ref" and isinstance(inner, str):
                yield inner
            else:
                yield from refs(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from refs(inner)


def closure(roots, follow):
    seen, stack = set(), list(roots)
    while stack:
        name = stack.pop()
        if name in seen or name not in defs or not follow(name):
            continue
        seen.add(name)
        stack.extend(r.split("/")[-1] for r in refs(defs[name]) if r.startswith("#/definitions/"))
    return seen


keep = closure(FULL, lambda _: True)
keep |= closure([n for n in CUT_TO if n in defs],
                lambda n: n in CUT_TO or n.startswith("k8s.io.apimachinery."))
params = {}
for name, param in doc.get("parameters", {}).items():
    params[name] = param
    keep |= closure([r.split("/")[-1] for r in refs(param)], lambda _: True)


def kept_ref(ref):
    if ref.startswith("#/definitions/"):
        return ref.split("/")[-1] in keep
    return ref.startswith("#/parameters/")


out_defs = {}
for name in sorted(keep):
    definition = json.loads(json.dumps(defs[name]))
    props = definition.get("properties")
    if props:
        for prop in [p for p, v in props.items() if not all(kept_ref(r) for r in refs(v))]:
            del props[prop]
            if prop in definition.get("required", []):
                definition["required"].remove(prop)
        if definition.get("required") == []:
            del definition["required"]
    out_defs[name] = definition

paths = {p: item for p, item in doc["paths"].items()
         if any(f"/{plural}" in p for plural in PLURALS)
         and ("/subresources.kubevirt.io/" not in p or p.startswith(PAUSE))
         and all(kept_ref(r) for r in refs(item))}
used = {r.split("/")[-1] for r in refs(paths) if r.startswith("#/parameters/")}
trimmed = {
    "swagger": doc["swagger"],
    "info": doc["info"],
    "paths": paths,
    "definitions": out_defs,
    "parameters": {n: p for n, p in params.items() if n in used},
}
with open(out, "w") as f:
    json.dump(trimmed, f, indent=1, sort_keys=True)
    f.write("\n")
