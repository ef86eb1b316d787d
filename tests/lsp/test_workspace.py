"""A workspace as an editor opens one: vergate.toml's target and crds, a
CRD on disk elsewhere in the workspace, and a CRD among the open
documents; and a broken vergate.toml."""

import asyncio
import shutil

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import REPO, VERGATE, Editor, position

CRDS = REPO / "tests" / "custom-resources"
WIDGET = """\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  name: w
  replicas: 1
  tier: huge
"""


async def until(condition, timeout: float = 30.0):
    """Waits until `condition()` holds (diagnostics published since), at
    most `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "no such diagnostics in time"
        await asyncio.sleep(0.005)


def widgets_crd():
    """The widgets CRD, its look-ahead `pattern` (which Go's regexp refuses,
    so the API server would refuse the CRD and serve no widget) replaced by
    one the server takes."""
    return (CRDS / "widgets-crd.yaml").read_text().replace("^(?!kube-).*$", "^[a-z-]*$")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[VERGATE, "lsp"]))
async def workspace(lsp_client: LanguageClient, tmp_path):
    (tmp_path / "crds").mkdir()
    shutil.copyfile(CRDS / "formats-crd.yaml", tmp_path / "crds" / "formats-crd.yaml")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "widgets-crd.yaml").write_text(widgets_crd())
    (tmp_path / "vergate.toml").write_text('target = "1.31"\ncrds = ["crds/"]\n')
    lsp_client.root = tmp_path
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="w")],
    ))
    yield
    await lsp_client.shutdown_session()


async def test_crds_on_disk_and_settings(workspace):
    editor = Editor(workspace)
    root = workspace.root
    uri = (root / "widget.yaml").as_uri()
    editor.open(uri, WIDGET)
    diagnostics = await editor.diagnostics(uri)
    # The CRD found on disk (vendor/, not named in crds) checks the widget.
    assert [d.code for d in diagnostics] == ["value-not-available"], diagnostics
    assert "accepted: large, small" in diagnostics[0].message
    # Hover and completion know the custom resource's fields.
    result = await workspace.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position(WIDGET, WIDGET.index("  replicas")),
    ))
    assert {"name", "replicas", "tier", "port"} <= {item.label for item in result.items}
    hover = await workspace.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position(WIDGET, WIDGET.index("tier") + 1)))
    assert "**tier**" in hover.contents.value


async def test_a_crd_being_edited_checks_the_open_documents(workspace):
    editor = Editor(workspace)
    root = workspace.root
    (root / "vendor" / "widgets-crd.yaml").unlink()
    widget = (root / "widget.yaml").as_uri()
    editor.open(widget, WIDGET)
    assert [d.code for d in await editor.diagnostics(widget)] == ["unknown-kind"]
    # Opening the CRD (not on disk) makes it known; editing it re-checks.
    crd = (root / "widgets-crd.yaml").as_uri()
    text = widgets_crd()
    editor.open(crd, text)
    await editor.diagnostics(crd)
    await until(lambda: [d.code for d in editor.published[widget][1]] != ["unknown-kind"])
    codes = [d.code for d in editor.published[widget][1]]
    assert codes == ["value-not-available"], codes
    editor.change(crd, [types.TextDocumentContentChangeWholeDocument(text=text.replace("enum: [small, large]", "enum: [small, large, huge]"))])
    await until(lambda: [d.code for d in editor.published[widget][1]] != ["value-not-available"])
    assert editor.published[widget][1] == []


async def test_a_broken_settings_file_is_one_diagnostic(workspace):
    editor = Editor(workspace)
    root = workspace.root
    settings = root / "vergate.toml"
    settings.write_text('target = "1.31"\ntarget = 3\n')
    uri = (root / "widget.yaml").as_uri()
    editor.open(uri, WIDGET)
    diagnostics = await editor.diagnostics(uri)
    broken = [d for d in diagnostics if d.code is None]
    assert len(broken) == 1 and "vergate.toml:2:" in broken[0].message, diagnostics
    # Open, the settings file shows the mistake at its line.
    editor.open(settings.as_uri(), settings.read_text(), language="toml")
    (mistake,) = await editor.diagnostics(settings.as_uri())
    assert mistake.range.start.line == 1


PIPELINE = """\
apiVersion: "1.12"
kind: Pipeline
metadata:
  name: p
spec:
  artifacts:
    - path: a
"""

GADGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts: {type: integer, description: How many parts it has.}
"""


async def test_hover_descriptions(workspace):
    root = workspace.root
    editor = Editor(workspace)

    async def hover(uri: str, text: str, word: str) -> str:
        result = await workspace.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=position(text, text.index(word) + 1)))
        return result.contents.value

    # A generated tree (the demo API's): its JSON Schema's descriptions.
    (root / "demo").mkdir()
    (root / "demo" / "vergate.toml").write_text(f'api = "{REPO / "generated" / "demo"}"\n')
    uri = (root / "demo" / "pipeline.yaml").as_uri()
    editor.open(uri, PIPELINE)
    value = await hover(uri, PIPELINE, "artifacts")
    assert "What the pipeline publishes." in value, value
    assert "What a pipeline runs." in await hover(uri, PIPELINE, "spec")
    # A custom resource: its CRD's.
    (root / "crds" / "gadgets-crd.yaml").write_text(GADGET_CRD)
    gadget = "apiVersion: example.com/v1\nkind: Gadget\nspec:\n  parts: 3\n"
    uri = (root / "gadget.yaml").as_uri()
    editor.open(uri, gadget)
    value = await hover(uri, gadget, "parts")
    assert "How many parts it has." in value, value
    # The embedded index: where descriptions come from, in one line.
    service = "apiVersion: v1\nkind: Service\nspec:\n  type: ClusterIP\n"
    uri = (root / "service.yaml").as_uri()
    editor.open(uri, service)
    value = await hover(uri, service, "type")
    assert "set `api` in vergate.toml to a generated tree" in value, value
