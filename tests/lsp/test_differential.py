"""The server's diagnostics equal `vergate check --format json`'s findings,
document for document, on every YAML and JSON file of the repository's
test corpora, with the same settings: each file is copied beside a
`vergate.toml` that sets the target (and `check` gets `--target` too, so
the comparison holds whether or not `check` reads the file)."""

import json
import pathlib
import shutil
import subprocess

from lsprotocol import types

from conftest import REPO, VERGATE, Editor

TARGET = "1.34"
# The demo API's documents, checked against generated/demo (each carries
# its own minor).
DEMO = ("tests/json_schema/demo/", "tests/cli/demo/")
# Not manifests: other APIs' specs, spec-loader seeds, compile-fail cases.
LEFT_OUT = ("tests/ui/", "tests/plugin-crate/", "tests/fuzz/seeds/spec_loader/",
            "tests/hostile/conflicting-files/", "tests/kubevirt/")
MAX_BYTES = 1 << 20


def corpus(demo: bool) -> list[pathlib.Path]:
    files = []
    for path in sorted((REPO / "tests").rglob("*")):
        relative = path.relative_to(REPO).as_posix()
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        if relative.startswith(LEFT_OUT) or path.stat().st_size > MAX_BYTES:
            continue
        if relative.startswith(DEMO) != demo:
            continue
        files.append(path)
    return files


def check_findings(path: pathlib.Path, flags: list[str]) -> list[tuple]:
    run = subprocess.run([VERGATE, "check", "--format", "json", *flags, str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1, 2), run.stderr
    report = json.loads(run.stdout)
    found = []
    for v in report["violations"]:
        words = f"{v['path']}: {v['message']}" if v["path"] else v["message"]
        found.append((v["rule"], v["severity"], v["line"], words))
    return sorted(found)


SEVERITY = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning"}


def server_findings(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    return sorted((d.code, SEVERITY[d.severity], d.range.start.line + 1, d.message)
                  for d in diagnostics if d.code is not None)


async def compare(editor: Editor, folder: pathlib.Path, files: list[pathlib.Path], flags: list[str]) -> int:
    """Opens each file (copied into `folder`, beside its vergate.toml) and
    compares; the number compared."""
    mismatches = []
    compared = 0
    for index, source in enumerate(files):
        copy = folder / f"{index:04}{source.suffix}"
        shutil.copyfile(source, copy)
        try:
            text = copy.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # check decodes UTF-16 and BOMs; an editor sends text
        expected = check_findings(copy, flags)
        uri = copy.as_uri()
        editor.open(uri, text, language="json" if source.suffix == ".json" else "yaml")
        got = server_findings(await editor.diagnostics(uri))
        editor.close(uri)
        compared += 1
        if got != expected:
            mismatches.append((source.relative_to(REPO).as_posix(), expected, got))

    def show(findings):
        return [(rule, severity, line, words[:80]) for rule, severity, line, words in findings[:5]]

    assert not mismatches, f"{len(mismatches)} files differ:\n" + "\n".join(
        f"{name}:\n  check:  {show(e)}\n  server: {show(g)}" for name, e, g in mismatches[:8])
    return compared


async def test_diagnostics_equal_check_on_every_corpus_file(client, editor: Editor, tmp_path):
    (tmp_path / "vergate.toml").write_text(f'target = "{TARGET}"\n')
    files = corpus(demo=False)
    assert len(files) > 100, "the corpus went missing"
    assert await compare(editor, tmp_path, files, ["--target", TARGET]) > 100


async def test_diagnostics_equal_check_on_the_demo_apis_documents(client, editor: Editor, tmp_path):
    api = REPO / "generated" / "demo"
    (tmp_path / "vergate.toml").write_text(f"api = {json.dumps(str(api))}\n")
    files = corpus(demo=True)
    assert len(files) >= 10
    assert await compare(editor, tmp_path, files, ["--api", str(api)]) >= 10
