//! Bytes to text the way kubectl takes them: a UTF-8 byte-order mark is
//! dropped, UTF-16 with a byte-order mark is decoded (kubectl's file reader
//! does both), and anything that is not text is refused with the line it
//! stops being text on.

use thiserror::Error;

/// Why some bytes are not a text vergate reads ([`EncodingError::line`]
/// says where).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EncodingError {
    /// A NUL character: a binary file, or UTF-32.
    #[error("a NUL character; this is not a text file (save YAML or JSON as UTF-8)")]
    Nul { line: u32 },
    /// Bytes that are not UTF-8.
    #[error("not UTF-8 text; save the file as UTF-8")]
    NotUtf8 { line: u32 },
    /// UTF-16 that does not decode.
    #[error(
        "invalid UTF-16 (an unpaired surrogate or an odd number of bytes); save the file as UTF-8"
    )]
    BadUtf16 { line: u32 },
}

impl EncodingError {
    /// The 1-based line the problem is on.
    pub fn line(&self) -> u32 {
        match self {
            EncodingError::Nul { line }
            | EncodingError::NotUtf8 { line }
            | EncodingError::BadUtf16 { line } => *line,
        }
    }
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// How a file's text is stored, so a tool that rewrites the file
/// (`vergate upgrade --in-place`) writes it back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 after a byte-order mark.
    Utf8Bom,
    /// UTF-16, little-endian, after a byte-order mark.
    Utf16Le,
    /// UTF-16, big-endian, after a byte-order mark.
    Utf16Be,
}

impl Encoding {
    /// The encoding of a file that starts with `start` (its first bytes, two
    /// or three are enough), as [`decode`] reads it.
    pub fn of(start: &[u8]) -> Encoding {
        match start {
            [0xFF, 0xFE, ..] => Encoding::Utf16Le,
            [0xFE, 0xFF, ..] => Encoding::Utf16Be,
            _ if start.starts_with(UTF8_BOM) => Encoding::Utf8Bom,
            _ => Encoding::Utf8,
        }
    }

    /// `text` stored in this encoding, its byte-order mark first: what
    /// [`decode`] reads back as `text`.
    pub fn encode(self, text: &str) -> Vec<u8> {
        let utf16 = |unit: fn(u16) -> [u8; 2]| {
            let mut bytes = Vec::with_capacity(2 + text.len() * 2);
            bytes.extend(unit(0xFEFF));
            bytes.extend(text.encode_utf16().flat_map(unit));
            bytes
        };
        match self {
            Encoding::Utf8 => text.as_bytes().to_vec(),
            Encoding::Utf8Bom => [UTF8_BOM, text.as_bytes()].concat(),
            Encoding::Utf16Le => utf16(u16::to_le_bytes),
            Encoding::Utf16Be => utf16(u16::to_be_bytes),
        }
    }
}

/// The text of a file's bytes: UTF-8 (a byte-order mark dropped) or UTF-16
/// with a byte-order mark; NUL refused.
pub fn decode(bytes: Vec<u8>) -> Result<String, EncodingError> {
    if let Some(text) = decode_utf16(&bytes) {
        return text;
    }
    let mut bytes = bytes;
    if bytes.starts_with(UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
    }
    let text =
        String::from_utf8(bytes).map_err(|err| not_utf8(err.as_bytes(), err.utf8_error()))?;
    refuse_nul(&text)?;
    Ok(text)
}

/// [`decode`] for bytes that stay where they are (a buffer the caller
/// keeps): the text in place, a UTF-8 byte-order mark left out; owned only
/// when it was UTF-16.
pub fn decode_slice(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, EncodingError> {
    if let Some(text) = decode_utf16(bytes) {
        return text.map(std::borrow::Cow::Owned);
    }
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|err| not_utf8(bytes, err))?;
    refuse_nul(text)?;
    Ok(std::borrow::Cow::Borrowed(text))
}

/// The text of UTF-16 with a byte-order mark; `None` for anything else.
fn decode_utf16(bytes: &[u8]) -> Option<Result<String, EncodingError>> {
    let unit: fn([u8; 2]) -> u16 = match bytes {
        [0xFF, 0xFE, ..] => u16::from_le_bytes,
        [0xFE, 0xFF, ..] => u16::from_be_bytes,
        _ => return None,
    };
    Some(utf16(&bytes[2..], unit).and_then(|text| {
        refuse_nul(&text)?;
        Ok(text)
    }))
}

