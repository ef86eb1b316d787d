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
use super::Outcome;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use vergate::document::{self, Node};
use vergate::tables::GateTables;
use vergate::Version;
use vergate_codegen::load::{build_minor, crds_from_documents, holds_crd, CrdVersions, Document};
use vergate_codegen::model::GatedModel;

/// The kind of a CustomResourceDefinition.
const CRD_KIND: &str = "CustomResourceDefinition";

/// True when `text` names [`CRD_KIND`] anywhere: a vectorised search, built
/// once (each input, and each part of it, is searched).
fn names_crd_kind(text: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(CRD_KIND));
    FINDER.find(text.as_bytes()).is_some()
}

/// The CRDs in use, for what the gate tables cannot say.
#[derive(Default)]
pub struct CustomResources {
    crds: Vec<CrdVersions>,
}

impl CustomResources {
    /// When `root` is a custom resource of a version its CRD lists but does
    /// not serve: the line of its apiVersion and the message naming the
    /// served versions.
    pub fn unserved(&self, root: &Node) -> Option<(u32, String)> {
        let api_version = root.get("apiVersion")?;
        let kind = root.get("kind")?.as_str()?;
        let (group, version) = api_version.as_str()?.rsplit_once('/')?;
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

/// What one input held for [`load`].
enum Found {
    Crds(PathBuf, Document),
    /// A CRD that cannot be read: why.
    Unusable(String),
    Nothing,
}

/// Extends `tables` with the custom resources of the CRDs in `crd_paths`
/// (files, or directories searched for them) and those among `sources`
/// (read into `texts`, cut into `parts`).
/// An unreadable or malformed CRD given with `--crd` is an input error
/// (said on stderr); one found among the inputs is noted and left out.
pub fn load(
    tables: GateTables,
    target: Option<Version>,
    crd_paths: &[PathBuf],
    sources: &[Source],
    texts: &[Result<Text, ReadError>],
    parts: &[Vec<document::Part<'_>>],
) -> Result<(GateTables, CustomResources), Outcome> {
    let mut documents: Vec<(PathBuf, Document)> = Vec::new();
    let mut seen = HashSet::new();
    let (given, notes) = inputs::sources(crd_paths, &WalkOptions::default());
    for note in notes {
        eprintln!("warning: --crd: {note}");
    }
    for source in &given {
        let Some(path) = source.path() else {
            // A walk error, or `-`: standard input holds documents, not CRDs.
            let message = source.read().err().map_or(
                "--crd takes files and directories, not standard input".into(),
                |err| err.message,
            );
            eprintln!("error: --crd {}: {message}", source.name);
            return Err(Outcome::InputError);
        };
        seen.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()));
        let text = source.read().map_err(|err| {
            eprintln!("{}: error: --crd: {}", source.name, err.message);
            Outcome::InputError
        })?;
        if !names_crd_kind(&text) {
            if source.walked {
                continue;
            }
            eprintln!(
                "{}: error: --crd: no CustomResourceDefinition in it; name CRD files or directories holding them",
                source.name
            );
            return Err(Outcome::InputError);
        }
        match read_parts(path, &document::split(&text), Parts::All) {
            Ok(document) => documents.push((path.to_owned(), document)),
            Err(err) => {
                eprintln!("error: --crd: {err}");
                return Err(Outcome::InputError);
            }
        }
    }
    // The inputs' parts are searched for CRDs in parallel.
    let scanned: Vec<Option<Found>> = sources
        .par_iter()
        .zip(texts)
        .zip(parts)
        .map(|((source, text), parts)| {
            let path = match source.path() {
                Some(path) => {
                    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
                    if seen.contains(&key) {
                        return None;
                    }
                    path
                }
                None if source.is_stdin() => Path::new(&source.name),
                None => return None,
            };
            let text = text.as_ref().ok()?;
            if !names_crd_kind(text) {
                return None;
            }
            Some(match read_parts(path, parts, Parts::HoldingCrds) {
                Ok(document) => Found::Crds(path.to_owned(), document),
                // A document that only mentions CRDs, or YAML the check
                // itself reports; a CRD that cannot be read is said once.
                Err(err) if text.contains("kind: CustomResourceDefinition") => Found::Unusable(err),
                Err(_) => Found::Nothing,
            })
        })
        .collect();
    for found in scanned.into_iter().flatten() {
        match found {
            Found::Crds(path, document) => documents.push((path, document)),
            Found::Unusable(err) => {
                eprintln!("warning: a CRD among the inputs is not used: {err}");
            }
            Found::Nothing => {}
        }
    }
    if documents.is_empty() {
        return Ok((tables, CustomResources::default()));
    }
    let crds = documents
        .iter()
        .flat_map(|(_, document)| document.crds.iter().cloned())
        .collect();
    // With a target, custom resources are checked against it alone: the
    // model of one minor is enough (and merging nine copies of a 1 MB CRD
    // is not free).
    let versions = match target {
        Some(target) => vec![target],
        None => tables.versions().to_vec(),
    };
    let index = custom_resource_index(tables.api(), &versions, &documents)?;
    let mut tables = tables;
    for (name, ty) in index.types {
        // The built-in ObjectMeta gives way to the API's own.
        let built_in = name.starts_with("io.k8s.apimachinery.pkg.apis.meta.v1.");
        if built_in && tables.contains(&name) {
            continue;
        }
        tables.insert_custom(name, ty);
    }
    Ok((tables, CustomResources { crds }))
}

/// Which parts of a file [`read_parts`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parts {
    /// Every part (a file given with `--crd`).
    All,
    /// Only the parts with a top-level `kind: CustomResourceDefinition`
    /// line (an input, mostly other manifests).
    HoldingCrds,
}

/// The CRDs of `parts` (of the file at `path`), read by the reader `check`
/// reads documents with (the same YAML 1.1 values, the fast path), in
/// parallel. A YAML error in a part read is the error. Among the inputs
/// (`Parts::HoldingCrds`), a CRD written again with only its `metadata`
/// changed (the same chart rendered twice, a copy under another name)
/// defines nothing new and is read once.
fn read_parts(path: &Path, parts: &[document::Part<'_>], which: Parts) -> Result<Document, String> {
    // Which parts hold a CRD is looked at in parallel, and so is which of
    // those are copies of an earlier one.
    let holding: Vec<(usize, &document::Part<'_>)> = parts
        .par_iter()
        .enumerate()
        .filter(|(_, part)| match which {
            Parts::All => true,
            Parts::HoldingCrds => {
                part.is_whole() || names_crd_kind(part.text()) && holds_crd(part.text().as_bytes())
            }
        })
        .collect();
    let chosen: Vec<(usize, &document::Part<'_>)> = match which {
        Parts::All => holding,
        Parts::HoldingCrds => {
            let texts: Vec<&str> = holding.iter().map(|(_, part)| part.text()).collect();
            let firsts = first_copies(&texts);
            holding
                .into_iter()
                .zip(firsts)
                .filter_map(|(part, first)| first.then_some(part))
                .collect()
        }
    };
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
    crds_from_documents(path, documents).map_err(|err| err.to_string())
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

/// The gates of the CRDs' custom resources, present in each of `versions`
/// (ascending, not empty) of the API `api`.
fn custom_resource_index(
    api: &str,
    versions: &[Version],
    documents: &[(PathBuf, Document)],
) -> Result<vergate::gates::GatesIndex, Outcome> {
    let fail = |err: vergate_codegen::Error| {
        eprintln!("error: --crd: {err}");
        Outcome::InputError
    };
    let loaded = build_minor(versions[0], documents).map_err(fail)?;
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
    )
    .map_err(fail)?;
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
