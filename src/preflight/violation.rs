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

impl Severity {
    /// True for an error: it fails `check`.
    pub fn is_error(self) -> bool {
        self == Severity::Error
    }
}

/// Each severity with its name (`error`, `warning`), as every report
/// format writes it and `--rule ID=LEVEL` reads it.
const SEVERITY_NAMES: [(Severity, &str); 2] =
    [(Severity::Warning, "warning"), (Severity::Error, "error")];

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (_, name) = SEVERITY_NAMES
            .iter()
            .find(|(severity, _)| severity == self)
            .expect("every severity has a name");
        f.write_str(name)
    }
}

impl std::str::FromStr for Severity {
    type Err = ();

    /// `error` or `warning`.
    fn from_str(text: &str) -> Result<Severity, ()> {
        SEVERITY_NAMES
            .iter()
            .find(|(_, name)| *name == text)
            .map(|(severity, _)| *severity)
            .ok_or(())
    }
}

/// Declares every check rule once: its variant with doc comment, its stable
/// id (the SARIF rule id, JSON's `rule`, `--rule ID=…`), the severity it has
/// by default, and one sentence for SARIF's rule table. docs/cli.md's rules
/// table lists the same ids in the same order (tests/cli_rules.rs).
///
/// To add a rule: add a line here, report it where `check` finds it (a
/// [`Violation`] with the new [`Rule`]), add its row to docs/cli.md's table
/// and a CLI test that makes it fire.
macro_rules! rules {
    ($($(#[doc = $doc:literal])* $variant:ident = $id:literal, $severity:ident, $description:literal;)*) => {
        /// The kind of problem; its [`Rule::id`] is the SARIF rule id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in the order of docs/cli.md's table.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable id (`not-yet-introduced`).
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// The severity the rule has unless a flag or the situation
            /// says otherwise (docs/cli.md's table says when).
            pub fn default_severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)*
                }
            }

            /// One sentence on the rule.
            pub fn description(self) -> &'static str {
                match self {
                    $(Rule::$variant => $description,)*
                }
            }
        }
    };
}

