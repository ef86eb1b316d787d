"""pytest-lsp drives the built `vergate lsp` as an editor does.

Run by tests/lsp_client.rs (`cargo test --test lsp_client`), which sets
VERGATE_BIN to the binary cargo built; by hand:
    VERGATE_BIN=target/debug/vergate target/venv-openapi/bin/pytest tests/lsp
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

VERGATE = os.environ.get("VERGATE_BIN", "target/debug/vergate")
REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[VERGATE, "lsp"]),
)
async def client(lsp_client: LanguageClient):
    # No workspace folder: the server sees the open documents only.
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    yield
    await lsp_client.shutdown_session()


class Editor:
    """Open documents as an editor keeps them: texts, versions, and the
    diagnostics published for each version."""

    def __init__(self, client: LanguageClient):
        self.client = client
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.published: dict[str, tuple[int | None, list[types.Diagnostic]]] = {}
        # The client records diagnostics without their version: wrap its
        # handler to keep the version too.
        features = client.protocol.fm._features
        original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def on_publish(params: types.PublishDiagnosticsParams):
            self.published[params.uri] = (params.version, list(params.diagnostics))
            return original(params)

        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish

    async def diagnostics(self, uri: str, timeout: float = 20.0) -> list[types.Diagnostic]:
        """The diagnostics of the document's current version."""
        want = self.versions.get(uri)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            version, diagnostics = self.published.get(uri, (None, None))
            if diagnostics is not None and version == want:
                return diagnostics
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics for {uri} version {want}: {self.published.get(uri)}")
            await asyncio.sleep(0.005)

    def open(self, uri: str, text: str, language: str = "yaml"):
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
            )
        )

    def change(self, uri: str, changes: list[types.TextDocumentContentChangeEvent]):
        """Sends `changes` and applies them to the editor's copy."""
        self.versions[uri] += 1
        for change in changes:
            self.texts[uri] = apply(self.texts[uri], change)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=changes,
            )
        )

    def close(self, uri: str):
        del self.texts[uri]
        del self.versions[uri]
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    def apply_edit(self, edit: types.WorkspaceEdit) -> dict[str, str]:
        """The texts an editor would have after `edit` (not sent)."""
        out = {}
        for uri, edits in (edit.changes or {}).items():
            text = self.texts[uri]
            # Edits of one document apply to its text as it was: back to front.
            for text_edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
                text = apply(text, types.TextDocumentContentChangePartial(range=text_edit.range, text=text_edit.new_text))
            out[uri] = text
        return out


def offset(text: str, position: types.Position) -> int:
    """The offset in `text` (a Python str) of an LSP position, counted in
    UTF-16 code units as the protocol counts them."""
    lines = text.splitlines(keepends=True)
    at = sum(len(line) for line in lines[: position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= position.character or ch in "\r\n":
            return at + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return at + len(line.rstrip("\r\n"))


def apply(text: str, change) -> str:
    if getattr(change, "range", None) is None:
        return change.text
    start = offset(text, change.range.start)
    end = offset(text, change.range.end)
    return text[:start] + change.text + text[end:]


def position(text: str, at: int) -> types.Position:
    """The LSP position of offset `at` in `text`."""
    before = text[:at]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return types.Position(line=line, character=sum(2 if ord(c) > 0xFFFF else 1 for c in column))


@pytest.fixture
def editor(client: LanguageClient) -> Editor:
    return Editor(client)
