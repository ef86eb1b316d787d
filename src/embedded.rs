//! The gates index the `vergate` binary carries, so that `vergate check
//! --target 1.29 FILES` works right after `cargo install`, with no `--api`.
//!
//! The Kubernetes corpus's index is committed as
//! [`KUBERNETES_PATH`] (`src/embedded/kubernetes.gates.jsonl`), written by
//! `cargo xtask regen --api kubernetes` from `generated/kubernetes/gates.json`
//! and kept fresh by `tests/embedded_data.rs`. Its form is [`render`]'s:
//! JSON Lines, sorted, one line per type and one per field, so a new minor
//! shows in `git diff` as the lines it changes. It holds the whole index
//! (what check, upgrade, diff and the removals-ahead warning read), minified:
//! about 730 KB, against 946 KB for the pretty-printed gates.json.

use crate::gates::{
    Dialect, FeatureGateHistory, FieldGate, GatesIndex, GroupVersionKind, RetiredKind, TypeGate,
};
use crate::tables::{GateTables, UnreadType};
use crate::Version;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Where the Kubernetes index is committed, relative to the repository root.
pub const KUBERNETES_PATH: &str = "src/embedded/kubernetes.gates.jsonl";

/// The API whose index is embedded.
pub const KUBERNETES: &str = "kubernetes";

/// The committed Kubernetes index, as compiled in.
const KUBERNETES_TEXT: &str = include_str!("embedded/kubernetes.gates.jsonl");

/// The command that writes the embedded index, named in its header line.
const GENERATED_BY: &str = "cargo xtask regen --api kubernetes";

/// The header line: everything of the index but its types.
#[derive(Serialize, Deserialize)]
struct Header {
    generated_by: String,
    api: String,
    #[serde(
        default = "Dialect::unwritten",
        skip_serializing_if = "Dialect::is_unwritten"
    )]
    dialect: Dialect,
    versions: Vec<Version>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    deprecated_versions: BTreeMap<Version, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    feature_gates: BTreeMap<String, FeatureGateHistory>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    retired_kinds: Vec<RetiredKind>,
}

/// One line after the header: a type (without its fields) or one field.
/// Written untagged (`["<type>", {gate}]`, `["<type>", "<field>", {gate}]`);
/// read by [`LineVisitor`], which tells the two apart by the second element
/// instead of buffering each line and trying both shapes, as serde's
/// untagged reading does (that was most of the CLI's start-up).
#[derive(Serialize)]
#[serde(untagged)]
enum Line {
    Field(String, String, FieldGate),
    Type(String, TypeGate),
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Line, D::Error> {
        deserializer.deserialize_seq(LineVisitor)
    }
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = Line;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[\"<type>\", {gate}] or [\"<type>\", \"<field>\", {gate}]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Line, A::Error> {
        let name: String = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        match seq.next_element::<Second>()? {
            Some(Second::Field(field)) => {
                let gate = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(2, &self))?;
                Ok(Line::Field(name, field, gate))
            }
            Some(Second::Type(ty)) => Ok(Line::Type(name, *ty)),
            None => Err(de::Error::invalid_length(1, &self)),
        }
    }
}

/// A line's second element: a field's name, or a type's gate.
enum Second {
    Field(String),
    Type(Box<TypeGate>),
}

impl<'de> Deserialize<'de> for Second {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Second, D::Error> {
        struct SecondVisitor;
        impl<'de> Visitor<'de> for SecondVisitor {
            type Value = Second;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name or a type's gate")
            }

            fn visit_str<E: de::Error>(self, field: &str) -> Result<Second, E> {
                Ok(Second::Field(field.to_owned()))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Second, A::Error> {
                TypeGate::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|ty| Second::Type(Box::new(ty)))
            }
        }
        deserializer.deserialize_any(SecondVisitor)
    }
}

/// The embedded Kubernetes gate tables. Only the header and each type's
/// kinds are read here; a type's gates are read the first time a check asks
/// for them (see [`GateTables::lazy`]).
pub fn kubernetes() -> GateTables {
    lazy(KUBERNETES_TEXT).unwrap_or_else(|err| {
        // The committed file is checked by tests/embedded_data.rs; a build
        // from a corrupted checkout is the only way here.
        panic!("the embedded Kubernetes index ({KUBERNETES_PATH}) does not read: {err}")
    })
}

