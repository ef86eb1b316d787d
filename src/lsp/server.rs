//! The protocol loop: the handshake, then requests, notifications and
//! cancellations in the order they come, on one thread.
//!
//! - **Diagnostics are debounced by the queue:** a change marks its
//!   document dirty; documents are checked only when no message is
//!   waiting, one at a time, so a burst of edits costs one check, and a
//!   request that comes in between is answered first.
//! - **Cancellation:** the messages waiting are read ahead; a request whose
//!   `$/cancelRequest` is among them is answered `RequestCancelled`
//!   (-32800) without being run. A cancellation for a request already
//!   answered is ignored, as the protocol allows.
//! - **Errors:** an unknown request is `MethodNotFound`, parameters that do
//!   not read are `InvalidParams`, a request before `initialize` is
//!   `ServerNotInitialized`, one after `shutdown` `InvalidRequest`;
//!   unknown notifications are ignored. Each request and each check runs
//!   under `catch_unwind`: a panic, which no input should cause, is
//!   answered as `InternalError` (or said as a diagnostic) and the server
//!   goes on.

use super::actions::{self, Fixable};
use super::documents::{ChangeError, Content, OpenDocuments};
use super::transport::{self, Outgoing};
use super::workspace::{self, Workspace};
use super::{completion, diagnostics, hover};
use crate::engine::{Finding, Validator};
use crate::Version;
use crossbeam_channel::{Receiver, Sender, TryRecvError};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

/// The most messages read ahead at once (to find cancellations).
const READ_AHEAD: usize = 1024;

/// The last check of an open document, for its code actions.
struct Checked {
    version: i32,
    validator: Arc<Validator>,
    target: Version,
    findings: Vec<Finding>,
}

/// Where the server is in the protocol's life.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShutDown,
}

/// The server's state.
pub struct Server {
    out: Sender<Outgoing>,
    phase: Phase,
    documents: OpenDocuments,
    workspace: Workspace,
    /// Documents to check, in the order they changed.
    dirty: VecDeque<String>,
    checked: HashMap<String, Checked>,
}

/// A request's answer.
type Answer = Result<Value, (ErrorCode, String)>;

impl Server {
    /// A server writing to `out`.
    pub fn new(out: Sender<Outgoing>) -> Server {
        Server {
            out,
            phase: Phase::Uninitialized,
            documents: OpenDocuments::default(),
            workspace: Workspace::default(),
            dirty: VecDeque::new(),
            checked: HashMap::new(),
        }
    }

    /// Serves until `exit` or the end of the input; the process exit code
    /// (0 after `shutdown`, else 1, as the protocol says).
    pub fn serve(&mut self, incoming: &Receiver<Message>) -> i32 {
        let mut queue: VecDeque<Message> = VecDeque::new();
        let mut cancelled: HashSet<RequestId> = HashSet::new();
        loop {
            if queue.is_empty() {
                cancelled.clear();
                let next = if self.dirty.is_empty() {
                    incoming.recv().ok()
                } else {
                    match incoming.try_recv() {
                        Ok(message) => Some(message),
                        Err(TryRecvError::Empty) => {
                            self.check_one();
                            continue;
                        }
                        Err(TryRecvError::Disconnected) => None,
                    }
                };
                let Some(next) = next else {
                    return self.exit_code();
                };
                queue.push_back(next);
                while queue.len() < READ_AHEAD {
                    match incoming.try_recv() {
                        Ok(message) => queue.push_back(message),
                        Err(_) => break,
                    }
                }
                for message in &queue {
                    if let Message::Notification(n) = message {
                        if n.method == note::Cancel::METHOD {
                            if let Some(id) = cancel_id(&n.params) {
                                cancelled.insert(id);
                            }
                        }
                    }
                }
            }
            match queue.pop_front() {
                Some(Message::Request(request)) => {
                    if cancelled.remove(&request.id) {
                        self.send_error(request.id, ErrorCode::RequestCanceled, "cancelled".into());
                    } else {
                        self.request(request);
                    }
                }
                Some(Message::Notification(n)) if n.method == note::Exit::METHOD => {
                    return self.exit_code();
                }
                Some(Message::Notification(n)) => self.notification(n),
                Some(Message::Response(_)) | None => {}
            }
        }
    }

    fn exit_code(&self) -> i32 {
        if self.phase == Phase::ShutDown {
            0
        } else {
            1
        }
    }

    fn send(&self, message: Message) {
        let _ = self.out.send(Outgoing::Message(message));
    }

    fn send_error(&self, id: RequestId, code: ErrorCode, message: String) {
        self.send(Response::new_err(id, code as i32, message).into());
    }