rules! {
    /// A field the target minor does not have yet.
    NotYetIntroduced = "not-yet-introduced", Error,
        "The field is introduced in a later minor than the target.";
    /// A field the target minor no longer has.
    Removed = "removed", Error,
        "The field was removed before the target minor.";
    /// A field absent in the target minor although present before and after.
    NotInMinor = "not-in-minor", Error,
        "The field is absent in the target minor.";
    /// An enum value the target minor does not accept.
    ValueNotAvailable = "value-not-available", Error,
        "The enum value is not accepted in the target minor.";
    /// The document's apiVersion/kind is not served in the target minor.
    KindNotServed = "kind-not-served", Error,
        "The apiVersion and kind are not served in the target minor.";
    /// A kind the API does not know.
    UnknownKind = "unknown-kind", Error,
        "The API has no such kind.";
    /// A field the type does not have in any minor.
    UnknownField = "unknown-field", Error,
        "The type has no such field in any minor (a warning with --validate=warn, as the API server's default).";
    /// A key written twice in one mapping: kubectl sends the last value
    /// alone, so the API server accepts what the first one said in vain.
    DuplicateKey = "duplicate-key", Warning,
        "A key is written twice in one mapping: kubectl sends only the last value (an error with --strict).";
    /// A value of the wrong shape (a list where a mapping is expected, …).
    WrongType = "wrong-type", Error,
        "The value has the wrong shape for the field's type.";
    /// A field the target minor requires is missing or null.
    MissingRequired = "missing-required", Error,
        "A field required in the target minor is missing or null.";
    /// A field or enum value deprecated in the target minor.
    Deprecated = "deprecated", Warning,
        "The field, enum value or apiVersion/kind is deprecated in the target minor.";
    /// The document says it is written for another minor than the target.
    VersionMismatch = "version-mismatch", Warning,
        "The document is written for another minor than the target.";
    /// A kind the user refuses outright (`vergate check --reject KIND`).
    RejectedKind = "rejected-kind", Error,
        "The kind is refused by --reject.";
    /// The apiVersion/kind is served in the target but removed in a later
    /// minor the gates know (pluto's and kubent's warning).
    RemovedAhead = "removed-ahead", Warning,
        "The apiVersion and kind are served in the target but removed in a later minor.";
    /// A value that breaks a constraint of its schema (`pattern`,
    /// `maxLength`, `minimum`, …).
    Constraint = "constraint", Error,
        "The value breaks a constraint of its schema (pattern, length, bounds, …).";
    /// A field whose feature gate is off at the target (alpha by default,
    /// or set off): the API server drops it.
    FeatureGateOff = "feature-gate-off", Warning,
        "The field's feature gate is off at the target (by default: alpha, or beta and off): the API server drops it.";
    /// A CustomResourceDefinition among the inputs that is left out: it
    /// does not read, or another CRD of its name says otherwise.
    CrdNotUsed = "crd-not-used", Warning,
        "A CustomResourceDefinition among the inputs is left out: it does not read, or another of its name differs.";
    /// A rule the API server applies over several fields of one object
    /// (port names unique, exactly one probe handler): the refinements
    /// overlay's `[[rules]]`.
    CrossField = "cross-field", Error,
        "The object breaks a rule the API server applies over several of its fields (unique port names, exactly one handler).";
    /// A check of the API server's Go validation that no schema states (a
    /// selector matching its template's labels, a `Recreate` strategy
    /// without `rollingUpdate`, a container's image): `go_validation.rs`.
    ServerValidation = "server-validation", Error,
        "The object breaks a check of the API server's own validation (selector and template labels, strategy, container image, seccomp profile).";
    /// Metadata the API server refuses on create: a name or generateName
    /// against its kind's rule (DNS-1123 subdomain, label, DNS-1035 label,
    /// path segment), no name, label keys and values, annotation keys and
    /// their total size.
    ObjectMeta = "object-meta", Error,
        "The metadata breaks the API server's rules: the kind's name rule, a required name, label keys and values, annotation keys and size.";
    /// A custom resource's string that is not of the `format` its CRD
    /// declares (`ipv4`, `uri`, `date-time`, …), as the API server
    /// validates it.
    Format = "format", Error,
        "A custom resource's string is not of the format its CRD declares (ipv4, uri, date-time, …).";
    /// A custom resource that fails a logical junctor of its CRD's schema
    /// (`allOf`, `anyOf`, `oneOf`, `not`), in the API server's words.
    Junctor = "junctor", Error,
        "The custom resource fails an allOf, anyOf, oneOf or not of its CRD's schema.";
    /// A custom resource that fails a CEL validation rule of its CRD
    /// (`x-kubernetes-validations`), or a rule vergate could not evaluate.
    CelRule = "cel-rule", Error,
        "The custom resource fails a CEL validation rule of its CRD (x-kubernetes-validations), or a rule could not be evaluated.";
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Why a finding's severity is not its rule's default severity: each
/// reason once, with the severity it gives. A site that reports a finding
/// at another severity than its rule's names one of these
/// ([`Violation::deviating`]); every other finding is built from its rule
/// alone ([`Violation::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deviation {
    /// What the API server accepts with a warning (a field whose feature
    /// gate is off, a value only a later spec lists): a warning, an error
    /// with `--strict` (`strict`).
    AcceptedWithWarning { strict: bool },
    /// `--validate=warn`: an unknown field is a warning, as the API
    /// server's own default.
    FieldValidationWarn,
    /// What vergate did not check (a constraint it cannot evaluate, a
    /// union or junctor past its bound, a CEL rule not run): the value
    /// is accepted, and a warning says so; never a failure.
    NotChecked,
    /// A cost finding of a CRD given with `--crd`: the CRD is on the
    /// cluster already, so its rules' cost is a warning, not a refusal.
    CrdOnCluster,
    /// What the API server accepts and warns about in its response (a
    /// Pod's name that is no DNS label): a warning in its words, whatever
    /// the strictness, as the server's answer is the same.
    ServerWarning,
}

impl Deviation {
    /// The severity the finding has instead of its rule's default.
    pub fn severity(self) -> Severity {
        match self {
            Deviation::AcceptedWithWarning { strict: true } => Severity::Error,
            Deviation::AcceptedWithWarning { strict: false }
            | Deviation::FieldValidationWarn
            | Deviation::NotChecked
            | Deviation::CrdOnCluster
            | Deviation::ServerWarning => Severity::Warning,
        }
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

impl Violation {
    /// A finding of `rule` at its default severity.
    pub fn new(rule: Rule, path: impl Into<String>, line: u32, message: String) -> Violation {
        Violation {
            severity: rule.default_severity(),
            rule,
            path: path.into(),
            line,
            message,
        }
    }

    /// The finding at the severity `deviation` gives, not its rule's.
    pub fn deviating(self, deviation: Deviation) -> Violation {
        Violation {
            severity: deviation.severity(),
            ..self
        }
    }

    /// The finding at its rule's severity, or `deviation`'s when there is one.
    pub fn deviating_if(self, deviation: Option<Deviation>) -> Violation {
        match deviation {
            Some(deviation) => self.deviating(deviation),
            None => self,
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.severity.is_error() {
            f.write_str("warning: ")?;
        }
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}