/// Tables over `text` in the embedded form, each type left unread but for
/// the kinds it is served as.
fn lazy(text: &'static str) -> Result<GateTables, String> {
    let (header, body) = text.split_once('\n').ok_or("empty index")?;
    // The header (the feature-gate table, most of its bytes) is read while
    // the types are listed: both are on the path of every command's start.
    let (header, types) = rayon::join(|| read_header(header), || unread_types(body));
    let header = header?;
    Ok(GateTables::lazy(
        header.api,
        header.versions,
        header.deprecated_versions,
        types?,
    )
    .with_dialect(header.dialect)
    .with_feature_gates(header.feature_gates)
    .with_retired_kinds(header.retired_kinds))
}

/// The types of the index's `body` (its lines after the header), each left
/// unread but for the kinds it is served as.
fn unread_types(body: &'static str) -> Result<Vec<UnreadType>, String> {
    let mut types: Vec<UnreadType> = Vec::new();
    let mut start = 0;
    let mut current: Option<(&str, Vec<GroupVersionKind>)> = None;
    let kinds_key = memchr::memmem::Finder::new(KINDS_KEY);
    // Lines are cut with memchr: the index is read at every start-up. A
    // last line without its newline ends at the end.
    let unterminated = !body.is_empty() && !body.ends_with('\n');
    let ends = memchr::memchr_iter(b'\n', body.as_bytes())
        .map(|newline| newline + 1)
        .chain(unterminated.then_some(body.len()));
    // Where the current line starts.
    let mut offset = 0;
    for (number, line_end) in (2..).zip(ends) {
        let line = &body[offset..line_end];
        // Most lines are fields of the type before them: told by their start.
        if current
            .as_ref()
            .is_some_and(|(current, _)| is_field_of(line, current))
        {
            offset = line_end;
            continue;
        }
        let (name, is_type) =
            line_name(line).ok_or_else(|| format!("line {number}: not an index line"))?;
        if is_type {
            if let Some((name, kinds)) = current.take() {
                types.push(unread(name, kinds, &body[start..offset]));
            }
            // Most types are no kind: their lines are not parsed here, and
            // a kind's line only from its `kinds` on.
            let kinds = match kinds_key.find(line.as_bytes()) {
                Some(at) => read_kinds(&line[at + KINDS_KEY.len()..])
                    .map_err(|err| format!("line {number}: `kinds`: {err}"))?,
                None => Vec::new(),
            };
            current = Some((name, kinds));
            start = offset;
        } else if current.as_ref().is_none_or(|(current, _)| *current != name) {
            return Err(format!("line {number}: field of {name} before its type"));
        }
        offset = line_end;
    }
    if let Some((name, kinds)) = current {
        types.push(unread(name, kinds, &body[start..]));
    }
    Ok(types)
}

fn unread(name: &str, kinds: Vec<GroupVersionKind>, text: &'static str) -> UnreadType {
    UnreadType {
        name: name.to_owned(),
        kinds,
        text,
        read: read_type,
    }
}

/// A type line's `kinds` key. Only a key can match it: a quote inside a
/// JSON string is escaped (`\"`), and no gate below a type has a key of
/// that name (`every_embedded_type_reads_lazily_as_the_whole_index_does`
/// compares every type's kinds with the whole index's).
const KINDS_KEY: &[u8] = b"\"kinds\":";

/// The kinds of a type line from the text after its `"kinds":`: the array
/// there, the rest of the line left unread.
fn read_kinds(text: &str) -> Result<Vec<GroupVersionKind>, serde_json::Error> {
    Vec::deserialize(&mut serde_json::Deserializer::from_str(text))
}

/// True when `line` is a field line of type `name` (`["<name>","`).
fn is_field_of(line: &str, name: &str) -> bool {
    let line = line.as_bytes();
    line.len() > name.len() + 5
        && line.starts_with(b"[\"")
        && line[2..].starts_with(name.as_bytes())
        && line[2 + name.len()..].starts_with(b"\",\"")
}