    fn request(&mut self, request: Request) {
        let Request { id, method, params } = request;
        let answer = match (self.phase, method.as_str()) {
            (Phase::Uninitialized, req::Initialize::METHOD) => self.initialize(&params),
            (Phase::Uninitialized, _) => Err((
                ErrorCode::ServerNotInitialized,
                format!("{method} before initialize"),
            )),
            (Phase::ShutDown, _) => Err((
                ErrorCode::InvalidRequest,
                format!("{method} after shutdown"),
            )),
            (Phase::Running, req::Initialize::METHOD) => {
                Err((ErrorCode::InvalidRequest, "initialize sent twice".into()))
            }
            (Phase::Running, req::Shutdown::METHOD) => {
                self.phase = Phase::ShutDown;
                Ok(Value::Null)
            }
            (Phase::Running, _) => {
                match catch_unwind(AssertUnwindSafe(|| self.answer(&method, params))) {
                    Ok(answer) => answer,
                    Err(panic) => Err((
                        ErrorCode::InternalError,
                        format!(
                            "vergate lsp: internal error answering {method} ({}); the server goes on; please report this with the file",
                            panic_text(&*panic)
                        ),
                    )),
                }
            }
        };
        let response = match answer {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(response.into());
    }

    fn answer(&mut self, method: &str, params: Value) -> Answer {
        match method {
            req::HoverRequest::METHOD => self.hover(parse(params)?),
            req::Completion::METHOD => self.completion(parse(params)?),
            req::CodeActionRequest::METHOD => self.code_actions(parse(params)?),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("unknown method {method}"),
            )),
        }
    }

    fn initialize(&mut self, params: &Value) -> Answer {
        let mut folders: Vec<PathBuf> = params
            .get("workspaceFolders")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|folder| workspace::file_path(folder.get("uri")?.as_str()?))
            .collect();
        if folders.is_empty() {
            folders.extend(
                params
                    .get("rootUri")
                    .and_then(Value::as_str)
                    .and_then(workspace::file_path),
            );
        }
        self.workspace = Workspace::new(folders);
        self.phase = Phase::Running;
        Ok(json!({
            "capabilities": {
                "positionEncoding": "utf-16",
                "textDocumentSync": { "openClose": true, "change": 2, "save": { "includeText": false } },
                "hoverProvider": true,
                "completionProvider": { "triggerCharacters": [":", " "] },
                "codeActionProvider": { "codeActionKinds": ["quickfix"] },
            },
            "serverInfo": { "name": "vergate", "version": env!("CARGO_PKG_VERSION") },
        }))
    }

    fn notification(&mut self, n: Notification) {
        if self.phase != Phase::Running {
            return;
        }
        let method = n.method.clone();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| self.notified(n))) {
            eprintln!(
                "vergate lsp: internal error handling {method} ({}); the server goes on",
                panic_text(&*panic)
            );
        }
    }

    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let doc = params.text_document;
                let uri = doc.uri.as_str().to_owned();
                let affects_others = affects_others(&uri, &doc.text);
                self.documents
                    .open(&uri, doc.language_id, doc.version, doc.text);
                self.changed(&uri, affects_others);
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = params.text_document.uri.as_str().to_owned();
                let before = self
                    .documents
                    .text(&uri)
                    .is_some_and(|(text, _)| affects_others(&uri, text));
                match self.documents.change(
                    &uri,
                    params.text_document.version,
                    params.content_changes,
                ) {
                    Ok(()) => {
                        let after = self
                            .documents
                            .text(&uri)
                            .is_some_and(|(text, _)| affects_others(&uri, text));
                        self.changed(&uri, before || after);
                    }
                    Err(ChangeError::NotOpen) => {
                        eprintln!("vergate lsp: a change to {uri}, which is not open: ignored");
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = params.text_document.uri.as_str().to_owned();
                let affected = self
                    .documents
                    .text(&uri)
                    .is_some_and(|(text, _)| affects_others(&uri, text));
                self.documents.close(&uri);
                self.checked.remove(&uri);
                self.dirty.retain(|dirty| *dirty != uri);
                self.publish(&uri, None, Vec::new());
                if affected {
                    self.workspace.invalidate(true);
                    self.all_dirty();
                }
            }
            note::DidSaveTextDocument::METHOD => {
                // A settings file or a CRD saved: what is on disk changed.
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = params.text_document.uri.as_str();
                let affected = self
                    .documents
                    .text(uri)
                    .is_none_or(|(text, _)| affects_others(uri, text));
                if affected {
                    self.workspace.invalidate(true);
                    self.all_dirty();
                }
            }
            note::DidChangeWatchedFiles::METHOD => {
                // Files changed on disk: settings and CRDs read anew.
                self.workspace.invalidate(true);
                self.all_dirty();
            }
            _ => {}
        }
    }

    /// Marks `uri` for a check, and every open document when it is a CRD
    /// or a settings file.
    fn changed(&mut self, uri: &str, affects_others: bool) {
        if affects_others {
            self.workspace.invalidate(is_settings(uri));
            self.all_dirty();
        } else if !self.dirty.iter().any(|dirty| dirty == uri) {
            self.dirty.push_back(uri.to_owned());
        }
    }

    fn all_dirty(&mut self) {
        self.dirty = self
            .documents
            .iter()
            .map(|(uri, _)| uri.to_owned())
            .collect();
    }

    /// Checks the next dirty document and publishes its diagnostics.
    fn check_one(&mut self) {
        let Some(uri) = self.dirty.pop_front() else {
            return;
        };
        let diagnostics = match catch_unwind(AssertUnwindSafe(|| self.check(&uri))) {
            Ok(diagnostics) => diagnostics,
            Err(panic) => {
                self.checked.remove(&uri);
                Some(vec![lsp_types::Diagnostic {
                    severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                    source: Some(diagnostics::SOURCE.into()),
                    message: format!(
                        "vergate lsp: internal error checking this file ({}); please report this with the file",
                        panic_text(&*panic)
                    ),
                    ..lsp_types::Diagnostic::default()
                }])
            }
        };
        if let Some(diagnostics) = diagnostics {
            let version = self.documents.get(&uri).map(|doc| doc.version);
            self.publish(&uri, version, diagnostics);
        }
    }

    /// The diagnostics of open document `uri` (`None` when it is not open).
    fn check(&mut self, uri: &str) -> Option<Vec<lsp_types::Diagnostic>> {
        let document = self.documents.get(uri)?;
        let version = document.version;
        let Content::Text { text, lines } = &document.content else {
            self.checked.remove(uri);
            return Some(diagnostics::too_large(&document.content));
        };
        if is_settings(uri) {
            return Some(settings_diagnostics(uri, text, lines));
        }
        let context = self.workspace.context(uri, text, &self.documents);
        let report = if context.check {
            context.validator.check_text(&workspace::name_of(uri), text)
        } else {
            crate::engine::FileReport::default()
        };
        let diagnostics = diagnostics::of(text, lines, &report, &context.problems);
        self.checked.insert(
            uri.to_owned(),
            Checked {
                version,
                validator: context.validator,
                target: context.target,
                findings: report.findings,
            },
        );
        Some(diagnostics)
    }

    fn publish(&self, uri: &str, version: Option<i32>, diagnostics: Vec<lsp_types::Diagnostic>) {
        let params = json!({ "uri": uri, "version": version, "diagnostics": diagnostics });
        self.send(Notification::new(note::PublishDiagnostics::METHOD.into(), params).into());
    }

    fn hover(&mut self, params: lsp_types::HoverParams) -> Answer {
        let place = params.text_document_position_params;
        let uri = place.text_document.uri.as_str();
        let (text, lines, offset) = at(&self.documents, uri, place.position)?;
        let context = self.workspace.context(uri, text, &self.documents);
        let Some((markdown, range)) = hover::at(
            context.validator.tables(),
            hover::Sources {
                tree: &context.descriptions,
                crds: &context.crds,
            },
            context.target,
            text,
            offset,
        ) else {
            return Ok(Value::Null);
        };
        Ok(json!({
            "contents": { "kind": "markdown", "value": markdown },
            "range": lines.range(text, range),
        }))
    }

    fn completion(&mut self, params: lsp_types::CompletionParams) -> Answer {
        let place = params.text_document_position;
        let uri = place.text_document.uri.as_str();
        let (text, lines, offset) = at(&self.documents, uri, place.position)?;
        let context = self.workspace.context(uri, text, &self.documents);
        let items: Vec<Value> = completion::at(
            context.validator.tables(),
            context.target,
            text,
            offset,
        )
        .into_iter()
        .map(|item| {
            let insert = if item.is_field {
                format!("{}: ", item.label)
            } else {
                item.label.clone()
            };
            let mut value = json!({
                "label": item.label,
                "kind": if item.is_field { 5 } else { 20 },
                "detail": item.detail,
                "filterText": item.label,
                "textEdit": { "range": lines.range(text, item.replace.clone()), "newText": insert },
            });
            if let Some(line) = &item.lifecycle {
                value["documentation"] = json!({ "kind": "markdown", "value": line });
            }
            if item.deprecated {
                value["tags"] = json!([1]);
            }
            value
        })
        .collect();
        Ok(json!({ "isIncomplete": false, "items": items }))
    }

    fn code_actions(&mut self, params: lsp_types::CodeActionParams) -> Answer {
        let uri = params.text_document.uri.as_str().to_owned();
        // Findings of the text as it is now.
        if self.dirty.iter().any(|dirty| *dirty == uri) {
            self.dirty.retain(|dirty| *dirty != uri);
            if let Some(diagnostics) = self.check(&uri) {
                let version = self.documents.get(&uri).map(|doc| doc.version);
                self.publish(&uri, version, diagnostics);
            }
        }
        let Some((text, lines)) = self.documents.text(&uri) else {
            return Ok(json!([]));
        };
        let Some(checked) = self.checked.get(&uri) else {
            return Ok(json!([]));
        };
        if self.documents.get(&uri).map(|doc| doc.version) != Some(checked.version) {
            return Ok(json!([]));
        }
        let start = lines.offset(text, params.range.start);
        let end = lines.offset(text, params.range.end);
        let mut out = Vec::new();
        for finding in &checked.findings {
            let Some(span) = &finding.span else { continue };
            if span.end < start || span.start > end.max(start) {
                continue;
            }
            let target = finding.target.unwrap_or(checked.target);
            let fixable = Fixable {
                rule: finding.violation.rule,
                span,
                message: &finding.violation.message,
            };
            let diagnostic = diagnostics::of(
                text,
                lines,
                &crate::engine::FileReport {
                    findings: vec![finding.clone()],
                    ..Default::default()
                },
                &[],
            );
            for fix in actions::fixes(checked.validator.tables(), target, text, fixable) {
                out.push(json!({
                    "title": fix.title,
                    "kind": "quickfix",
                    "diagnostics": diagnostic,
                    "isPreferred": fix.preferred,
                    "edit": { "changes": { uri.clone(): [{
                        "range": lines.range(text, fix.range.clone()),
                        "newText": fix.text,
                    }] } },
                }));
            }
        }
        Ok(Value::Array(out))
    }
}

