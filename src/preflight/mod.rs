//! Preflight: every reason a target minor would refuse a document, found
//! before anything is sent.
//!
//! A document is identified by its `apiVersion` and `kind`:
//! - Kubernetes style: `apiVersion` is `group/version` (`apps/v1`) or `v1`;
//!   the type is the one whose `kinds` holds that (group, version, kind). The
//!   target minor is required.
//! - Documents that carry their own minor (the demo API: `apiVersion: "1.10"`):
//!   when `apiVersion` is no served group/version but parses as a minor, it is
//!   the document's minor and the type is found by `kind` alone. The target
//!   defaults to that minor; a different explicit target checks the document
//!   against it and warns that the document says otherwise.
//!
//! Then the document is walked through the type expressions of the target's
//! gates; see [`Rule`] for what is reported.

mod ahead;
mod checker;
mod cross_field;
mod feature_gates;
mod field_validation;
mod go_validation;
mod names;
mod object_meta;
mod prepare;
mod server_defaults;
mod violation;

pub use feature_gates::{parse_setting as parse_feature_gate, FeatureGates};
pub use field_validation::FieldValidation;
pub use violation::{Deviation, Rule, Severity, Violation};

use crate::document::{Node, Value};
use crate::gates::GroupVersionKind;
use crate::tables::GateTables;
use crate::Version;
pub(crate) use checker::absent_reason;
use checker::Checker;

/// How to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options<'a> {
    /// The minor to check against; `None` uses the document's own minor.
    pub target: Option<Version>,
    /// Report values and kinds the API does not know at all as errors; a
    /// field whose feature gate is off is then an error, not a warning;
    /// unknown fields are errors whatever `fields` says.
    pub strict: bool,
    /// What a field the type does not have is: an error (`Strict`, the
    /// default, as `kubectl apply`), a warning (`Warn`, the API server's
    /// own default) or nothing (`Ignore`).
    pub fields: FieldValidation,
    /// Feature gates set on the cluster (`None`: every gate at its stage's
    /// default, alpha off).
    pub feature_gates: Option<&'a FeatureGates>,
}

/// What preflight found in one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The minor checked against.
    pub target: Version,
    /// The document's `apiVersion` and `kind`.
    pub api_version: String,
    pub kind: String,
    /// The violations, in document order.
    pub violations: Vec<Violation>,
}

impl Report {
    /// True when no violation is an error.
    pub fn passes(&self) -> bool {
        self.violations
            .iter()
            .all(|violation| !violation.severity.is_error())
    }
}

/// Why a document cannot be checked at all (an input error, not a violation).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DocumentError {
    pub line: u32,
    pub message: String,
}

/// How a document names its type.
pub(crate) struct Identity<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    /// The minor the document says it is written for, if it carries one.
    pub own_minor: Option<Version>,
    /// The type when the document's group/version/kind is known.
    pub type_name: Option<&'a str>,
}

impl<'a> Identity<'a> {
    /// The group and version of its apiVersion (`("", "v1")` for the core
    /// group).
    pub fn group_version(&self) -> (&'a str, &'a str) {
        GroupVersionKind::split_api_version(self.api_version)
    }

    /// Its group (`""` for the core group).
    pub fn group(&self) -> &'a str {
        self.group_version().0
    }

    /// `; use apiVersion networking.k8s.io/v1` (with ` kind K` when the
    /// replacement's kind is another), for a message about this document.
    pub fn use_instead(&self, replacement: &GroupVersionKind) -> String {
        let mut text = format!("; use apiVersion {}", replacement.api_version());
        if replacement.kind != self.kind {
            text.push_str(&format!(" kind {}", replacement.kind));
        }
        text
    }
}

