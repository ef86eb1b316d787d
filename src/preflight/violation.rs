//! What preflight reports: one [`Violation`] per problem, with its path and line.

use serde::Serialize;
use std::fmt;

/// How bad a violation is: errors fail `vergate check`, warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// The kind of problem; its [`Rule::id`] is the SARIF rule id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// A field the target minor does not have yet.
    NotYetIntroduced,
    /// A field the target minor no longer has.
    Removed,
    /// A field absent in the target minor although present before and after.
    NotInMinor,
    /// An enum value the target minor does not accept.
    ValueNotAvailable,
    /// The document's apiVersion/kind is not served in the target minor.
    KindNotServed,
    /// A kind the API does not know.
    UnknownKind,
    /// A field the type does not have in any minor.
    UnknownField,
    /// A value of the wrong shape (a list where a mapping is expected, …).
    WrongType,
    /// A field the target minor requires is missing or null.
    MissingRequired,
    /// A field or enum value deprecated in the target minor.
    Deprecated,
    /// The document says it is written for another minor than the target.
    VersionMismatch,
    /// A kind the user refuses outright (`vergate check --reject KIND`).
    RejectedKind,
    /// The apiVersion/kind is served in the target but removed in a later
    /// minor the gates know (pluto's and kubent's warning).
    RemovedAhead,
    /// A value that breaks a constraint of its schema (`pattern`,
    /// `maxLength`, `minimum`, …).
    Constraint,
    /// A field whose feature gate is off at the target (alpha by default,
    /// or set off): the API server drops it.
    FeatureGateOff,
    /// A CustomResourceDefinition among the inputs that is left out: it
    /// does not read, or another CRD of its name says otherwise.
    CrdNotUsed,
    /// A custom resource that fails a CEL validation rule of its CRD
    /// (`x-kubernetes-validations`), or a rule vergate could not evaluate.
    CelRule,
}

impl Rule {
    /// Every rule, for SARIF's rule table.
    pub const ALL: [Rule; 17] = [
        Rule::NotYetIntroduced,
        Rule::Removed,
        Rule::NotInMinor,
        Rule::ValueNotAvailable,
        Rule::KindNotServed,
        Rule::UnknownKind,
        Rule::UnknownField,
        Rule::WrongType,
        Rule::MissingRequired,
        Rule::Deprecated,
        Rule::VersionMismatch,
        Rule::RejectedKind,
        Rule::RemovedAhead,
        Rule::Constraint,
        Rule::FeatureGateOff,
        Rule::CrdNotUsed,
        Rule::CelRule,
    ];

    /// The stable id (`not-yet-introduced`).
    pub fn id(self) -> &'static str {
        match self {
            Rule::NotYetIntroduced => "not-yet-introduced",
            Rule::Removed => "removed",
            Rule::NotInMinor => "not-in-minor",
            Rule::ValueNotAvailable => "value-not-available",
            Rule::KindNotServed => "kind-not-served",
            Rule::UnknownKind => "unknown-kind",
            Rule::UnknownField => "unknown-field",
            Rule::WrongType => "wrong-type",
            Rule::MissingRequired => "missing-required",
            Rule::Deprecated => "deprecated",
            Rule::VersionMismatch => "version-mismatch",
            Rule::RejectedKind => "rejected-kind",
            Rule::RemovedAhead => "removed-ahead",
            Rule::Constraint => "constraint",
            Rule::FeatureGateOff => "feature-gate-off",
            Rule::CrdNotUsed => "crd-not-used",
            Rule::CelRule => "cel-rule",
        }
    }

    /// One sentence on the rule.
    pub fn description(self) -> &'static str {
        match self {
            Rule::NotYetIntroduced => "The field is introduced in a later minor than the target.",
            Rule::Removed => "The field was removed before the target minor.",
            Rule::NotInMinor => "The field is absent in the target minor.",
            Rule::ValueNotAvailable => "The enum value is not accepted in the target minor.",
            Rule::KindNotServed => "The apiVersion and kind are not served in the target minor.",
            Rule::UnknownKind => "The API has no such kind.",
            Rule::UnknownField => "The type has no such field in any minor (strict mode).",
            Rule::WrongType => "The value has the wrong shape for the field's type.",
            Rule::MissingRequired => "A field required in the target minor is missing or null.",
            Rule::Deprecated => {
                "The field, enum value or apiVersion/kind is deprecated in the target minor."
            }
            Rule::VersionMismatch => "The document is written for another minor than the target.",
            Rule::RejectedKind => "The kind is refused by --reject.",
            Rule::RemovedAhead => {
                "The apiVersion and kind are served in the target but removed in a later minor."
            }
            Rule::Constraint => {
                "The value breaks a constraint of its schema (pattern, length, bounds, …)."
            }
            Rule::FeatureGateOff => {
                "The field's feature gate is off at the target (by default: alpha, or beta and off): the API server drops it."
            }
            Rule::CrdNotUsed => {
                "A CustomResourceDefinition among the inputs is left out: it does not read, or another of its name differs."
            }
            Rule::CelRule => {
                "The custom resource fails a CEL validation rule of its CRD (x-kubernetes-validations), or a rule could not be evaluated."
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One problem in one document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub severity: Severity,
    pub rule: Rule,
    /// The dotted path (`spec.ports[0].name`); empty for the document itself.
    pub path: String,
    /// The 1-based line of the offending key (0 when unknown).
    pub line: u32,
    /// What is wrong and what the target accepts (`not available in 1.29
    /// (introduced in 1.30)`).
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}
