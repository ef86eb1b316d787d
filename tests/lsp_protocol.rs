//! Protocol fuzzing of `vergate lsp`, driving the built server process over
//! its standard input and output: malformed JSON-RPC and framing, unknown
//! methods, requests out of order, huge and hostile documents, rapid edits
//! and cancellations. The server answers every request once (a result or an
//! error), never panics, never hangs (every wait here is bounded), stays
//! within a memory bound, and exits 0 after shutdown.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any one answer may take (a debug build, a loaded machine).
const PATIENCE: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vergate"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("vergate lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("the server frames every message")];
                reader.read_exact(&mut body).unwrap();
                let value: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            next_id: 0,
        };
        let id = client.request("initialize", json!({ "capabilities": {} }));
        let answer = client.answer(id);
        assert!(answer["result"]["capabilities"].is_object(), "{answer}");
        client.notify("initialized", json!({}));
        client
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message that `wanted` accepts; others are dropped.
    fn next(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self
                .incoming
                .recv_timeout(left)
                .expect("the server answers in time (no hang, no crash)");
            if wanted(&message) {
                return message;
            }
        }
    }

    fn answer(&self, id: i64) -> Value {
        self.next(|m| m["id"] == json!(id) && m.get("method").is_none())
    }

    fn diagnostics(&self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.next(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|value| value.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0)
    }

    fn shutdown(mut self) {
        let id = self.request("shutdown", Value::Null);
        assert_eq!(self.answer(id)["result"], Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert_eq!(status.code(), Some(0), "exit after shutdown is 0");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

const SERVICE: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  ports: [{port: 80}]\n  selectr: {}\n";

fn error_code(message: &Value) -> i64 {
    message["error"]["code"].as_i64().unwrap_or(0)
}

#[test]
fn malformed_messages_are_answered_and_the_server_goes_on() {
    let mut client = Client::start();
    let is_error = |m: &Value| m.get("error").is_some() && m["id"].is_null();
    client.raw(b"Content-Length: 5\r\n\r\n{nope");
    assert_eq!(error_code(&client.next(is_error)), -32700);
    let body = b"\xff\xfe not UTF-8";
    client.raw(
        &[
            format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(),
            body,
        ]
        .concat(),
    );
    assert_eq!(error_code(&client.next(is_error)), -32700);
    client.raw(b"X-Nothing: 1\r\n\r\n");
    assert_eq!(error_code(&client.next(is_error)), -32700);
    client.raw(b"Content-Length: many\r\n\r\n");
    assert_eq!(error_code(&client.next(is_error)), -32700);
    // Far over the bound: read past in pieces, never held.
    let huge = 65 << 20;
    let mut message = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
    message.resize(message.len() + huge, b' ');
    client.raw(&message);
    assert_eq!(error_code(&client.next(is_error)), -32700);
    client.send(&json!({ "jsonrpc": "2.0", "method": 7, "id": 99 }));
    let answer = client.next(|m| m["id"] == 99);
    assert_eq!(error_code(&answer), -32600);
    client.send(&json!([1, 2, 3]));
    assert_eq!(error_code(&client.next(is_error)), -32600);
    // An unknown method, and parameters that do not read.
    let id = client.request("vergate/unknown", json!({}));
    assert_eq!(error_code(&client.answer(id)), -32601);
    let id = client.request("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(error_code(&client.answer(id)), -32602);
    let id = client.request("textDocument/hover", json!({
        "textDocument": { "uri": "file:///not/open.yaml" }, "position": { "line": 0, "character": 0 } }));
    assert_eq!(error_code(&client.answer(id)), -32602);
    let id = client.request("initialize", json!({ "capabilities": {} }));
    assert_eq!(error_code(&client.answer(id)), -32600);
    // Unknown notifications and stray responses are ignored; still serving.
    client.notify("vergate/whatever", json!({}));
    client.send(&json!({ "jsonrpc": "2.0", "id": 12345, "result": null }));
    client.open("file:///t/a.yaml", SERVICE);
    let diagnostics = client.diagnostics("file:///t/a.yaml", 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "unknown-field");
    client.shutdown();
}

#[test]
fn requests_before_initialize_and_after_shutdown_are_refused() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vergate"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let hover = json!({ "jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {} })
        .to_string();
    let exit = json!({ "jsonrpc": "2.0", "method": "exit" }).to_string();
    for body in [hover, exit] {
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    }
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(out.contains("-32002"), "{out}");
    // `exit` without `shutdown`: exit code 1, as the protocol says.
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn huge_and_hostile_documents_are_bounded() {
    let mut client = Client::start();
    // Over the document bound: one diagnostic saying so.
    let big = format!("{SERVICE}# {}\n", "x".repeat(9 << 20));
    client.open("file:///t/big.yaml", &big);
    let diagnostics = client.diagnostics("file:///t/big.yaml", 1);
    assert_eq!(diagnostics.len(), 1);
    assert!(diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .contains("over the language server's bound"));
    // Deep nesting, aliases that multiply, a long line, NUL, a lone key.
    let laughs = {
        let mut text = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        for (i, name) in "bcdefghi".chars().enumerate() {
            let prev = (b'a' + i as u8) as char;
            text.push_str(&format!("{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        }
        text
    };
    let hostile = [
        "[".repeat(200_000),
        "- ".repeat(100_000) + "x\n",
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: {}\n",
            "y".repeat(3 << 20)
        ),
        laughs,
        "apiVersion: v1\nkind: Service\0\n".to_owned(),
        "? [a, b]\n: c\n".to_owned(),
        "{{ .Values.x }}\n".to_owned(),
        "\u{feff}apiVersion: v1\nkind: Service\nspec: {ports: [{port: 😀}]}\n".to_owned(),
    ];
    let mut seeds: Vec<String> = hostile.to_vec();
    for dir in [
        "tests/fuzz/seeds/check_input",
        "tests/fuzz/seeds/upgrade",
        "tests/cel/hostile",
        "tests/upgrade_hostile",
    ] {
        let Ok(entries) =
            std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        else {
            continue;
        };
        for entry in entries.flatten() {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                seeds.push(text);
            }
        }
    }
    assert!(seeds.len() > 30);
    for (at, text) in seeds.iter().enumerate() {
        let uri = format!("file:///t/hostile-{at}.yaml");
        client.open(&uri, text);
        client.diagnostics(&uri, 1);
        // Hover and completion anywhere answer (a result or null).
        for character in [0, 3, 1000] {
            let place = json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": character } });
            for method in ["textDocument/hover", "textDocument/completion"] {
                let id = client.request(method, place.clone());
                let answer = client.answer(id);
                assert!(
                    answer.get("error").is_none(),
                    "{method} on seed {at}: {answer}"
                );
            }
        }
        let id = client.request("textDocument/codeAction", json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 99999, "character": 0 } },
            "context": { "diagnostics": [] } }));
        assert!(client.answer(id).get("error").is_none());
        client.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        );
    }
    assert!(client.rss_kib() < 400 << 10, "RSS {} KiB", client.rss_kib());
    client.shutdown();
}