/// Reads `apiVersion` and `kind` and finds the type.
pub(crate) fn identify<'a>(
    tables: &'a GateTables,
    root: &'a Node,
) -> Result<Identity<'a>, DocumentError> {
    if root.as_map().is_none() {
        return Err(DocumentError {
            line: root.line,
            message: format!(
                "the document is {}, not a mapping; each document must be an object with apiVersion and kind",
                root.describe()
            ),
        });
    }
    let field = |name: &str| -> Result<&'a str, DocumentError> {
        match root.get(name) {
            Some(node) => node.as_str().ok_or_else(|| DocumentError {
                line: node.line,
                message: format!("{name} must be a string, found {}", node.describe()),
            }),
            None => Err(DocumentError {
                line: root.line,
                message: format!(
                    "the document has no {name}; every document needs apiVersion and kind"
                ),
            }),
        }
    };
    let api_version = field("apiVersion")?;
    let kind = field("kind")?;
    let (group, version) = GroupVersionKind::split_api_version(api_version);
    if let Some(name) = tables.types_for_gvk(group, version, kind).next() {
        return Ok(Identity {
            api_version,
            kind,
            own_minor: None,
            type_name: Some(name),
        });
    }
    if let Ok(minor) = api_version.parse::<Version>() {
        if !tables.has_version(minor) {
            return Err(DocumentError {
                line: root.get("apiVersion").map_or(root.line, |node| node.line),
                message: format!(
                    "apiVersion {api_version:?}: {} has no minor {minor} (its minors: {})",
                    tables.api(),
                    tables.versions_text()
                ),
            });
        }
        let type_name = tables
            .types_for_kind(kind)
            .iter()
            .find(|(_, name)| tables.ty(name).is_some_and(|t| t.gate.is_present_in(minor)))
            .or_else(|| tables.types_for_kind(kind).first())
            .map(|(_, name)| name.as_str());
        return Ok(Identity {
            api_version,
            kind,
            own_minor: Some(minor),
            type_name,
        });
    }
    Ok(Identity {
        api_version,
        kind,
        own_minor: None,
        type_name: None,
    })
}

/// Checks one document against the gate tables.
///
/// A Kubernetes `v1` `List` (what `kubectl get -o yaml` prints) is checked
/// item by item, with paths below `items[i]`.
pub fn check(tables: &GateTables, root: &Node, options: Options) -> Result<Report, DocumentError> {
    let identity = identify(tables, root)?;
    if identity.type_name.is_none() && identity.api_version == "v1" && identity.kind == "List" {
        if let Some(Value::Seq(items)) = root.get("items").map(|node| &node.value) {
            return check_list(tables, items, options);
        }
    }
    let target = match (options.target, identity.own_minor) {
        (Some(target), _) | (None, Some(target)) => target,
        (None, None) => {
            return Err(DocumentError {
                line: root.line,
                message: format!(
                    "{} {} does not say which minor it is for; pass --target (one of {})",
                    identity.api_version,
                    identity.kind,
                    tables.versions_text()
                ),
            })
        }
    };
    if !tables.has_version(target) {
        return Err(DocumentError {
            line: root.line,
            message: format!(
                "{} has no minor {target} (its minors: {})",
                tables.api(),
                tables.versions_text()
            ),
        });
    }
    let mut walker = Checker::new(tables, target, options.strict);
    walker.feature_gates = options.feature_gates;
    walker.fields = if options.strict {
        FieldValidation::Strict
    } else {
        options.fields
    };
    let api_version_line = root.get("apiVersion").map_or(root.line, |node| node.line);
    if let Some(own) = identity.own_minor.filter(|own| *own != target) {
        let message = if own < target {
            format!("the document is written for {own} but checked against {target}; `vergate upgrade --to {target}` rewrites it")
        } else {
            format!("the document is written for {own} but checked against the older {target}")
        };
        walker.violations.push(Violation::new(
            Rule::VersionMismatch,
            "apiVersion",
            api_version_line,
            message,
        ));
    }
    match identity
        .type_name
        .and_then(|name| Some((name, tables.ty(name)?)))
    {
        Some((name, ty)) if ty.gate.is_present_in(target) => {
            if identity.own_minor.is_none() {
                walker.violations.extend(ahead::warnings(
                    tables,
                    &identity,
                    ty,
                    target,
                    api_version_line,
                ));
            }
            walker.document(root, name);
            let custom = tables.is_custom(name);
            // What the kind's strategy replaces or drops before it
            // validates is not refused.
            if !custom
                && identity.own_minor.is_none()
                && tables.dialect().is_kubernetes_api_server()
            {
                let dropped = prepare::Dropped::of(identity.group(), identity.kind, root, &walker);
                if !dropped.is_empty() {
                    walker
                        .violations
                        .retain(|found| !dropped.covers(&found.path, found.rule));
                }
            }
            if identity.own_minor.is_none()
                && (custom || tables.dialect().is_kubernetes_api_server())
            {
                let kind = object_meta::Kind {
                    group: identity.group(),
                    kind: identity.kind,
                    custom,
                };
                walker.violations.extend(object_meta::check(
                    tables,
                    &kind,
                    root,
                    target,
                    options.feature_gates,
                ));
            }
        }
        Some((_, ty)) => {
            let (_, reason) = checker::absent_reason(&ty.gate, target, None);
            let message = kind_message(tables, &identity, target, Some(&reason));
            walker.violations.push(Violation::new(
                Rule::KindNotServed,
                "",
                api_version_line,
                message,
            ));
        }
        // A kind the API served before its first minor, or one it serves
        // under another apiVersion of a group it serves; a custom resource
        // named like a built-in (Knative's serving.knative.dev/v1 Service)
        // is neither.
        None if retired(tables, &identity).is_some()
            || !tables.types_for_kind(identity.kind).is_empty()
                && (identity.own_minor.is_some() || tables.is_own_group(identity.group())) =>
        {
            let message = match retired(tables, &identity) {
                Some(retired) => retired_message(&identity, retired, target),
                None => kind_message(tables, &identity, target, None),
            };
            walker.violations.push(Violation::new(
                Rule::KindNotServed,
                "",
                api_version_line,
                message,
            ));
        }
        None => walker
            .violations
            .push(unknown_kind(tables, &identity, root, target)),
    }
    let mut violations = walker.violations;
    violations.sort_by_key(|violation| violation.line);
    Ok(Report {
        target,
        api_version: identity.api_version.to_owned(),
        kind: identity.kind.to_owned(),
        violations,
    })
}