/// The type name a line starts with, and whether the line is the type's
/// own (`["<type>",{`) rather than one of its fields (`["<type>","<field>"`).
/// Type names hold no quotes or backslashes.
fn line_name(line: &str) -> Option<(&str, bool)> {
    let rest = line.strip_prefix("[\"")?;
    let end = memchr::memchr(b'"', rest.as_bytes())?;
    let name = &rest[..end];
    if memchr::memchr(b'\\', name.as_bytes()).is_some() {
        return None;
    }
    Some((name, rest[end..].starts_with("\",{")))
}

/// Reads one type's lines (its own, then its fields'). The lines were
/// checked when the binary was tested (`tests/embedded_data.rs` and this
/// module's tests read every type), so a failure means a corrupted build.
fn read_type(text: &'static str) -> TypeGate {
    let mut lines = text.lines();
    let mut ty = match lines.next().map(serde_json::from_str::<Line>) {
        Some(Ok(Line::Type(_, ty))) => ty,
        _ => panic!("the embedded index ({KUBERNETES_PATH}) holds an unreadable type: {text:.200}"),
    };
    for line in lines {
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Field(_, field, gate)) => {
                ty.fields.insert(field, gate);
            }
            _ => panic!(
                "the embedded index ({KUBERNETES_PATH}) holds an unreadable field: {line:.200}"
            ),
        }
    }
    ty
}

/// The minors of the embedded Kubernetes index, without building its tables.
pub fn kubernetes_versions() -> Vec<Version> {
    KUBERNETES_TEXT
        .lines()
        .next()
        .and_then(|header| serde_json::from_str::<Header>(header).ok())
        .map(|header| header.versions)
        .unwrap_or_default()
}

/// Writes `index` in the embedded form: a header line, then per type (in
/// name order) one line `["<type>", {gate}]` and one line
/// `["<type>", "<field>", {gate}]` per field (in name order).
pub fn render(index: &GatesIndex) -> String {
    let header = Header {
        generated_by: GENERATED_BY.to_owned(),
        api: index.api.clone(),
        dialect: index.dialect,
        versions: index.versions.clone(),
        deprecated_versions: index.deprecated_versions.clone(),
        feature_gates: index.feature_gates.clone(),
        retired_kinds: index.retired_kinds.clone(),
    };
    let mut out = serde_json::to_string(&header).expect("the header serializes");
    out.push('\n');
    for (name, ty) in &index.types {
        let bare = TypeGate {
            fields: BTreeMap::new(),
            ..ty.clone()
        };
        let line = Line::Type(name.clone(), bare);
        out.push_str(&serde_json::to_string(&line).expect("a type serializes"));
        out.push('\n');
        for (field, gate) in &ty.fields {
            let line = Line::Field(name.clone(), field.clone(), gate.clone());
            out.push_str(&serde_json::to_string(&line).expect("a field serializes"));
            out.push('\n');
        }
    }
    out
}

/// The header line, which must list the index's versions.
fn read_header(line: &str) -> Result<Header, String> {
    let header: Header =
        serde_json::from_str(line).map_err(|err| format!("line 1: not a header: {err}"))?;
    if header.versions.is_empty() {
        return Err("the index lists no versions".into());
    }
    Ok(header)
}

