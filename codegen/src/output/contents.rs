//! A file's bytes in the output tree: one buffer, or pieces shared with other
//! files. The JSON Schema trees hold ~200 MB of documents that repeat the
//! same `$defs` entries (every workload kind carries the whole PodSpec
//! closure); as pieces, each entry is rendered and held once, and the sync
//! compares and writes the pieces without ever joining them.

use std::io::{IoSlice, Write};
use std::sync::{Arc, OnceLock};

/// The bytes of one output file.
#[derive(Clone, Default)]
pub struct Contents {
    repr: Repr,
    len: usize,
}

#[derive(Clone)]
enum Repr {
    Whole(Vec<u8>),
    /// The pieces, and the bytes joined once someone asks for a slice.
    Pieces(Vec<Piece>, OnceLock<Vec<u8>>),
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Whole(Vec::new())
    }
}

/// A piece of a file.
#[derive(Clone, Debug)]
pub enum Piece {
    Static(&'static str),
    Shared(Arc<str>),
    Owned(String),
}

impl Piece {
    fn bytes(&self) -> &[u8] {
        match self {
            Piece::Static(text) => text.as_bytes(),
            Piece::Shared(text) => text.as_bytes(),
            Piece::Owned(text) => text.as_bytes(),
        }
    }
}

impl Contents {
    /// Contents made of `pieces`, in order.
    pub fn from_pieces(pieces: Vec<Piece>) -> Contents {
        let len = pieces.iter().map(|piece| piece.bytes().len()).sum();
        Contents {
            repr: Repr::Pieces(pieces, OnceLock::new()),
            len,
        }
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes in order, as the slices they are held in.
    pub fn chunks(&self) -> impl Iterator<Item = &[u8]> {
        let (whole, pieces): (Option<&[u8]>, &[Piece]) = match &self.repr {
            Repr::Whole(bytes) => (Some(bytes), &[]),
            Repr::Pieces(pieces, _) => (None, pieces),
        };
        whole
            .into_iter()
            .chain(pieces.iter().map(Piece::bytes))
            .filter(|chunk| !chunk.is_empty())
    }

    /// The bytes as one slice; pieces are joined (once) for it.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Whole(bytes) => bytes,
            Repr::Pieces(_, joined) => {
                joined.get_or_init(|| self.chunks().collect::<Vec<_>>().concat())
            }
        }
    }

    /// The bytes as one buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        match self.repr {
            Repr::Whole(bytes) => bytes,
            Repr::Pieces(..) => self.as_bytes().to_vec(),
        }
    }

    /// True when the contents are exactly `bytes`.
    pub fn eq_bytes(&self, mut bytes: &[u8]) -> bool {
        if bytes.len() != self.len {
            return false;
        }
        for chunk in self.chunks() {
            let (head, rest) = bytes.split_at(chunk.len());
            if head != chunk {
                return false;
            }
            bytes = rest;
        }
        true
    }

    /// Writes the bytes with as few system calls as the pieces allow.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        write_chunks(out, self.chunks())
    }
}

/// Writes `chunks` in order, many to a system call (vectored writes), none
/// copied on the way.
pub fn write_chunks<'c>(
    out: &mut impl Write,
    chunks: impl Iterator<Item = &'c [u8]>,
) -> std::io::Result<()> {
    const BATCH: usize = 512;
    let mut batch: Vec<IoSlice> = Vec::with_capacity(BATCH);
    let mut chunks = chunks.peekable();
    while chunks.peek().is_some() {
        batch.clear();
        batch.extend(chunks.by_ref().take(BATCH).map(IoSlice::new));
        let mut slices = batch.as_mut_slice();
        while !slices.is_empty() {
            let written = out.write_vectored(slices)?;
            if written == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            IoSlice::advance_slices(&mut slices, written);
        }
    }
    Ok(())
}

impl From<Vec<u8>> for Contents {
    fn from(bytes: Vec<u8>) -> Contents {
        Contents {
            len: bytes.len(),
            repr: Repr::Whole(bytes),
        }
    }
}

impl From<String> for Contents {
    fn from(text: String) -> Contents {
        Contents::from(text.into_bytes())
    }
}

impl PartialEq for Contents {
    fn eq(&self, other: &Contents) -> bool {
        if self.len != other.len {
            return false;
        }
        match (&self.repr, &other.repr) {
            (Repr::Whole(bytes), _) => other.eq_bytes(bytes),
            (_, Repr::Whole(bytes)) => self.eq_bytes(bytes),
            _ => self.as_bytes() == other.as_bytes(),
        }
    }
}

impl Eq for Contents {}

impl std::fmt::Debug for Contents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.repr {
            Repr::Whole(_) => "whole",
            Repr::Pieces(..) => "pieces",
        };
        write!(f, "Contents({} bytes, {kind})", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_compare_and_write_as_their_bytes() {
        let shared: Arc<str> = Arc::from("shared ");
        let pieces = Contents::from_pieces(vec![
            Piece::Owned("head ".into()),
            Piece::Shared(shared.clone()),
            Piece::Static(""),
            Piece::Shared(shared),
            Piece::Static("tail"),
        ]);
        let whole = Contents::from(b"head shared shared tail".to_vec());
        assert_eq!(pieces.len(), whole.len());
        assert_eq!(pieces, whole);
        assert!(pieces.eq_bytes(b"head shared shared tail"));
        assert!(!pieces.eq_bytes(b"head shared shared tall"));
        assert!(!pieces.eq_bytes(b"head shared shared tail!"));
        assert_eq!(pieces.as_bytes(), whole.as_bytes());
        let mut written = Vec::new();
        pieces.write_to(&mut written).unwrap();
        assert_eq!(written, b"head shared shared tail");
        assert_eq!(pieces.into_bytes(), b"head shared shared tail");
    }
}