/// `extensions/v1beta1 Ingress is not served in 1.34 (removed in 1.22);
/// use apiVersion networking.k8s.io/v1`, from the kind's published lifecycle.
fn retired_message(
    identity: &Identity,
    retired: &crate::gates::RetiredKind,
    target: Version,
) -> String {
    let mut message = format!(
        "{} {} is not served in {target}",
        identity.api_version, identity.kind
    );
    if let Some(removed) = retired.lifecycle.removed {
        message.push_str(&format!(" (removed in {removed})"));
    }
    if let Some(replacement) = &retired.lifecycle.replacement {
        message.push_str(&identity.use_instead(replacement));
    }
    message
}

/// The kind the API served before its first minor that the document is,
/// if it is one.
pub(crate) fn retired<'t>(
    tables: &'t GateTables,
    identity: &Identity,
) -> Option<&'t crate::gates::RetiredKind> {
    if identity.own_minor.is_some() {
        return None;
    }
    let (group, version) = identity.group_version();
    tables.retired_kind(group, version, identity.kind)
}

/// Checks each item of a `v1` `List`.
fn check_list(
    tables: &GateTables,
    items: &[Node],
    options: Options,
) -> Result<Report, DocumentError> {
    let mut report = Report {
        target: options.target.unwrap_or_default(),
        api_version: "v1".into(),
        kind: "List".into(),
        violations: Vec::new(),
    };
    for (index, item) in items.iter().enumerate() {
        let item_report = check(tables, item, options).map_err(|err| DocumentError {
            line: err.line,
            message: format!("items[{index}]: {}", err.message),
        })?;
        report.target = item_report.target;
        report
            .violations
            .extend(item_report.violations.into_iter().map(|mut violation| {
                violation.path = if violation.path.is_empty() {
                    format!("items[{index}]")
                } else {
                    format!("items[{index}].{}", violation.path)
                };
                violation
            }));
    }
    Ok(report)
}