#[test]
fn rapid_edits_and_cancellations() {
    let mut client = Client::start();
    let uri = "file:///t/edit.yaml";
    client.open(uri, SERVICE);
    client.diagnostics(uri, 1);
    let before = client.rss_kib();
    // A thousand edits in a burst, positions in and past the text,
    // inside surrogate pairs: the last version is the one checked.
    let mut version = 1;
    for round in 0..1000 {
        version += 1;
        let (line, character, text) = match round % 4 {
            0 => (5, 3, "😀"),
            1 => (5, 4, ""), // inside the pair just written
            2 => (99, 99, "\n"),
            _ => (0, 0, "#\n"),
        };
        client.notify(
            "textDocument/didChange",
            json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "range": { "start": { "line": line, "character": character },
                                            "end": { "line": line, "character": character + 1 } },
                                 "text": text }] }),
        );
        if round % 10 == 0 {
            // A request, cancelled at once: answered once, either way.
            let id = client.request(
                "textDocument/hover",
                json!({
                "textDocument": { "uri": uri }, "position": { "line": 1, "character": 1 } }),
            );
            client.notify("$/cancelRequest", json!({ "id": id }));
            let answer = client.answer(id);
            assert!(
                answer.get("result").is_some() || error_code(&answer) == -32800,
                "{answer}"
            );
        }
    }
    client.diagnostics(uri, version);
    // A cancellation that comes before its request is processed: the
    // request is not run.
    client.next_id += 1;
    let id = client.next_id;
    let hover = json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": { "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } } })
    .to_string();
    let cancel = json!({ "jsonrpc": "2.0", "method": "$/cancelRequest", "params": { "id": id } })
        .to_string();
    client.raw(
        format!(
            "Content-Length: {}\r\n\r\n{hover}Content-Length: {}\r\n\r\n{cancel}",
            hover.len(),
            cancel.len()
        )
        .as_bytes(),
    );
    let answer = client.answer(id);
    assert!(answer.get("result").is_some() || error_code(&answer) == -32800);
    // Cancelling what was answered long ago, or never asked, is ignored.
    client.notify("$/cancelRequest", json!({ "id": 1 }));
    client.notify("$/cancelRequest", json!({ "id": "nothing" }));
    // Open and close a hundred documents: memory comes back down.
    for round in 0..100 {
        let uri = format!("file:///t/many-{round}.yaml");
        client.open(&uri, &SERVICE.repeat(50));
        client.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        );
    }
    let id = client.request(
        "textDocument/hover",
        json!({
        "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }),
    );
    client.answer(id);
    let after = client.rss_kib();
    assert!(
        after < before + (64 << 10),
        "RSS grew from {before} to {after} KiB"
    );
    client.shutdown();
}
