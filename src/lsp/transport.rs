//! The wire: JSON-RPC messages framed by `Content-Length` headers on
//! standard input and output, read and written on their own threads.
//!
//! lsp-server's own stdio transport ends its reader at the first malformed
//! message and allocates whatever `Content-Length` says; this one answers
//! instead and goes on, and bounds everything it reads:
//! - a header line is at most [`MAX_HEADER_LINE`] bytes, a header block at
//!   most [`MAX_HEADERS`] lines;
//! - a body is at most [`MAX_MESSAGE_BYTES`]: a larger one is read past in
//!   small pieces, never held, and answered with an error;
//! - a body that is not JSON is answered with JSON-RPC's parse error
//!   (-32700, id null); JSON that is not a message, with invalid request
//!   (-32600, with its id when it has one).
//!
//! After a framing error (a header line without `Content-Length`, or one
//! too long), the reader drops lines until the next blank one and reads on
//! from there.

use crossbeam_channel::{Receiver, Sender};
use lsp_server::Message;
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};
use std::thread;

/// The largest message read (64 MiB): a document at the store's bound
/// (8 MiB) with every character escaped in JSON fits.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line read.
pub const MAX_HEADER_LINE: usize = 8 << 10;

/// The most header lines in one message's header.
pub const MAX_HEADERS: usize = 32;

/// JSON-RPC's error codes used here.
pub const PARSE_ERROR: i32 = -32700;
pub const INVALID_REQUEST: i32 = -32600;

/// What the writer thread writes: a message, or a raw JSON-RPC error
/// response (whose id may be null, which lsp-server's types cannot say).
#[derive(Debug)]
pub enum Outgoing {
    Message(Message),
    Raw(Value),
}

/// The two threads and the channels to talk through them.
pub struct Transport {
    pub incoming: Receiver<Message>,
    pub outgoing: Sender<Outgoing>,
    pub reader: thread::JoinHandle<()>,
    pub writer: thread::JoinHandle<io::Result<()>>,
}

/// Starts the reader on `input` and the writer on `output`.
pub fn start(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<Transport> {
    let (incoming_tx, incoming) = crossbeam_channel::bounded::<Message>(64);
    let (outgoing, outgoing_rx) = crossbeam_channel::unbounded::<Outgoing>();
    let writer = thread::Builder::new()
        .name("vergate-lsp-writer".into())
        .spawn(move || write_all(output, outgoing_rx))?;
    let errors = outgoing.clone();
    let reader = thread::Builder::new()
        .name("vergate-lsp-reader".into())
        .spawn(move || read_all(io::BufReader::new(input), incoming_tx, errors))?;
    Ok(Transport {
        incoming,
        outgoing,
        reader,
        writer,
    })
}

fn write_all(output: impl Write, outgoing: Receiver<Outgoing>) -> io::Result<()> {
    let mut output = io::BufWriter::new(output);
    for message in outgoing {
        match message {
            Outgoing::Message(message) => message.write(&mut output)?,
            Outgoing::Raw(value) => {
                let text = value.to_string();
                write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                output.flush()?;
            }
        }
    }
    Ok(())
}

/// One framed body, or why there is none.
enum Frame {
    Body(Vec<u8>),
    /// A framing error to answer, after which reading goes on.
    Error(String),
    End,
}

fn read_all(mut input: impl BufRead, incoming: Sender<Message>, errors: Sender<Outgoing>) {
    let error = |code: i32, id: Value, message: String| {
        let _ = errors.send(Outgoing::Raw(json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": code, "message": message },
        })));
    };
    loop {
        let body = match read_frame(&mut input) {
            Ok(Frame::Body(body)) => body,
            Ok(Frame::Error(message)) => {
                error(PARSE_ERROR, Value::Null, message);
                continue;
            }
            Ok(Frame::End) | Err(_) => return,
        };
        let value: Value = match serde_json::from_slice(&body) {
            Ok(value) => value,
            Err(err) => {
                error(
                    PARSE_ERROR,
                    Value::Null,
                    format!("the message is not JSON: {err}"),
                );
                continue;
            }
        };
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        // A message with a method that is no string would read as a
        // response (serde's untagged reading) and go unanswered.
        let shape = match value.get("method") {
            _ if !value.is_object() => Err("not a JSON object".to_owned()),
            Some(method) if !method.is_string() => Err("its method is not a string".to_owned()),
            _ => Ok(value),
        };
        match shape
            .and_then(|value| serde_json::from_value::<Message>(value).map_err(|e| e.to_string()))
        {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if incoming.send(message).is_err() || exit {
                    return;
                }
            }
            Err(err) => error(
                INVALID_REQUEST,
                match id {
                    Value::Number(_) | Value::String(_) => id,
                    _ => Value::Null,
                },
                format!("not a JSON-RPC request, response or notification: {err}"),
            ),
        }
    }
}

