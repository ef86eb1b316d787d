"""The server as an editor uses it: open, change, close; diagnostics,
hover, completion and code actions, their edits applied to the text."""

import asyncio

from lsprotocol import types

from conftest import Editor, position

SERVICE = """\
# vergate: target=1.29
apiVersion: v1
kind: Service
metadata:
  name: web  # ünïcödé 😀 before the finding
spec:
  trafficDistribution: PreferClose
  selector:
    app: web
  ports:
  - port: 80
"""

URI = "file:///tmp/vergate-lsp-test/service.yaml"


def at(text: str, needle: str, plus: int = 0) -> types.Position:
    return position(text, text.index(needle) + plus)


async def test_open_change_close(client, editor: Editor):
    editor.open(URI, SERVICE)
    diagnostics = await editor.diagnostics(URI)
    assert [d.code for d in diagnostics] == ["not-yet-introduced"]
    found = diagnostics[0]
    assert found.source == "vergate"
    assert found.severity == types.DiagnosticSeverity.Error
    assert found.message.startswith("spec.trafficDistribution: not available in 1.29")
    # The span of the key, in UTF-16 columns.
    assert found.range.start == at(SERVICE, "trafficDistribution")
    assert found.range.end == at(SERVICE, "trafficDistribution", len("trafficDistribution"))

    # An incremental edit after the emoji: the target moves to 1.34.
    editor.change(URI, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=0, character=20), end=types.Position(line=0, character=22)),
        text="34",
    )])
    assert editor.texts[URI].startswith("# vergate: target=1.34\n")
    assert await editor.diagnostics(URI) == []

    # A misspelled key on a line with astral characters before it.
    editor.change(URI, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at(editor.texts[URI], "before"), end=at(editor.texts[URI], "before", 6)),
        text="after",
    ), types.TextDocumentContentChangePartial(
        range=types.Range(start=at(editor.texts[URI], "selector"), end=at(editor.texts[URI], "selector", 8)),
        text="selectr",
    )])
    diagnostics = await editor.diagnostics(URI)
    assert [d.code for d in diagnostics] == ["unknown-field"]
    assert diagnostics[0].range.start == at(editor.texts[URI], "selectr")
    # A whole-text change.
    editor.change(URI, [types.TextDocumentContentChangeWholeDocument(text="apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")])
    assert await editor.diagnostics(URI) == []
    editor.close(URI)
    # Closing clears the document's diagnostics (a publish without version).
    for _ in range(6000):
        if editor.published[URI][0] is None:
            break
        await asyncio.sleep(0.005)
    assert editor.published[URI] == (None, [])


async def test_hover_field_and_enum_value(client, editor: Editor):
    editor.open(URI, SERVICE + "  type: ClusterIP\n")
    await editor.diagnostics(URI)
    text = editor.texts[URI]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(text, "trafficDistribution", 4)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    assert "**trafficDistribution** `string`" in value
    assert "Not in 1.29: introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)" in value
    assert hover.range.start == at(text, "trafficDistribution")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(text, "ClusterIP", 2)))
    assert hover.contents.value.startswith("**ClusterIP**: a value of `type`")
    # Nothing to say on a comment.
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(text, "ünïcödé")))
    assert hover is None


async def test_completion_offers_the_targets_fields_only(client, editor: Editor):
    text = "# vergate: target=1.29\napiVersion: v1\nkind: Service\nspec:\n  tr\n"
    editor.open(URI, text)
    await editor.diagnostics(URI)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(text, "  tr", 4)))
    labels = {item.label: item for item in result.items}
    assert "trafficDistribution" not in labels
    assert "ports" in labels and "type" in labels
    # At 1.34 the field is offered, with its lifecycle line.
    editor.change(URI, [types.TextDocumentContentChangeWholeDocument(text=text.replace("1.29", "1.34"))])
    await editor.diagnostics(URI)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(editor.texts[URI], "  tr", 4)))
    item = next(item for item in result.items if item.label == "trafficDistribution")
    assert item.documentation.value.startswith("Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)")
    # Applying the item's edit completes the key.
    edited = editor.apply_edit(types.WorkspaceEdit(changes={URI: [item.text_edit]}))[URI]
    assert "  trafficDistribution: \n" in edited
    # Enum values after a key's colon.
    text = "apiVersion: v1\nkind: Service\nspec:\n  type: \n"
    editor.change(URI, [types.TextDocumentContentChangeWholeDocument(text=text)])
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at(text, "type: ", 6)))
    assert {"ClusterIP", "NodePort", "LoadBalancer", "ExternalName"} <= {item.label for item in result.items}