/// The error for `bytes` that stop being UTF-8 where `err` says.
fn not_utf8(bytes: &[u8], err: std::str::Utf8Error) -> EncodingError {
    EncodingError::NotUtf8 {
        line: line_at(&bytes[..err.valid_up_to()]),
    }
}

/// Refuses a text holding a NUL character, naming its line.
fn refuse_nul(text: &str) -> Result<(), EncodingError> {
    match memchr::memchr(0, text.as_bytes()) {
        Some(at) => Err(EncodingError::Nul {
            line: line_at(&text.as_bytes()[..at]),
        }),
        None => Ok(()),
    }
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, EncodingError> {
    let units = bytes.chunks(2).map(|pair| match pair {
        [a, b] => Some(unit([*a, *b])),
        _ => None,
    });
    let mut text = String::with_capacity(bytes.len() / 2);
    let mut line = 1;
    for decoded in char::decode_utf16(units.map_while(|unit| unit)) {
        match decoded {
            Ok(c) => {
                line += u32::from(c == '\n');
                text.push(c);
            }
            Err(_) => return Err(EncodingError::BadUtf16 { line }),
        }
    }
    if bytes.len() % 2 != 0 {
        return Err(EncodingError::BadUtf16 { line });
    }
    Ok(text)
}

/// The 1-based line just after `before`.
fn line_at(before: &[u8]) -> u32 {
    let newlines = bytecount::count(before, b'\n');
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_writes_back_what_it_reads() {
        let text = "kind: Pod\nmetadata: {name: café-🚀}\n";
        for encoding in [
            Encoding::Utf8,
            Encoding::Utf8Bom,
            Encoding::Utf16Le,
            Encoding::Utf16Be,
        ] {
            let bytes = encoding.encode(text);
            assert_eq!(Encoding::of(&bytes), encoding);
            assert_eq!(decode(bytes.clone()).unwrap(), text, "{encoding:?}");
            assert_eq!(decode_slice(&bytes).unwrap(), text, "{encoding:?}");
        }
        assert_eq!(Encoding::of(b""), Encoding::Utf8);
        assert_eq!(Encoding::of(b"\xEF\xBB"), Encoding::Utf8);
    }

    #[test]
    fn a_utf8_byte_order_mark_is_dropped() {
        let text = decode(b"\xEF\xBB\xBFkind: Pod\n".to_vec()).unwrap();
        assert_eq!(text, "kind: Pod\n");
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_decoded() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("kind: Pod\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(le).unwrap(), "kind: Pod\n");
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("a: é\n".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(be).unwrap(), "a: é\n");
        assert_eq!(
            decode(vec![0xFF, 0xFE, b'a', 0, b'\n', 0, 0x00, 0xD8]),
            Err(EncodingError::BadUtf16 { line: 2 })
        );
        assert_eq!(
            decode(vec![0xFF, 0xFE, b'a', 0, b'b']),
            Err(EncodingError::BadUtf16 { line: 1 })
        );
    }

    #[test]
    fn nul_and_invalid_utf8_are_refused_with_their_line() {
        assert_eq!(
            decode(b"a: 1\nb: \0\n".to_vec()),
            Err(EncodingError::Nul { line: 2 })
        );
        assert_eq!(
            decode(b"a: 1\nb: 2\nc: \xFF\n".to_vec()),
            Err(EncodingError::NotUtf8 { line: 3 })
        );
        // UTF-32 LE: its byte-order mark reads as UTF-16's and a NUL.
        let utf32 = [0xFF, 0xFE, 0, 0, b'a', 0, 0, 0].to_vec();
        assert_eq!(decode(utf32), Err(EncodingError::Nul { line: 1 }));
    }

    #[test]
    fn bytes_decoded_in_place_read_as_owned_bytes_do() {
        let inputs: [&[u8]; 7] = [
            b"kind: Pod\n",
            b"\xEF\xBB\xBFkind: Pod\n",
            b"a: 1\nb: \0\n",
            b"a: 1\nb: 2\nc: \xFF\n",
            &[0xFF, 0xFE, b'a', 0, b'\n', 0, 0x00, 0xD8],
            &[0xFE, 0xFF, 0, b'a', 0, b'\n'],
            b"",
        ];
        for bytes in inputs {
            let in_place = decode_slice(bytes).map(|text| text.into_owned());
            assert_eq!(in_place, decode(bytes.to_vec()), "{bytes:?}");
        }
        assert!(matches!(
            decode_slice(b"\xEF\xBB\xBFa: 1\n"),
            Ok(std::borrow::Cow::Borrowed("a: 1\n"))
        ));
    }
}
