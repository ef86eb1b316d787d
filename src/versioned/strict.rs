//! Strict decoding of JSON into a per-minor type (the `json` feature).

use serde::de::DeserializeOwned;
use std::fmt;

/// Decodes JSON into a per-minor type, failing on every field the minor does
/// not have (serde's default is to ignore them). The error names each such
/// field by its path (`spec.trafficDistribution`).
pub fn from_str_strict<T: DeserializeOwned>(json: &str) -> Result<T, StrictError> {
    let mut unknown = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value = serde_ignored::deserialize(&mut deserializer, |path| {
        unknown.push(path_text(&path));
    })
    .map_err(StrictError::Decode)?;
    deserializer.end().map_err(StrictError::Decode)?;
    if unknown.is_empty() {
        Ok(value)
    } else {
        Err(StrictError::UnknownFields(unknown))
    }
}

/// `spec.ports[0].appProtocol`: the same path style as [`ConversionError`].
fn path_text(path: &serde_ignored::Path) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}[{index}]", path_text(parent)),
        Path::Map { parent, key } => {
            let parent = path_text(parent);
            if parent.is_empty() {
                key.clone()
            } else {
                format!("{parent}.{key}")
            }
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => path_text(parent),
    }
}

/// Why [`from_str_strict`] failed.
#[derive(Debug)]
pub enum StrictError {
    /// The JSON is malformed or does not fit the type.
    Decode(serde_json::Error),
    /// Fields the target minor does not have, by path.
    UnknownFields(Vec<String>),
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictError::Decode(err) => err.fmt(f),
            StrictError::UnknownFields(paths) => write!(
                f,
                "unknown field(s) for this minor: {}; the field may not exist yet or any more in the target minor",
                paths.join(", ")
            ),
        }
    }
}

impl std::error::Error for StrictError {}
