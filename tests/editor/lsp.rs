//! A small Language Server Protocol client over stdio, enough to drive
//! yaml-language-server as an editor does: `Content-Length` framing, one
//! reader thread, requests answered by id, server requests answered (the
//! settings for `workspace/configuration`, `null` otherwise), and every wait
//! bounded by a timeout, so a server that hangs fails the test instead of
//! stopping it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one answer may take.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    settings: Value,
    /// The latest diagnostics published for each document.
    diagnostics: Vec<(String, Vec<Value>)>,
}

impl Server {
    /// Starts `node <script> --stdio`, initializes it as an editor with
    /// markdown hover and completion would, and sends `settings` (the
    /// `yaml` section of an editor's settings).
    pub fn start(script: &Path, root: &Path, settings: Value) -> Server {
        let mut child = Command::new("node")
            .arg(script)
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot run node {}: {err}", script.display()));
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            messages,
            next_id: 0,
            settings: json!({ "yaml": settings }),
            diagnostics: Vec::new(),
        };
        let markdown = json!(["markdown", "plaintext"]);
        server.request(
            "initialize",
            json!({
                "processId": std::process::id(),
                "rootUri": uri(root),
                "capabilities": {
                    // Settings are pushed (didChangeConfiguration), as
                    // Neovim and Helix do by default.
                    "workspace": { "didChangeConfiguration": { "dynamicRegistration": false } },
                    "textDocument": {
                        "hover": { "contentFormat": markdown },
                        "completion": { "completionItem": {
                            "snippetSupport": true,
                            "documentationFormat": markdown,
                            "deprecatedSupport": true,
                            "tagSupport": { "valueSet": [1] }
                        } },
                        "publishDiagnostics": { "relatedInformation": true }
                    }
                }
            }),
        );
        server.notify("initialized", json!({}));
        let settings = server.settings.clone();
        server.notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": settings }),
        );
        server
    }

    /// Opens a document and returns the first diagnostics the server
    /// publishes for it, with the time they took.
    pub fn open(&mut self, path: &Path, text: &str) -> (Vec<Value>, Duration) {
        let uri = uri(path);
        self.diagnostics.retain(|(document, _)| *document != uri);
        let started = Instant::now();
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
        let deadline = started + TIMEOUT;
        loop {
            if let Some((_, found)) = self
                .diagnostics
                .iter()
                .find(|(document, _)| *document == uri)
            {
                return (found.clone(), started.elapsed());
            }
            let message = self.next_message(deadline, "textDocument/publishDiagnostics");
            self.handle(message);
        }
    }

    /// The hover text at `line`:`character` (zero-based), or "" for none.
    pub fn hover(&mut self, path: &Path, line: u32, character: u32) -> String {
        let result = self.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri(path) }, "position": { "line": line, "character": character } }),
        );
        match &result["contents"] {
            Value::String(text) => text.clone(),
            Value::Object(markup) => markup["value"].as_str().unwrap_or_default().to_owned(),
            Value::Array(parts) => parts
                .iter()
                .map(|part| part.as_str().or(part["value"].as_str()).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }

    /// The completion items at `line`:`character` (zero-based).
    pub fn completion(&mut self, path: &Path, line: u32, character: u32) -> Vec<Value> {
        let result = self.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri(path) }, "position": { "line": line, "character": character } }),
        );
        match result {
            Value::Array(items) => items,
            Value::Object(mut list) => match list.remove("items") {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.next_message(deadline, method);
            if message.get("method").is_none() && message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed: {error}");
                }
                return message["result"].clone();
            }
            self.handle(message);
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Keeps published diagnostics and answers the server's requests.
    fn handle(&mut self, message: Value) {
        match (message["method"].as_str(), message.get("id")) {
            (Some("textDocument/publishDiagnostics"), None) => {
                let params = &message["params"];
                let uri = params["uri"].as_str().unwrap_or_default().to_owned();
                let found = params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                self.diagnostics.retain(|(document, _)| *document != uri);
                self.diagnostics.push((uri, found));
            }
            (Some("workspace/configuration"), Some(id)) => {
                let items = message["params"]["items"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let answers: Vec<Value> = items
                    .iter()
                    .map(|item| match item["section"].as_str() {
                        Some(section) => self.settings.get(section).cloned().unwrap_or(Value::Null),
                        None => self.settings.clone(),
                    })
                    .collect();
                let id = id.clone();
                self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": answers }));
            }
            (Some(_), Some(id)) => {
                let id = id.clone();
                self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": null }));
            }
            _ => {}
        }
    }

    fn next_message(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => {
                panic!("yaml-language-server gave no {waiting_for} within {TIMEOUT:?}")
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("yaml-language-server exited while waiting for {waiting_for}")
            }
        }
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.stdin.flush())
            .expect("yaml-language-server reads its input");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The child is ours: end it by its handle, whatever state it is in.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One message, or `None` at the end of the stream or on a broken frame.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A path as a `file://` URI (the tests' paths are plain ASCII).
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}
