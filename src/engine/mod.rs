//! The check engine as a library: everything `vergate check` decides for
//! a document, behind one entry point.
//!
//! ```no_run
//! use vergate::engine::{CrdText, Validator};
//!
//! let crd = std::fs::read_to_string("crd.yaml").unwrap();
//! let (validator, errors) = Validator::kubernetes()
//!     .target("1.33".parse::<vergate::Version>().unwrap())
//!     .with_crds(&[CrdText { file: "crd.yaml", text: &crd }]);
//! assert!(errors.is_empty());
//! let report = validator.check_text("widget.yaml", "apiVersion: example.com/v1\nkind: Widget\n");
//! for finding in &report.findings {
//!     println!("{}: {}", finding.violation.line, finding.violation.message);
//! }
//! ```
//!
//! - [`Validator`]: built once from an API's gate tables ([`Validator::new`],
//!   [`Validator::kubernetes`]), a target minor ([`Validator::target`]),
//!   [`CheckOptions`] ([`Validator::options`]) and CRDs
//!   ([`Validator::with_crds`], or a [`CrdLoader`] through
//!   [`Validator::with_crd_loader`]); `Send + Sync`, shared by reference
//!   or in an `Arc`.
//! - [`Validator::check_text`] checks one file's documents into a
//!   [`FileReport`]: [`Finding`]s with their byte spans, [`InputError`]s
//!   and [`Skipped`] documents. [`Validator::check_document`] checks one
//!   document already read into a [`DocumentReport`] (the CLI reads its
//!   inputs in parallel parts and calls it).
//! - Per document (`document`): kinds rejected and skipped, what only a
//!   CRD knows (a CRD left out, a version not served), preflight, the CRD
//!   document's own rules, the junctors and CEL rules of its CRD, each
//!   rule's findings per resource capped (`crate::findings`), then the
//!   options' rule levels.
//! - `crds`: CRD texts read by the code generator's loader into gates
//!   that join the tables, with their rules and junctors.
//! - [`Resource`]: which resource (a document, a `List` item) a finding
//!   is about.

pub(crate) mod crds;
mod document;
mod options;
mod report;
mod resource;
mod span;
mod text;

pub use crds::{CrdLoader, CrdReport};
pub use options::CheckOptions;
pub use report::{
    CelCounts, Disposition, DocumentReport, FileReport, Finding, InputError, Skipped,
};
pub use resource::Resource;
pub use text::{is_go_template, TEMPLATE};

use crate::tables::GateTables;
use crate::Version;
use crds::CustomResources;

/// Everything `vergate check` decides for a document, as a library: an
/// API's gate tables, the CRDs in use, the target minor and the options.
pub struct Validator {
    tables: GateTables,
    custom: CustomResources,
    target: Option<Version>,
    options: CheckOptions,
}

/// A file's text that may hold CRDs: every CRD document in it is used,
/// other documents are ignored.
#[derive(Clone, Copy, Debug)]
pub struct CrdText<'a> {
    /// Its name in messages (and the path the CRD loader names).
    pub file: &'a str,
    pub text: &'a str,
}

impl Validator {
    /// A validator over an API's gate tables, no CRDs, each document
    /// checked against its own minor, default options.
    pub fn new(tables: GateTables) -> Validator {
        Validator {
            tables,
            custom: CustomResources::default(),
            target: None,
            options: CheckOptions::default(),
        }
    }

    /// A validator over the embedded Kubernetes index.
    pub fn kubernetes() -> Validator {
        Validator::new(crate::embedded::kubernetes())
    }

    /// Checks every document against `minor` (`None`: each document's own
    /// minor, which a Kubernetes document does not carry). Set it before
    /// the CRDs: they are then built for that minor alone.
    pub fn target(mut self, minor: impl Into<Option<Version>>) -> Validator {
        self.target = minor.into();
        self
    }

    /// Sets the options.
    pub fn options(mut self, options: CheckOptions) -> Validator {
        self.options = options;
        self
    }

    /// Adds the CRDs of `crds` (each text any number of documents; the
    /// CRDs among them are used, the others ignored). Returns what could
    /// not be used: a text without a CRD, a CRD that does not read or
    /// whose schema does not convert, two different CRDs of one name.
    pub fn with_crds(self, crds: &[CrdText<'_>]) -> (Validator, Vec<InputError>) {
        let mut loader = CrdLoader::new();
        for crd in crds {
            loader.given(crd.file, std::path::Path::new(crd.file), crd.text, true);
        }
        let (validator, report) = self.with_crd_loader(loader);
        (validator, report.errors)
    }

    /// Adds the CRDs a [`CrdLoader`] gathered (files given as CRDs, and
    /// inputs whose CRD documents are used), and says what it found.
    pub fn with_crd_loader(mut self, loader: CrdLoader<'_>) -> (Validator, CrdReport) {
        // With a target, custom resources are checked against it alone:
        // the model of one minor is enough (and merging nine copies of a
        // 1 MB CRD is not free).
        let versions = match self.target {
            Some(target) => vec![target],
            None => self.tables.versions().to_vec(),
        };
        let report = loader.load(&mut self.tables, &versions, &mut self.custom);
        (self, report)
    }

    /// The gate tables, the CRDs' custom resources among them.
    pub fn tables(&self) -> &GateTables {
        &self.tables
    }

    /// The target minor, if one is set.
    pub fn target_minor(&self) -> Option<Version> {
        self.target
    }

    /// The options.
    pub fn check_options(&self) -> &CheckOptions {
        &self.options
    }
}

#[cfg(test)]
mod tests {
    use super::Validator;

    #[test]
    fn a_validator_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Validator>();
    }
}
