//! Reading an input's bytes into the text `check` and `upgrade` read.
//!
//! Reading a file is copying it into fresh memory, and on the machines
//! vergate runs on in CI the first touch of each fresh 4 KiB page costs
//! more than the copy: a 4 MB file took 4–7 ms, most of it page faults,
//! before any document could be read. A file of a mebibyte or more is
//! therefore read into an anonymous mapping aligned to 2 MiB and marked
//! for transparent huge pages (two faults instead of a thousand, 1.8 ms
//! for the same file), its two halves at once, and its text is used where
//! it lies. Where the system gives no huge pages the mapping is ordinary
//! memory, as fast as before. Smaller files and standard input are read
//! into a `String`.
//!
//! Nothing here maps the file itself: a file truncated while mapped would
//! end the process with SIGBUS, and the copy costs little.

use memmap2::{Advice, MmapMut, MmapOptions};
use std::io::Read;
use std::ops::Deref;
use vergate::document::{self, Encoding, MAX_FILE_BYTES};

/// Why a source gave no text: the line (0 for the whole file) and the message.
#[derive(Clone)]
pub struct ReadError {
    pub line: u32,
    pub message: String,
}

impl ReadError {
    /// An error about the whole input (line 0).
    pub fn whole(message: String) -> ReadError {
        ReadError { line: 0, message }
    }
}

/// The decoded text of an input, in a `String` or where it was read, and
/// how its bytes were stored (for a tool that writes it back).
pub struct Text {
    repr: Repr,
    encoding: Encoding,
}

enum Repr {
    Owned(String),
    InPlace(InPlace),
}

/// `&str` with a lifetime, for [`InPlace`]'s dependent.
type Str<'a> = &'a str;

self_cell::self_cell!(
    /// A text decoded where it was read: the buffer and the text in it.
    struct InPlace {
        owner: MmapMut,
        #[covariant]
        dependent: Str,
    }
);

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.repr {
            Repr::Owned(text) => text,
            Repr::InPlace(in_place) => in_place.borrow_dependent(),
        }
    }
}

impl Text {
    /// A text decoded into a `String` from bytes stored as `encoding`.
    pub fn owned(text: String, encoding: Encoding) -> Text {
        Text {
            repr: Repr::Owned(text),
            encoding,
        }
    }

    /// How the bytes were stored: UTF-8 or UTF-16, with or without a byte
    /// order mark.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

/// Files at least this large are read into huge pages, two halves at once.
const IN_PLACE_FROM: u64 = 1 << 20;

/// The huge page size transparent huge pages use on x86-64 and arm64.
const HUGE_PAGE: usize = 2 << 20;

/// The text of the file at `path`, within the size limit.
pub fn file(path: &std::path::Path) -> Result<Text, ReadError> {
    let cannot = |err: std::io::Error| ReadError::whole(format!("cannot read: {err}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_or(0, |meta| meta.len());
    if (IN_PLACE_FROM..=MAX_FILE_BYTES as u64).contains(&len) {
        if let Some(read) = in_place(&file, len as usize).map_err(cannot)? {
            return read;
        }
    }
    let (text, encoding) = decode(read_bounded(file, len).map_err(cannot)?)?;
    Ok(Text::owned(text, encoding))
}

/// At most one byte more than [`MAX_FILE_BYTES`] of `reader`, decoded, and
/// how it was stored.
pub fn stream(reader: impl Read, what: &str) -> Result<(String, Encoding), ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| ReadError::whole(format!("cannot read {what}: {err}")))?;
    decode(bytes)
}

/// Bytes read as text, within the size limit (see [`document::decode`]),
/// and how they were stored.
fn decode(bytes: Vec<u8>) -> Result<(String, Encoding), ReadError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let encoding = Encoding::of(&bytes);
    let text = document::decode(bytes).map_err(encoding_error)?;
    Ok((text, encoding))
}

fn too_large() -> ReadError {
    ReadError::whole(format!(
        "larger than {} MiB, the most vergate reads; split it into smaller files",
        MAX_FILE_BYTES >> 20
    ))
}

fn encoding_error(err: document::EncodingError) -> ReadError {
    ReadError {
        line: err.line(),
        message: err.to_string(),
    }
}

