//! `vergate check --crd`: custom resources checked against their
//! CustomResourceDefinitions.
//!
//! The CRDs (given with `--crd`, or found among the inputs) are read by
//! the code generator's own loader (`vergate_codegen::load`, the CRD input
//! format of `spec_files`) into a minor model, merged into a gated model
//! and turned into gates by the very function that writes gates.json
//! (`GatedModel::gates_index`): no second converter, and no emitter (nor
//! tera) in the binary. Their types join the API's gate tables, present in
//! every minor of it, and preflight's one walker checks custom resources
//! like any other kind. What is left here is what only a CRD knows: which
//! versions it lists but does not serve.

use super::inputs::{self, ReadError, Source, Text, WalkOptions};
use super::results::InputError;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use vergate::cel::{crd_cost, Schema};
use vergate::document::{self, Node};
use vergate::junctors::Junctors;
use vergate::tables::GateTables;
use vergate::Version;
use vergate_codegen::load::{build_minor, crds_from_documents, holds_crd, CrdVersions, Document};
use vergate_codegen::model::{kubernetes, Dialect, GatedModel};

/// The kind of a CustomResourceDefinition.
const CRD_KIND: &str = "CustomResourceDefinition";

/// True when `text` names [`CRD_KIND`] anywhere: a vectorised search, built
/// once (each input, and each part of it, is searched).
fn names_crd_kind(text: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(CRD_KIND));
    FINDER.find(text.as_bytes()).is_some()
}

/// Finds CEL rules in a CRD's text: one without any is not costed.
static FINDER_RULES: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new("x-kubernetes-validations"));

/// The CRDs in use, for what the gate tables cannot say, and the CRDs
/// among the inputs that are not used.
#[derive(Default)]
pub struct CustomResources {
    crds: Vec<CrdVersions>,
    /// The CEL rules of each served version that has any, compiled once,
    /// by group, version and kind.
    rules: HashMap<(String, String, String), Schema>,
    /// The logical junctors (`allOf`, `anyOf`, `oneOf`, `not`) of each
    /// served version that has any, by group, version and kind.
    junctors: HashMap<(String, String, String), Junctors>,
    /// The rules of the API's own gates (a regen of CRDs), built per type
    /// and minor as documents ask for them.
    gate_rules: vergate::cel::GateRules,
    /// CRDs among the inputs left out: the input's name, the lines of the
    /// document, and why.
    unused: Vec<Unused>,
}

/// A CRD among the inputs that is not used.
struct Unused {
    file: String,
    lines: std::ops::Range<u32>,
    message: String,
}

impl Unused {
    /// The CRD at `lines` of input `file`, left out for `why`; `instead`
    /// is the file of the CRD its custom resources are checked against.
    fn new(
        file: String,
        lines: std::ops::Range<u32>,
        instead: Option<&Path>,
        why: impl std::fmt::Display,
    ) -> Unused {
        let used = match instead {
            Some(first) => format!(
                "its custom resources are checked against the CRD in {}",
                first.display()
            ),
            None => "its custom resources are not checked against it".to_owned(),
        };
        Unused {
            file,
            lines,
            message: format!("this CRD is not used ({used}): {why}"),
        }
    }
}

impl CustomResources {
    /// Why the CRD document at `line` of input `file` is not used, when it
    /// is one that is left out.
    pub fn not_used(&self, file: &str, line: u32) -> Option<&str> {
        self.unused
            .iter()
            .find(|unused| unused.file == file && unused.lines.contains(&line))
            .map(|unused| unused.message.as_str())
    }

    /// The CEL rules of the custom resource `root`'s CRD version, if it has any.
    pub fn rules_for(&self, root: &Node) -> Option<&Schema> {
        // Most runs have no CRD with rules: no key built for every document.
        if self.rules.is_empty() {
            return None;
        }
        self.rules.get(&owned(group_version_kind(root)?))
    }

