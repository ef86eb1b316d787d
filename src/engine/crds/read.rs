//! CRD texts read into the loader's documents, by the reader `check`
//! reads documents with (the same YAML 1.1 values, the fast path).

use super::copies::first_copies;
use super::refused::{self, RefusedCrd};
use crate::cel::crd_cost;
use crate::document;
use crate::engine::InputError;
use crate::preflight::Deviation;
use rayon::prelude::*;
use std::path::Path;
use vergate_codegen::load::{crds_from_documents, holds_crd, Document};
use vergate_core::gates::CRD_KIND;

/// True when `text` names [`CRD_KIND`] anywhere: a vectorised search, built
/// once (each input, and each part of it, is searched).
pub(super) fn names_crd_kind(text: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(CRD_KIND));
    FINDER.find(text.as_bytes()).is_some()
}

/// True when `text` holds CEL rules: a CRD without any is not costed.
fn names_rules(text: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("x-kubernetes-validations"));
    FINDER.find(text.as_bytes()).is_some()
}

/// The CRDs of a file given as CRDs (`name`, read from `path`), and the
/// findings of its rules over the API server's estimated cost limits
/// (the CRD may be on the cluster already, created by an older API
/// server, but the target's would refuse it as it is), as warnings at
/// their lines. The CRDs the API server refuses on create (by their
/// schemas) are added to `refusals`.
pub(super) fn given(
    name: &str,
    path: &Path,
    text: &str,
    over_cost: &mut Vec<InputError>,
    refusals: &mut Vec<RefusedCrd>,
) -> Result<Document, String> {
    let documents = read_json(path, &document::split(text), 0)?;
    refusals.extend(
        documents
            .iter()
            .filter_map(|(_, doc)| refused::by_schema(doc)),
    );
    // Only a CRD over a limit is read again, for its lines.
    if names_rules(text) && documents.iter().any(|(_, doc)| crd_cost::over_limits(doc)) {
        for doc in document::parse(text).documents {
            // A CRD given with --crd is on the cluster already (created
            // before its cost was over a limit, which the server ratchets):
            // its resources are served and checked, and its cost is a
            // warning, not a refusal of them.
            let found = crd_cost::of_crd(&doc.root);
            over_cost.extend(
                found
                    .into_iter()
                    .map(|violation| violation.deviating(Deviation::CrdOnCluster))
                    .map(|violation| InputError {
                        file: name.to_owned(),
                        line: violation.line,
                        message: format!("{}: {}", violation.path, violation.message),
                    }),
            );
        }
    }
    crds_from_documents(path, documents).map_err(|err| err.to_string())
}

/// A CRD document read: its CRDs with those the API server refuses on
/// create (by their schemas or their rules' cost), or why it does not read.
pub(super) type Read = Result<(Document, Vec<RefusedCrd>), String>;

/// The CRDs of `parts` (of the file at `path`, among the inputs), in
/// parallel, with those the API server refuses on create (by their
/// schemas or their rules' cost). A YAML error in a part is the error.
fn read_parts(path: &Path, parts: &[document::Part<'_>], first_index: usize) -> Read {
    let documents = read_json(path, parts, first_index)?;
    // Created with the run: its rules' cost refuses it too.
    let has_rules = parts.iter().any(|part| names_rules(part.text()));
    let refusals = documents
        .iter()
        .filter_map(|(_, doc)| super::cost::on_create(doc, has_rules))
        .collect();
    let read = crds_from_documents(path, documents).map_err(|err| err.to_string())?;
    Ok((read, refusals))
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
/// CRDs (with those the API server refuses by their schemas) or why it
/// does not read. A copy of an earlier CRD document (`super::copies`) is
/// read once.
pub(super) fn crd_parts(
    path: &Path,
    parts: &[document::Part<'_>],
) -> Vec<(std::ops::Range<u32>, Read)> {
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
            !matches!(read, Ok((document, _)) if document.crds.is_empty())
        })
        .collect()
}
