//! [`CrdLoader`]: the CRD texts of a check, gathered, then read and built
//! into the gate tables and the [`CustomResources`] at once.

use super::index::{usable_index, Candidate, Origin};
use super::read::{self, names_crd_kind};
use super::refused::RefusedCrd;
use super::rules::served_schemas;
use super::{CustomResources, Unused};
use crate::document::Part;
use crate::engine::InputError;
use crate::tables::GateTables;
use crate::Version;
use rayon::prelude::*;
use std::path::Path;
use vergate_codegen::model::kubernetes;

/// The CRDs of a check: files given as CRDs (`--crd`), read at once, and
/// inputs whose CRD documents are used (searched when the loader is
/// built, in parallel). Nothing here stops a check: a given file that
/// cannot be used is an input error, a CRD among the inputs that does not
/// read (or that differs from another of its name) is left out and
/// reported at its document; every other document is still checked.
#[derive(Default)]
pub struct CrdLoader<'a> {
    candidates: Vec<Candidate>,
    errors: Vec<InputError>,
    over_cost: Vec<InputError>,
    /// The CRDs read that the API server refuses on create.
    refused: Vec<RefusedCrd>,
    inputs: Vec<Input<'a>>,
}

/// An input whose CRD documents are used.
struct Input<'a> {
    name: &'a str,
    path: &'a Path,
    text: &'a str,
    parts: &'a [Part<'a>],
}

/// A CRD document found among an input's, with where it came from, read
/// or why not.
type Scanned<'a> = (Origin, &'a Path, read::Read);

/// What loading the CRDs found, in the order it was found.
#[derive(Debug, Default)]
pub struct CrdReport {
    /// Given files that cannot be used (the check goes on without them).
    pub errors: Vec<InputError>,
    /// The rules of given CRDs over the API server's estimated cost
    /// limits: `message` is `path: message`.
    pub over_cost: Vec<InputError>,
    /// The CRD reader's warnings (what a schema holds that the model
    /// cannot), as it writes them.
    pub warnings: Vec<String>,
}

impl<'a> CrdLoader<'a> {
    /// No CRDs yet.
    pub fn new() -> CrdLoader<'a> {
        CrdLoader::default()
    }

    /// A file given as CRDs: `name` in messages, read from `path`, its
    /// `text`. Every CRD in it is used, other documents are ignored. A file
    /// without any CRD is an error when `named` (a file named, not found by
    /// walking a directory).
    pub fn given(&mut self, name: &str, path: &Path, text: &str, named: bool) {
        if !names_crd_kind(text) {
            if named {
                self.unreadable(InputError {
                    file: name.to_owned(),
                    line: 0,
                    message: "no CustomResourceDefinition in it; name CRD files or directories holding them"
                        .into(),
                });
            }
            return;
        }
        match read::given(name, path, text, &mut self.over_cost, &mut self.refused) {
            Ok(document) => self.candidates.push(Candidate {
                origin: Origin::Given(name.to_owned()),
                path: path.to_owned(),
                document,
            }),
            Err(message) => self.unreadable(InputError {
                file: name.to_owned(),
                line: 0,
                message,
            }),
        }
    }

    /// A given file that could not be read, reported in its place among
    /// the others.
    pub fn unreadable(&mut self, error: InputError) {
        self.errors.push(error);
    }

    /// An input (`name`, read from `path`; its `text` cut into `parts` by
    /// `document::split`) whose CRD documents are used, each read on its
    /// own; one that does not read is left out and reported at its
    /// document (a `crd-not-used` finding), the other documents ignored.
    pub fn input(&mut self, name: &'a str, path: &'a Path, text: &'a str, parts: &'a [Part<'a>]) {
        self.inputs.push(Input {
            name,
            path,
            text,
            parts,
        });
    }

    /// Reads the inputs' CRDs and extends `tables` with the custom
    /// resources of every CRD that can be used, in each of `versions` of
    /// the API. The rules, junctors and served versions of those CRDs go
    /// into `custom`.
    pub(crate) fn load(
        self,
        tables: &mut GateTables,
        versions: &[Version],
        custom: &mut CustomResources,
    ) -> CrdReport {
        let CrdLoader {
            mut candidates,
            mut errors,
            over_cost,
            refused,
            inputs,
        } = self;
        custom.refused.extend(refused);
        let scanned: Vec<Vec<Scanned>> = inputs
            .par_iter()
            .map(|input| {
                if !names_crd_kind(input.text) {
                    return Vec::new();
                }
                read::crd_parts(input.path, input.parts)
                    .into_iter()
                    .map(|(lines, read)| {
                        (
                            Origin::Input(input.name.to_owned(), lines),
                            input.path,
                            read,
                        )
                    })
                    .collect()
            })
            .collect();
        for (origin, path, read) in scanned.into_iter().flatten() {
            match read {
                Ok((document, refusals)) => {
                    custom.refused.extend(refusals);
                    candidates.push(Candidate {
                        origin,
                        path: path.to_owned(),
                        document,
                    });
                }
                Err(message) => {
                    if let Origin::Input(file, lines) = origin {
                        custom.unused.push(Unused::new(file, lines, None, message));
                    }
                }
            }
        }
        let mut warnings = Vec::new();
        if candidates.is_empty() || versions.is_empty() {
            return CrdReport {
                errors,
                over_cost,
                warnings,
            };
        }
        let (index, used) = usable_index(
            tables.api(),
            versions,
            candidates,
            custom,
            &mut errors,
            &mut warnings,
        );
        custom.crds.extend(
            used.iter()
                .flat_map(|(_, document)| document.crds.iter().cloned()),
        );
        custom.extend_schemas(served_schemas(&used));
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
        CrdReport {
            errors,
            over_cost,
            warnings,
        }
    }
}