    /// The logical junctors of the custom resource `root`'s CRD version,
    /// if it has any.
    pub fn junctors_for(&self, root: &Node) -> Option<&Junctors> {
        if self.junctors.is_empty() {
            return None;
        }
        self.junctors.get(&owned(group_version_kind(root)?))
    }

    /// The CEL rules of the API's own type of `root` in `minor`, when its
    /// gates have any (a regen of CRDs checked with `--api`).
    pub fn gate_rules_for(
        &self,
        tables: &GateTables,
        root: &Node,
        minor: Version,
    ) -> Option<std::sync::Arc<Option<Schema>>> {
        if !tables.has_rules() {
            return None;
        }
        let (group, version, kind) = group_version_kind(root)?;
        let name = tables.types_for_gvk(group, version, kind).next()?;
        Some(self.gate_rules.for_type(tables, name, minor))
    }

    /// When `root` is a custom resource of a version its CRD lists but does
    /// not serve: the line of its apiVersion and the message naming the
    /// served versions.
    pub fn unserved(&self, root: &Node) -> Option<(u32, String)> {
        let api_version = root.get("apiVersion")?;
        let (group, version, kind) = group_version_kind(root)?;
        let crd = self
            .crds
            .iter()
            .find(|crd| crd.group == group && crd.kind == kind)?;
        if crd.served.iter().any(|served| served == version) {
            return None;
        }
        let listed = if crd.unserved.iter().any(|unserved| unserved == version) {
            "lists but does not serve"
        } else {
            "does not list"
        };
        let served: Vec<String> = crd
            .served
            .iter()
            .map(|served| format!("{group}/{served}"))
            .collect();
        let fix = match served.as_slice() {
            [] => "it serves no version".to_owned(),
            [one] => format!("use apiVersion {one}"),
            several => format!("use one of the served: {}", several.join(", ")),
        };
        Some((
            api_version.line,
            format!(
                "{group}/{version} {kind}: the CRD {} {listed} version {version}; {fix}",
                crd.name
            ),
        ))
    }
}

/// Where a CRD read for the check comes from.
enum Origin {
    /// A file given with `--crd` (its name).
    Given(String),
    /// A document among the inputs: the input's name and its lines.
    Input(String, std::ops::Range<u32>),
}

/// A CRD document among the inputs, with where it came from, read or not.
type ReadCrd = (Origin, PathBuf, Result<Document, String>);

/// A CRD document read, with where it came from.
struct Candidate {
    origin: Origin,
    path: PathBuf,
    document: Document,
}

/// What [`load`] gives the check.
pub struct Loaded {
    pub tables: GateTables,
    pub custom: CustomResources,
    /// CRD files given with `--crd` that cannot be used: input errors (the
    /// check goes on without them).
    pub errors: Vec<InputError>,
}