async def actions(client, uri: str, text: str) -> list[types.CodeAction]:
    end = position(text, len(text))
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=end),
        context=types.CodeActionContext(diagnostics=[]),
    ))


async def test_code_actions_apply_minimal_edits(client, editor: Editor):
    text = (
        "# vergate: target=1.34\n"
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta2  # kept\n"
        "kind: FlowSchema\nmetadata:\n  name: x\n"
        "spec:\n  priorityLevelConfiguration:\n    name: global-default\n"
        "---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
        "spec:\n  replica: 2\n  selector:\n    matchLabels: {app: web}\n"
        "  template:\n    metadata:\n      labels: {app: web}\n"
        "    spec:\n      containers:\n      - name: web\n        image: nginx\n"
        "        restartPolicyRules: []  # 1.34\n"
    )
    editor.open(URI, text)
    diagnostics = await editor.diagnostics(URI)
    assert {d.code for d in diagnostics} == {"kind-not-served", "unknown-field"}, diagnostics
    result = await actions(client, URI, text)
    titles = sorted(action.title for action in result)
    assert titles == [
        'Replace "replica" with "replicas"',
        "Upgrade to apiVersion flowcontrol.apiserver.k8s.io/v1",
    ], titles
    for action in result:
        edited = editor.apply_edit(action.edit)[URI]
        if action.title.startswith("Upgrade"):
            assert edited == text.replace("k8s.io/v1beta2", "k8s.io/v1")
        else:
            assert edited == text.replace("  replica: 2", "  replicas: 2")
        # One edit, over the bytes that change.
        (edit,) = action.edit.changes[URI]
        assert edit.range.start.line == edit.range.end.line
    # At 1.29 the container field is not served: removing it takes its line.
    editor.change(URI, [types.TextDocumentContentChangeWholeDocument(text=text.replace("target=1.34", "target=1.29"))])
    diagnostics = await editor.diagnostics(URI)
    assert "not-yet-introduced" in {d.code for d in diagnostics}
    result = await actions(client, URI, editor.texts[URI])
    remove = next(action for action in result if action.title.startswith('Remove "restartPolicyRules"'))
    edited = editor.apply_edit(remove.edit)[URI]
    assert edited == editor.texts[URI].replace("        restartPolicyRules: []  # 1.34\n", "")
    # Applied, the finding is gone.
    editor.change(URI, [types.TextDocumentContentChangeWholeDocument(text=edited)])
    assert "not-yet-introduced" not in {d.code for d in await editor.diagnostics(URI)}


async def test_json_documents(client, editor: Editor):
    uri = "file:///tmp/vergate-lsp-test/svc.json"
    text = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "x"},\n "spec": {"selectr": {}, "ports": [{"port": 80}]}}\n'
    editor.open(uri, text, language="json")
    diagnostics = await editor.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["unknown-field"]
    assert diagnostics[0].range.start == at(text, '"selectr"')
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at(text, '"ports"', 2)))
    assert "**ports**" in hover.contents.value


async def test_unknown_method(client, editor: Editor):
    try:
        await client.protocol.send_request_async("vergate/nonsense", {})
        raise AssertionError("an unknown method was answered")
    except Exception as err:  # the JSON-RPC error
        assert "unknown method" in str(err)
    # Still serving.
    editor.open(URI, SERVICE)
    assert len(await editor.diagnostics(URI)) == 1