/// `apps/v1beta1 Deployment is not served in 1.29 (removed in 1.16); use
/// apiVersion apps/v1`; `reason` is known when the type is in the gates.
fn kind_message(
    tables: &GateTables,
    identity: &Identity,
    target: Version,
    reason: Option<&str>,
) -> String {
    let mut message = format!(
        "{} {} is not served in {target}",
        identity.api_version, identity.kind
    );
    if let Some(reason) = reason {
        message.push_str(&format!(" ({reason})"));
    }
    let replacement = identity
        .own_minor
        .is_none()
        .then(|| tables.served_kind(identity.group(), identity.kind, target))
        .flatten();
    if let Some(replacement) = replacement {
        message.push_str(&format!("; use apiVersion {}", replacement.api_version()));
    }
    message
}

/// A kind no minor serves: an error, as `kubectl apply` (no matches for
/// kind) and kubeconform (no schema) refuse it. In a group the API serves
/// it is a typo, with the nearest kind of the group when one is near. In a
/// group the API does not know it is a custom resource whose CRD was not
/// given: the message gives the two ways out, `--crd` and the rule's own
/// switch. Documents that carry their minor have no group: an unknown kind
/// near one of the API's is a typo, any other is told like a custom
/// resource (without `--crd`, which cannot name a kind without a group).
fn unknown_kind(
    tables: &GateTables,
    identity: &Identity,
    root: &Node,
    target: Version,
) -> Violation {
    let line = root.get("kind").map_or(root.line, |node| node.line);
    let own_minor = identity.own_minor.is_some();
    let (group, version) = identity.group_version();
    let known: Vec<&GroupVersionKind> = tables
        .kinds()
        .into_iter()
        .filter(|gvk| own_minor || gvk.group == group)
        .collect();
    let nearest = nearest_kind(identity.kind, version, &known, own_minor);
    // A group of custom resources stays theirs when a CRD of it is among
    // the inputs: the CRD adds its own kinds, nothing else.
    let served_group = !own_minor && tables.is_own_group(group);
    let nearest = nearest.filter(|_| own_minor || served_group);
    if !served_group && nearest.is_none() {
        let downgrade = Rule::UnknownKind.id();
        let message = if own_minor {
            format!(
                "{} {}: {} {target} has no such kind; --rule {downgrade}=warning leaves it unchecked",
                identity.api_version,
                identity.kind,
                tables.api()
            )
        } else {
            format!(
                "{} {}: {target} serves no such group/version/kind ({} serves no group {group:?}: a custom resource's, and no CRD for it was given); pass its CRD with --crd FILE (or among the inputs), or --rule {downgrade}=warning to leave it unchecked",
                identity.api_version,
                identity.kind,
                tables.api()
            )
        };
        return Violation::new(Rule::UnknownKind, "", line, message);
    }
    let place = if own_minor {
        tables.api()
    } else {
        identity.api_version
    };
    let mut message = format!(
        "{} {}: no such kind in {place}",
        identity.api_version, identity.kind
    );
    if let Some(nearest) = nearest {
        message.push_str(&format!("; did you mean {nearest}?"));
    }
    Violation::new(Rule::UnknownKind, "", line, message)
}

/// The known kind closest to `kind` (case aside, a few edits away), with its
/// apiVersion when that differs from `version`.
fn nearest_kind(
    kind: &str,
    version: &str,
    known: &[&GroupVersionKind],
    own_minor: bool,
) -> Option<String> {
    let wanted = kind.to_ascii_lowercase();
    let most = (kind.chars().count() / 3).max(2);
    let distance =
        |gvk: &GroupVersionKind| strsim::levenshtein(&wanted, &gvk.kind.to_ascii_lowercase());
    // The nearest name; among equals, the kind in the document's own
    // version, then the first name.
    let gvk = known
        .iter()
        .min_by_key(|gvk| (distance(gvk), gvk.version != version, gvk.kind.as_str()))?;
    let distance = distance(gvk);
    if distance > most {
        return None;
    }
    if own_minor || gvk.version == version {
        Some(gvk.kind.clone())
    } else {
        Some(format!("{} (apiVersion {})", gvk.kind, gvk.api_version()))
    }
}