/// Extends `tables` with the custom resources of the CRDs in `crd_paths`
/// (files, or directories searched for them) and those among `sources`
/// (read into `texts`, cut into `parts`). Nothing here stops the check:
/// a `--crd` file that cannot be used is an input error, a CRD among the
/// inputs that does not read (or that differs from another of its name) is
/// left out and reported at its document ([`CustomResources::not_used`]);
/// every other document is still checked.
pub fn load(
    tables: GateTables,
    target: Option<Version>,
    crd_paths: &[PathBuf],
    sources: &[Source],
    texts: &[Result<Text, ReadError>],
    parts: &[Vec<document::Part<'_>>],
) -> Loaded {
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    let (given, notes) = inputs::sources(crd_paths, &WalkOptions::default());
    for note in notes {
        eprintln!("warning: --crd: {note}");
    }
    let mut error = |file: &str, line: u32, message: String| {
        errors.push(InputError {
            file: file.to_owned(),
            line,
            message,
        })
    };
    for source in &given {
        let Some(path) = source.path() else {
            // A walk error, or `-`: standard input holds documents, not CRDs.
            let message = source.read().err().map_or(
                "--crd takes files and directories, not standard input".into(),
                |err| err.message,
            );
            error(&source.name, 0, format!("--crd: {message}"));
            continue;
        };
        seen.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()));
        let text = match source.read() {
            Ok(text) => text,
            Err(err) => {
                error(&source.name, err.line, format!("--crd: {}", err.message));
                continue;
            }
        };
        if !names_crd_kind(&text) {
            if !source.walked {
                error(
                    &source.name,
                    0,
                    "--crd: no CustomResourceDefinition in it; name CRD files or directories holding them".into(),
                );
            }
            continue;
        }
        let read = read_json(path, &document::split(&text), 0).and_then(|documents| {
            // Only a CRD over a limit is read again, for its lines.
            let rules = FINDER_RULES.find(text.as_bytes()).is_some();
            if rules && documents.iter().any(|(_, doc)| crd_cost::over_limits(doc)) {
                warn_over_cost(&source.name, &text);
            }
            crds_from_documents(path, documents).map_err(|err| err.to_string())
        });
        match read {
            Ok(document) => candidates.push(Candidate {
                origin: Origin::Given(source.name.clone()),
                path: path.to_owned(),
                document,
            }),
            Err(err) => error(&source.name, 0, format!("--crd: {err}")),
        }
    }
    // The inputs' parts are searched for CRDs in parallel, each CRD
    // document read on its own, so one that does not read leaves the others.
    let scanned: Vec<Vec<ReadCrd>> = sources
        .par_iter()
        .zip(texts)
        .zip(parts)
        .map(|((source, text), parts)| {
            let path = match source.path() {
                Some(path) => {
                    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
                    if seen.contains(&key) {
                        return Vec::new();
                    }
                    path
                }
                None if source.is_stdin() => Path::new(&source.name),
                None => return Vec::new(),
            };
            let Ok(text) = text.as_ref() else {
                return Vec::new();
            };
            if !names_crd_kind(text) {
                return Vec::new();
            }
            read_crd_parts(path, parts)
                .into_iter()
                .map(|(lines, read)| {
                    (
                        Origin::Input(source.name.clone(), lines),
                        path.to_owned(),
                        read,
                    )
                })
                .collect()
        })
        .collect();
    let mut unused = Vec::new();
    for (origin, path, read) in scanned.into_iter().flatten() {
        match read {
            Ok(document) => candidates.push(Candidate {
                origin,
                path,
                document,
            }),
            Err(message) => {
                if let Origin::Input(file, lines) = origin {
                    unused.push(Unused::new(file, lines, None, message));
                }
            }
        }
    }
    let mut custom = CustomResources {
        crds: Vec::new(),
        rules: HashMap::new(),
        junctors: HashMap::new(),
        gate_rules: Default::default(),
        unused,
    };
    if candidates.is_empty() {
        return Loaded {
            tables,
            custom,
            errors,
        };
    }
    // With a target, custom resources are checked against it alone: the
    // model of one minor is enough (and merging nine copies of a 1 MB CRD
    // is not free).
    let versions = match target {
        Some(target) => vec![target],
        None => tables.versions().to_vec(),
    };
    let (index, used) = usable_index(
        tables.api(),
        &versions,
        candidates,
        &mut custom,
        &mut errors,
    );
    custom.crds = used
        .iter()
        .flat_map(|(_, document)| document.crds.iter().cloned())
        .collect();
    custom.rules = compiled_rules(&used);
    custom.junctors = junctors_of(&used);
    let mut tables = tables;
    if let Some(index) = index {
        for (name, ty) in index.types {
            // The built-in ObjectMeta gives way to the API's own.
            let built_in = kubernetes::is_meta_v1(&name);
            if built_in && tables.contains(&name) {
                continue;
            }
            tables.insert_custom(name, ty);
        }
    }
    Loaded {
        tables,
        custom,
        errors,
    }
}

/// The group, version and kind of the custom resource `root` (`None` for
/// a core kind, whose `apiVersion` has no group).
fn group_version_kind(root: &Node) -> Option<(&str, &str, &str)> {
    let kind = root.get("kind")?.as_str()?;
    let (group, version) = root.get("apiVersion")?.as_str()?.rsplit_once('/')?;
    Some((group, version, kind))
}

