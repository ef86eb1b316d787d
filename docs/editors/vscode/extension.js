// vergate's VS Code extension: starts `vergate lsp` (settings `vergate.path`
// and `vergate.args`) for YAML and JSON files through Microsoft's LSP
// client. The Red Hat YAML extension keeps its generic YAML support beside
// it; docs/editor.md says how to install both.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

async function activate(context) {
  const config = vscode.workspace.getConfiguration("vergate");
  const server = {
    command: config.get("path", "vergate"),
    args: config.get("args", ["lsp"]),
  };
  const documentSelector = ["yaml", "json"].flatMap((language) => [
    { scheme: "file", language },
    { scheme: "untitled", language },
  ]);
  client = new LanguageClient("vergate", "vergate", server, {
    documentSelector,
    synchronize: {
      // The server reads vergate.toml; it hears when one changes.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/vergate.toml"),
    },
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("vergate")) {
        vscode.commands.executeCommand("workbench.action.restartExtensionHost");
      }
    }),
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