/// Reads at most one byte more than [`MAX_FILE_BYTES`] of a file, into a
/// buffer sized once from its length `len` (growing by doubling would copy
/// the text and touch twice the memory). The file is at its start: the
/// reading into huge pages reads at offsets and does not move it.
fn read_bounded(file: std::fs::File, len: u64) -> std::io::Result<Vec<u8>> {
    let limit = MAX_FILE_BYTES as u64 + 1;
    let mut bytes = Vec::with_capacity(len.min(limit) as usize + 1);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The text of `file`, `len` bytes long, read into huge pages and decoded
/// where it lies (UTF-16 is decoded into a `String`); `None` when the
/// file's length changed while it was read: the caller reads it as any
/// other file.
fn in_place(file: &std::fs::File, len: usize) -> std::io::Result<Option<Result<Text, ReadError>>> {
    // Room for the text in whole huge pages from the first 2 MiB boundary
    // wherever the mapping starts: a huge page is only given where all of
    // it lies inside the mapping (with `len + HUGE_PAGE`, a text of 1.5 MB
    // got none in a quarter of the runs, and 370 faults).
    let mapped = len.next_multiple_of(HUGE_PAGE) + HUGE_PAGE;
    let mut buffer = MmapOptions::new().len(mapped).map_anon()?;
    // Advice, not a requirement: without huge pages the buffer is ordinary
    // memory.
    let _ = buffer.advise(Advice::HugePage);
    let start = buffer.as_ptr().align_offset(HUGE_PAGE).min(HUGE_PAGE);
    if !read_halves(file, &mut buffer[start..start + len])? || grew(file, len)? {
        return Ok(None);
    }
    /// Why a text is not kept where it was read.
    enum Elsewhere {
        Decoded(String),
        Failed(document::EncodingError),
    }
    let encoding = Encoding::of(&buffer[start..start + len]);
    let text = InPlace::try_new(buffer, |buffer| {
        match document::decode_slice(&buffer[start..start + len]) {
            Ok(std::borrow::Cow::Borrowed(text)) => Ok(text),
            Ok(std::borrow::Cow::Owned(text)) => Err(Elsewhere::Decoded(text)),
            Err(err) => Err(Elsewhere::Failed(err)),
        }
    });
    Ok(Some(match text {
        Ok(text) => Ok(Text {
            repr: Repr::InPlace(text),
            encoding,
        }),
        Err(Elsewhere::Decoded(text)) => Ok(Text::owned(text, encoding)),
        Err(Elsewhere::Failed(err)) => Err(encoding_error(err)),
    }))
}

/// Fills `bytes` from the start of `file`, on a thread of the pool its two
/// halves at once (elsewhere in one go: handing them to the pool would
/// wait for its workers); false when the file turned out shorter.
#[cfg(unix)]
fn read_halves(file: &std::fs::File, bytes: &mut [u8]) -> std::io::Result<bool> {
    use std::os::unix::fs::FileExt;
    let read = if rayon::current_thread_index().is_none() {
        file.read_exact_at(bytes, 0)
    } else {
        let half = bytes.len() / 2;
        let (front, back) = bytes.split_at_mut(half);
        let (front_read, back_read) = rayon::join(
            || file.read_exact_at(front, 0),
            || file.read_exact_at(back, half as u64),
        );
        front_read.and(back_read)
    };
    match read {
        Ok(()) => Ok(true),
        Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(err) => Err(err),
    }
}

#[cfg(not(unix))]
fn read_halves(_: &std::fs::File, _: &mut [u8]) -> std::io::Result<bool> {
    Ok(false)
}

/// True when `file` holds more than its first `len` bytes.
#[cfg(unix)]
fn grew(file: &std::fs::File, len: usize) -> std::io::Result<bool> {
    use std::os::unix::fs::FileExt;
    let mut byte = [0u8];
    Ok(file.read_at(&mut byte, len as u64)? > 0)
}

#[cfg(not(unix))]
fn grew(_: &std::fs::File, _: usize) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn written(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    /// A text of `len` bytes: lines of YAML.
    fn yaml(len: usize) -> Vec<u8> {
        b"key: value\n".iter().copied().cycle().take(len).collect()
    }

    #[test]
    fn a_large_file_reads_in_place_as_a_small_one_reads() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(yaml(IN_PLACE_FROM as usize + 12_345));
        let file = written(&bytes);
        let text = super::file(file.path()).ok().unwrap();
        assert!(matches!(text.repr, Repr::InPlace(_)));
        assert_eq!(text.encoding(), Encoding::Utf8Bom);
        assert_eq!(&*text, document::decode(bytes).unwrap());
    }

    #[test]
    fn a_large_file_reads_the_same_on_a_thread_of_the_pool() {
        // There its halves are read at once (`read_halves`); the test
        // above reads it in one go, off the pool. A length that is odd and
        // no multiple of a page puts the cut inside a line.
        let bytes = yaml(IN_PLACE_FROM as usize + 4_097);
        let file = written(&bytes);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let text = pool.install(|| super::file(file.path())).ok().unwrap();
        assert!(matches!(text.repr, Repr::InPlace(_)));
        assert_eq!(text.as_bytes(), &bytes[..]);
    }

    #[test]
    fn a_large_file_that_is_not_text_names_its_line() {
        let mut bytes = yaml(IN_PLACE_FROM as usize + 7);
        bytes[22] = 0xFF;
        let err = super::file(written(&bytes).path()).err().unwrap();
        assert_eq!((err.line, err.message.starts_with("not UTF-8")), (3, true));
        bytes[22] = 0;
        let err = super::file(written(&bytes).path()).err().unwrap();
        assert_eq!((err.line, err.message.starts_with("a NUL")), (3, true));
    }

    #[test]
    fn large_utf16_is_decoded() {
        let text = String::from_utf8(yaml(IN_PLACE_FROM as usize)).unwrap();
        let bytes: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let read = super::file(written(&bytes).path()).ok().unwrap();
        assert_eq!((&*read, read.encoding()), (&*text, Encoding::Utf16Le));
        let read = super::file(written(&bytes[..4000]).path()).ok().unwrap();
        assert_eq!(read.encoding(), Encoding::Utf16Le, "a small file too");
    }

    #[test]
    fn a_file_whose_length_changed_is_left_to_the_ordinary_reading() {
        let len = IN_PLACE_FROM as usize + 100;
        let file = written(&yaml(len));
        let opened = std::fs::File::open(file.path()).unwrap();
        // Longer than its length said (it grew), or shorter (it shrank).
        assert!(in_place(&opened, len - 10).unwrap().is_none());
        assert!(in_place(&opened, len + 10).unwrap().is_none());
        assert!(in_place(&opened, len).unwrap().is_some());
    }

    #[test]
    fn small_files_and_streams_read_into_strings() {
        let file = written(b"kind: Pod\n");
        let text = super::file(file.path()).ok().unwrap();
        assert!(matches!(text.repr, Repr::Owned(_)));
        assert_eq!(&*text, "kind: Pod\n");
        assert_eq!(
            stream(&b"a: 1\n"[..], "it").ok().unwrap(),
            ("a: 1\n".to_owned(), Encoding::Utf8)
        );
    }
}