/// Reads one header block and its body.
fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length = None;
    let mut problem = None;
    let mut lines = 0;
    loop {
        let Some(line) = read_line(input)? else {
            return Ok(Frame::End);
        };
        lines += 1;
        let line = match line {
            Line::Text(line) => line,
            Line::TooLong => {
                problem.get_or_insert(format!(
                    "a header line is longer than {MAX_HEADER_LINE} bytes"
                ));
                continue;
            }
        };
        if line.is_empty() {
            if lines == 1 {
                // A blank line between messages: nothing to answer.
                lines = 0;
                continue;
            }
            break;
        }
        if lines > MAX_HEADERS {
            problem.get_or_insert(format!("more than {MAX_HEADERS} header lines"));
            continue;
        }
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(value) => length = Some(value),
                    Err(_) => {
                        problem.get_or_insert(format!(
                            "Content-Length {:?} is not a length",
                            value.trim()
                        ));
                    }
                }
            }
            Some(_) => {}
            None => {
                problem.get_or_insert(format!("malformed header line {:?}", truncate(&line)));
            }
        }
    }
    if let Some(problem) = problem {
        // Skip the body when its length was read, to stay in step.
        if let Some(length) = length.filter(|&l| l <= MAX_MESSAGE_BYTES) {
            skip(input, length)?;
        }
        return Ok(Frame::Error(problem));
    }
    let Some(length) = length else {
        return Ok(Frame::Error("a message without Content-Length".into()));
    };
    if length > MAX_MESSAGE_BYTES {
        skip(input, length)?;
        return Ok(Frame::Error(format!(
            "a message of {length} bytes, over the bound of {MAX_MESSAGE_BYTES}"
        )));
    }
    let mut body = vec![0; length];
    match input.read_exact(&mut body) {
        Ok(()) => Ok(Frame::Body(body)),
        Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => Ok(Frame::End),
        Err(err) => Err(err),
    }
}

enum Line {
    Text(String),
    TooLong,
}

/// One header line without its line break, read within the bound; a
/// longer line is read past.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok((!line.is_empty() || too_long).then(|| finish(line, too_long)));
        }
        let (taken, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        if !too_long {
            line.extend_from_slice(&buffer[..taken]);
            if line.len() > MAX_HEADER_LINE {
                too_long = true;
                line = Vec::new();
            }
        }
        input.consume(taken);
        if done {
            return Ok(Some(finish(line, too_long)));
        }
    }
}

fn finish(mut line: Vec<u8>, too_long: bool) -> Line {
    if too_long {
        return Line::TooLong;
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Line::Text(String::from_utf8_lossy(&line).into_owned())
}

fn skip(input: &mut impl BufRead, length: usize) -> io::Result<()> {
    io::copy(&mut input.take(length as u64), &mut io::sink()).map(drop)
}

fn truncate(line: &str) -> String {
    line.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<Value, (i32, Value)>> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let (etx, erx) = crossbeam_channel::unbounded();
        read_all(io::Cursor::new(input.to_vec()), tx, etx);
        let mut out: Vec<_> = rx
            .try_iter()
            .map(|m| Ok(serde_json::to_value(m).unwrap()))
            .collect();
        out.extend(erx.try_iter().map(|o| match o {
            Outgoing::Raw(v) => Err((v["error"]["code"].as_i64().unwrap() as i32, v["id"].clone())),
            Outgoing::Message(_) => unreachable!(),
        }));
        out
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn malformed_messages_are_answered_and_reading_goes_on() {
        let good = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let input = [
            framed("{not json"),
            framed(r#"{"jsonrpc":"2.0","id":7,"method":3}"#),
            "X-Nonsense\r\n\r\n".to_owned(),
            "Content-Length: 99999999999\r\n\r\n".to_owned(),
        ]
        .concat();
        let out = frames(input.as_bytes());
        assert!(out.iter().all(|f| f.is_err()), "{out:?}");
        assert_eq!(out.len(), 4);
        assert_eq!(out[0], Err((PARSE_ERROR, Value::Null)));
        assert_eq!(out[1], Err((INVALID_REQUEST, json!(7))));
        // Reading goes on after each.
        let input = [framed("[1,2"), framed(good)].concat();
        let out = frames(input.as_bytes());
        assert_eq!(out.len(), 2);
        assert!(out[0].is_ok());
    }

    #[test]
    fn an_endless_header_line_is_bounded() {
        let mut input = vec![b'a'; MAX_HEADER_LINE * 4];
        input.extend_from_slice(b"\r\n\r\n");
        input.extend_from_slice(
            framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#).as_bytes(),
        );
        let out = frames(&input);
        assert_eq!(out.len(), 2);
        assert!(out[0].is_ok());
        assert_eq!(out[1], Err((PARSE_ERROR, Value::Null)));
    }
}