/// The text of an open document, its line index and the byte offset of
/// `position`.
fn at<'d>(
    documents: &'d OpenDocuments,
    uri: &str,
    position: lsp_types::Position,
) -> Result<(&'d str, &'d super::line_index::LineIndex, usize), (ErrorCode, String)> {
    let (text, lines) = documents.text(uri).ok_or_else(|| {
        (
            ErrorCode::InvalidParams,
            format!("{uri} is not open (or over the size bound)"),
        )
    })?;
    Ok((text, lines, lines.offset(text, position)))
}

/// True for a `vergate.toml`.
fn is_settings(uri: &str) -> bool {
    uri.ends_with(&format!("/{}", crate::settings::FILE_NAME))
}

/// True when a document's text matters to the others' checks: a settings
/// file, or one holding a CRD.
fn affects_others(uri: &str, text: &str) -> bool {
    is_settings(uri) || workspace::mentions_crd(text)
}

/// An open `vergate.toml`'s own diagnostics: each mistake at its line and
/// column.
fn settings_diagnostics(
    uri: &str,
    text: &str,
    lines: &super::line_index::LineIndex,
) -> Vec<lsp_types::Diagnostic> {
    let path =
        workspace::file_path(uri).unwrap_or_else(|| PathBuf::from(crate::settings::FILE_NAME));
    let Err(errors) = crate::settings::Settings::parse_all(&path, text) else {
        return Vec::new();
    };
    errors
        .into_iter()
        .map(|error| {
            let line = error.line.saturating_sub(1) as usize;
            let start = lines.line_start(line).unwrap_or(text.len());
            let column = text[start..]
                .char_indices()
                .nth(error.column.saturating_sub(1) as usize)
                .map_or(text.len(), |(at, _)| start + at);
            let position = lines.position(text, column);
            lsp_types::Diagnostic {
                range: lsp_types::Range {
                    start: position,
                    end: position,
                },
                severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                source: Some(diagnostics::SOURCE.into()),
                message: error.message,
                ..lsp_types::Diagnostic::default()
            }
        })
        .collect()
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params)
        .map_err(|err| (ErrorCode::InvalidParams, format!("invalid params: {err}")))
}

fn cancel_id(params: &Value) -> Option<RequestId> {
    serde_json::from_value(params.get("id")?.clone()).ok()
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Runs the server on standard input and output; the exit code.
pub fn run_stdio() -> i32 {
    let transport = match transport::start(std::io::stdin(), std::io::stdout()) {
        Ok(transport) => transport,
        Err(err) => {
            eprintln!("error: vergate lsp: cannot start its threads: {err}");
            return 2;
        }
    };
    let mut server = Server::new(transport.outgoing.clone());
    let code = server.serve(&transport.incoming);
    drop(server);
    drop(transport.outgoing);
    let _ = transport.writer.join();
    code
}