/// Reads the embedded form back; the error names the line.
pub fn parse(text: &str) -> Result<GatesIndex, String> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or("empty index")?;
    let header = read_header(header)?;
    let mut index = GatesIndex {
        api: header.api,
        dialect: header.dialect,
        versions: header.versions,
        deprecated_versions: header.deprecated_versions,
        feature_gates: header.feature_gates,
        retired_kinds: header.retired_kinds,
        types: BTreeMap::new(),
    };
    for (number, line) in lines {
        let line: Line =
            serde_json::from_str(line).map_err(|err| format!("line {}: {err}", number + 1))?;
        match line {
            Line::Type(name, ty) => {
                index.types.insert(name, ty);
            }
            Line::Field(name, field, gate) => {
                let ty = index.types.get_mut(&name).ok_or_else(|| {
                    format!(
                        "line {}: field {field} of {name} before its type",
                        number + 1
                    )
                })?;
                ty.fields.insert(field, gate);
            }
        }
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_index_reads_and_round_trips() {
        let index = parse(KUBERNETES_TEXT).unwrap();
        assert_eq!(index.api, KUBERNETES);
        assert_eq!(render(&index), KUBERNETES_TEXT);
        assert_eq!(kubernetes_versions(), index.versions);
        let service = &index.types["io.k8s.api.core.v1.ServiceSpec"];
        assert_eq!(
            service.fields["trafficDistribution"]
                .gate
                .introduced_in
                .to_string(),
            "1.30"
        );
    }

    #[test]
    fn every_embedded_type_reads_lazily_as_the_whole_index_does() {
        let index = parse(KUBERNETES_TEXT).unwrap();
        let tables = kubernetes();
        assert_eq!(tables.versions(), index.versions);
        assert_eq!(tables.deprecated_versions(), &index.deprecated_versions);
        let lazy: Vec<(&str, &TypeGate)> = tables.types();
        let whole: Vec<(&str, &TypeGate)> = index
            .types
            .iter()
            .map(|(name, ty)| (name.as_str(), ty))
            .collect();
        assert_eq!(lazy, whole);
        assert_eq!(
            tables
                .types_for_gvk("apps", "v1", "Deployment")
                .collect::<Vec<_>>(),
            ["io.k8s.api.apps.v1.Deployment"]
        );
    }

    #[test]
    fn the_demo_index_round_trips() {
        let text = include_str!("../generated/demo/gates.json");
        let index: GatesIndex = serde_json::from_str(text).unwrap();
        assert_eq!(parse(&render(&index)).unwrap(), index);
    }

    #[test]
    fn a_field_before_its_type_is_refused_naming_the_line() {
        let text = "{\"generated_by\":\"x\",\"api\":\"a\",\"versions\":[\"1.1\"]}\n\
                    [\"T\",\"f\",{\"introduced_in\":\"1.1\",\"removed_in\":null,\"type\":\"string\"}]\n";
        let err = parse(text).unwrap_err();
        assert!(err.starts_with("line 2: field f of T"), "{err}");
    }

    #[test]
    fn a_type_line_reads_its_kinds_alone_and_refuses_bad_ones_naming_the_line() {
        let header = "{\"generated_by\":\"x\",\"api\":\"a\",\"versions\":[\"1.1\"]}";
        let ty = |kinds: &str| {
            format!(
                "{header}\n[\"T\",{{\"introduced_in\":\"1.1\",\"kinds\":{kinds},\"removed_in\":null}}]\n"
            )
        };
        let text: &'static str = ty(r#"[{"group":"g","version":"v1","kind":"K"}]"#).leak();
        let tables = lazy(text).unwrap();
        assert_eq!(
            tables.types_for_gvk("g", "v1", "K").collect::<Vec<_>>(),
            ["T"]
        );
        let err = lazy(ty(r#"[{"group":1}]"#).leak()).unwrap_err();
        assert!(err.starts_with("line 2: `kinds`: invalid type"), "{err}");
    }

    #[test]
    fn lines_are_cut_alike_with_or_without_a_last_newline() {
        let header = "{\"generated_by\":\"x\",\"api\":\"a\",\"versions\":[\"1.1\"]}\n";
        let ty = "[\"T\",{\"introduced_in\":\"1.1\",\"removed_in\":null}]";
        let field =
            "[\"T\",\"f\",{\"introduced_in\":\"1.1\",\"removed_in\":null,\"type\":\"string\"}]";
        // No types at all: nothing to read, and no line to refuse.
        assert!(lazy(header).unwrap().types().is_empty());
        let ended: &'static str = format!("{header}{ty}\n{field}\n").leak();
        let unended: &'static str = format!("{header}{ty}\n{field}").leak();
        let fields = |text| lazy(text).unwrap().ty("T").unwrap().fields.len();
        assert_eq!((fields(ended), fields(unended)), (1, 1));
    }
}