/// `gvk` as the key of the tables of served versions.
fn owned((group, version, kind): (&str, &str, &str)) -> (String, String, String) {
    (group.to_owned(), version.to_owned(), kind.to_owned())
}

/// The definition of each served version of the CRDs in `used`, as the
/// CRD reader rewrote it, by group, version and kind.
fn served_schemas(
    used: &[(PathBuf, Document)],
) -> Vec<((String, String, String), &serde_json::Value)> {
    used.iter()
        .flat_map(|(_, document)| {
            document.crds.iter().flat_map(move |crd| {
                let reversed: Vec<&str> = crd.group.split('.').rev().collect();
                crd.served.iter().filter_map(move |version| {
                    let name = format!("{}.{version}.{}", reversed.join("."), crd.kind);
                    let schema = document.root.get("definitions")?.get(&name)?;
                    Some((
                        (crd.group.clone(), version.clone(), crd.kind.clone()),
                        schema,
                    ))
                })
            })
        })
        .collect()
}

/// The logical junctors of every served version of the CRDs in `used`
/// that has any, keyed by its group, version and kind; each named in
/// messages by its file, name and version.
fn junctors_of(used: &[(PathBuf, Document)]) -> HashMap<(String, String, String), Junctors> {
    served_schemas(used)
        .into_iter()
        .filter_map(|(key, schema)| {
            let (file, name) = used.iter().find_map(|(path, document)| {
                let crd = document
                    .crds
                    .iter()
                    .find(|crd| crd.group == key.0 && crd.kind == key.2)?;
                Some((path.display().to_string(), crd.name.as_str()))
            })?;
            let crd = format!("the CRD {name} in {file}, version {}", key.1);
            Some((key, Junctors::read(schema, &crd)?))
        })
        .collect()
}

/// The CEL rules of every served version of the CRDs in `used` that has
/// any, each distinct rule compiled once (spread over the threads), keyed
/// by its group, version and kind. The loader keeps
/// `x-kubernetes-validations` in the schemas it rewrites, so the
/// definitions are read as they are.
fn compiled_rules(used: &[(PathBuf, Document)]) -> HashMap<(String, String, String), Schema> {
    Schema::read_all(served_schemas(used))
        .into_iter()
        .filter(|(_, schema)| schema.rules_below)
        .collect()
}

/// The gates of every candidate that can be used together, and those
/// candidates. All of them together is tried first; when that fails (a CRD
/// whose schema does not convert, two different CRDs of one name), they
/// are added one by one in input order and each that fails is left out,
/// reported where it came from (a `--crd` file as an input error, a CRD
/// among the inputs at its document, naming the CRD that is used instead).
fn usable_index(
    api: &str,
    versions: &[Version],
    candidates: Vec<Candidate>,
    custom: &mut CustomResources,
    errors: &mut Vec<InputError>,
) -> (Option<vergate::gates::GatesIndex>, Vec<(PathBuf, Document)>) {
    let (origins, documents): (Vec<Origin>, Vec<(PathBuf, Document)>) = candidates
        .into_iter()
        .map(|candidate| (candidate.origin, (candidate.path, candidate.document)))
        .unzip();
    if let Ok(index) = custom_resource_index(api, versions, &documents) {
        return (Some(index), documents);
    }
    let mut used: Vec<(PathBuf, Document)> = Vec::new();
    let mut index = None;
    for (origin, document) in origins.into_iter().zip(documents) {
        used.push(document);
        match custom_resource_index(api, versions, &used) {
            Ok(built) => index = Some(built),
            Err(err) => {
                used.pop();
                match origin {
                    Origin::Given(name) => errors.push(InputError {
                        file: name,
                        line: 0,
                        message: format!("--crd: not used: {err}"),
                    }),
                    Origin::Input(file, lines) => {
                        let instead = match &err {
                            vergate_codegen::Error::ConflictingDefinition { first, .. } => {
                                Some(first.as_path())
                            }
                            _ => None,
                        };
                        custom.unused.push(Unused::new(file, lines, instead, &err));
                    }
                }
            }
        }
    }
    (index, used)
}

/// The CRDs of `parts` (of the file at `path`), read by the reader `check`
/// reads documents with (the same YAML 1.1 values, the fast path), in
/// parallel. A YAML error in a part is the error.
fn read_parts(
    path: &Path,
    parts: &[document::Part<'_>],
    first_index: usize,
) -> Result<Document, String> {
    let documents = read_json(path, parts, first_index)?;
    crds_from_documents(path, documents).map_err(|err| err.to_string())
}

/// The documents of `parts` as JSON, each with its index in the input.
fn read_json(
    path: &Path,
    parts: &[document::Part<'_>],
    first_index: usize,
) -> Result<Vec<(usize, serde_json::Value)>, String> {
    let chosen: Vec<(usize, &document::Part<'_>)> = parts
        .iter()
        .enumerate()
        .map(|(index, part)| (first_index + index, part))
        .collect();
    let read: Vec<Result<Vec<(usize, serde_json::Value)>, String>> = chosen
        .par_iter()
        .map(|(index, part)| {
            part.reader()
                .enumerate()
                .map(|(offset, read)| {
                    let document = read.map_err(|err| {
                        format!("{}: line {}: {}", path.display(), err.line, err.message)
                    })?;
                    Ok((index + offset, document.root.into_json()))
                })
                .collect()
        })
        .collect();
    let mut documents = Vec::new();
    for part in read {
        documents.extend(part?);
    }
    Ok(documents)
}

/// Each CRD document of an input (the parts holding a top-level `kind:
/// CustomResourceDefinition` line) read on its own: its lines, and its
/// CRDs or why it does not read. A CRD written again with only its
/// `metadata` changed (the same chart rendered twice, a copy under another
/// name) defines nothing new and is read once.
fn read_crd_parts(
    path: &Path,
    parts: &[document::Part<'_>],
) -> Vec<(std::ops::Range<u32>, Result<Document, String>)> {
    let holding: Vec<(usize, &document::Part<'_>)> = parts
        .iter()
        .enumerate()
        .filter(|(_, part)| {
            part.is_whole() || names_crd_kind(part.text()) && holds_crd(part.text().as_bytes())
        })
        .collect();
    let texts: Vec<&str> = holding.iter().map(|(_, part)| part.text()).collect();
    let firsts = first_copies(&texts);
    holding
        .into_par_iter()
        .zip(firsts)
        .filter_map(|(part, first)| first.then_some(part))
        .map(|(index, part)| {
            let first = part.first_line();
            let lines = first..first + part.text().matches('\n').count() as u32 + 1;
            // Numbered as in the file, so a message names its document.
            let read = read_parts(path, std::slice::from_ref(part), index);
            (lines, read)
        })
        .filter(|(_, read)| {
            // A part that only mentions CRDs (a document about them) but is
            // no CRD is no candidate; the check reports its YAML itself.
            !matches!(read, Ok(document) if document.crds.is_empty())
        })
        .collect()
}

/// For each of `texts`, whether it is the first of its copies: no earlier
/// text is the same once its top-level `metadata:` block and its document
/// marker line are left out ([`without_metadata`]). Texts are compared by
/// a hash, then where two hashes agree, byte for byte. A copy missed (two
/// equal texts taken for different) costs a second reading, no more.
fn first_copies(texts: &[&str]) -> Vec<bool> {
    let kept: Vec<[&str; 2]> = texts
        .par_iter()
        .map(|text| without_metadata(text))
        .collect();
    let hashes: Vec<u64> = kept
        .par_iter()
        .map(|[before, after]| {
            let mut hasher = foldhash::fast::FixedState::default().build_hasher();
            hasher.write_usize(before.len());
            hasher.write(before.as_bytes());
            hasher.write(after.as_bytes());
            hasher.finish()
        })
        .collect();
    let mut by_hash: HashMap<u64, Vec<usize>, foldhash::fast::RandomState> = HashMap::default();
    for (index, hash) in hashes.iter().enumerate() {
        by_hash.entry(*hash).or_default().push(index);
    }
    (0..texts.len())
        .into_par_iter()
        .map(|index| {
            by_hash[&hashes[index]]
                .iter()
                .take_while(|earlier| **earlier < index)
                .all(|&earlier| kept[earlier] != kept[index])
        })
        .collect()
}

/// A document's text without its document marker line and its top-level
/// `metadata:` block (the first one, where a broken document has two): the
/// text before the block and the text after it.
fn without_metadata(text: &str) -> [&str; 2] {
    let start = if text.starts_with("---") {
        text.find('\n').map_or(text.len(), |newline| newline + 1)
    } else {
        0
    };
    let text = &text[start..];
    let metadata = if text.starts_with("metadata:") {
        Some(0)
    } else {
        memchr::memmem::find(text.as_bytes(), b"\nmetadata:").map(|newline| newline + 1)
    };
    let Some(metadata) = metadata else {
        return [text, ""];
    };
    // The block ends at the next line that starts with content: a
    // top-level key (not an indented line, a comment, a blank line or an
    // indentless list item).
    let end = memchr::memchr_iter(b'\n', &text.as_bytes()[metadata..])
        .map(|newline| metadata + newline + 1)
        .find(|&line| {
            text.as_bytes()
                .get(line)
                .is_none_or(|first| !matches!(first, b' ' | b'#' | b'\n' | b'-'))
        })
        .unwrap_or(text.len());
    [&text[..metadata], &text[end..]]
}

/// Warns of the rules of the `--crd` file `name` (its `text`) over the API
/// server's estimated cost limits: the CRD is on the cluster already, but
/// the API server would refuse it as it is.
fn warn_over_cost(name: &str, text: &str) {
    for doc in vergate::document::parse(text).documents {
        let found = crd_cost::of_crd(&doc.root, vergate::preflight::Severity::Warning);
        for violation in found {
            eprintln!(
                "warning: --crd: {name}:{}: {}: {}",
                violation.line, violation.path, violation.message
            );
        }
    }
}

/// The gates of the CRDs' custom resources, present in each of `versions`
/// (ascending, not empty) of the API `api`.
fn custom_resource_index(
    api: &str,
    versions: &[Version],
    documents: &[(PathBuf, Document)],
) -> Result<vergate::gates::GatesIndex, vergate_codegen::Error> {
    let mut loaded = build_minor(versions[0], documents)?;
    Dialect::CustomResources.mark(&mut loaded.model);
    for warning in &loaded.warnings {
        eprintln!("{warning}");
    }
    let minors = versions
        .iter()
        .map(|version| {
            let mut minor = loaded.model.clone();
            minor.version = *version;
            minor
        })
        .collect();
    let model = GatedModel::merge_as(
        api,
        vergate_codegen::model::Dialect::CustomResources,
        minors,
    )?;
    Ok(model.gates_index())
}

#[cfg(test)]
mod tests {
    use super::{first_copies, without_metadata};

    #[test]
    fn copies_that_differ_only_in_metadata_are_one_crd() {
        let crd = |name: &str, group: &str| {
            format!(
                "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\n  labels:\n    a: b\nspec:\n  group: {group}\n"
            )
        };
        let texts = [
            crd("widgets.example.com", "example.com"),
            crd("widgets.example.com-copy", "example.com"),
            crd("widgets.example.com", "example.org"),
            crd("widgets.example.com-copy", "example.org"),
            crd("gadgets.example.com", "example.com"),
        ];
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(first_copies(&texts), [true, false, true, false, false]);
        let kept = without_metadata(texts[0]).concat();
        assert_eq!(
            kept,
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: example.com\n"
        );
        assert_eq!(without_metadata("metadata:\n  name: x\n"), ["", ""]);
        assert_eq!(without_metadata("a: 1\n"), ["a: 1\n", ""]);
    }
}
