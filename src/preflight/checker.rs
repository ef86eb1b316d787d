//! `check`'s visitor of the document walker (`crate::walk`): the violations
//! of one document against one target minor.

use super::feature_gates::FeatureGates;
use super::field_validation::FieldValidation;
use super::violation::{Deviation, Rule, Violation};
use crate::document::{Entry, Node, Value};
use crate::gates::{show_values, Gate, Inferred, Scalar, Stage, TypeExpr, TypeGate};
use crate::tables::GateTables;
use crate::walk::{
    format_message, scalar, CrdFormat, Expected, FieldStep, Object, Refusal, Verdict, Visitor, Walk,
};
use crate::Version;
use std::fmt::Write;
use std::rc::Rc;

mod union;

/// The visitor of `check`: walks one document against one target minor
/// and collects its violations.
pub(super) struct Checker<'a> {
    tables: &'a GateTables,
    target: Version,
    strict: bool,
    /// Feature gates set on the cluster (`None`: stage defaults).
    pub feature_gates: Option<&'a FeatureGates>,
    /// What an unknown field is (`--validate`).
    pub fields: FieldValidation,
    /// Whether string contents (timestamps, base64, quantities) are held to
    /// their format: the Kubernetes API server decodes them; `--strict`
    /// asks it of any API.
    decodes: bool,
    pub violations: Vec<Violation>,
    /// The member checks the document has left (see `union.rs`).
    budget: Rc<union::UnionBudget>,
    /// How many unions are being tried inside one another here.
    union_depth: usize,
}

impl<'a> Checker<'a> {
    pub fn new(tables: &'a GateTables, target: Version, strict: bool) -> Self {
        Checker {
            tables,
            target,
            strict,
            feature_gates: None,
            fields: FieldValidation::default(),
            decodes: strict || tables.dialect().is_kubernetes_api_server(),
            violations: Vec::new(),
            budget: union::UnionBudget::new(),
            union_depth: 0,
        }
    }

    /// What the API server accepts with a warning (a gated-off field, a
    /// value a later spec lists): a warning, an error with `--strict`.
    fn accepted_with_warning(&self) -> Deviation {
        Deviation::AcceptedWithWarning {
            strict: self.strict,
        }
    }

    /// Why the API server would drop a field of this gate at the target:
    /// its feature gate is off by default there (alpha, or beta and off in
    /// the feature-gate table), unless set on with `--feature-gates`, or it
    /// is set off.
    #[inline]
    pub(super) fn gate_off(&self, gate: &Gate) -> Option<String> {
        // Most fields have no stage, so no gate to be off: asked of every
        // field the walk steps into, this answers them without a call.
        if gate.stage.is_empty() {
            return None;
        }
        self.staged_gate_off(gate)
    }

    /// [`Checker::gate_off`] of a field with stages.
    fn staged_gate_off(&self, gate: &Gate) -> Option<String> {
        let stage = gate.stage_in(self.target)?;
        let name = gate.feature_gate.as_deref();
        let target = self.target;
        // `GateTables::enabled_by_default` with the stage read once: the
        // table's state where it knows the gate, else the stage's default.
        let published = name.and_then(|name| self.tables.feature_gate_in(name, target));
        let default = published.map_or(stage != Stage::Alpha, |state| state.default);
        let defaults = FeatureGates::default();
        let gates = self.feature_gates.unwrap_or(&defaults);
        if gates.is_enabled(name, stage, default) {
            return None;
        }
        let stage_text = match stage {
            Stage::Alpha => "alpha",
            Stage::Beta => "beta",
            Stage::Ga => "GA",
        };
        let why_off = match (published, stage) {
            (Some(_), _) => {
                format!("off by default in {target}, per Kubernetes' feature-gate table")
            }
            (None, Stage::Alpha) => "alpha gates are off by default".to_owned(),
            (None, _) => format!("off by default in {target}"),
        };
        Some(match name {
            Some(name) if gates.is_set(name) => format!(
                "{stage_text} in {target}, and feature gate {name} is off (--feature-gates): the API server drops this field"
            ),
            Some(name) => format!(
                "{stage_text} in {target}: the API server drops this field unless feature gate {name} is on ({why_off}); if the cluster enables it, pass --feature-gates {name}=true"
            ),
            None => format!(
                "{stage_text} in {target}: the API server drops this field unless its feature gate is on ({why_off})"
            ),
        })
    }

    /// The gate tables checked against.
    pub(super) fn tables(&self) -> &'a GateTables {
        self.tables
    }

    /// When an item deprecated at the target was deprecated, as a message
    /// says it (` since 1.33`). Deprecated already in the oldest minor the
    /// data has, it may be older: ` since 1.28 or earlier`. A custom
    /// resource's type (`owner`, from a CRD) has no minor of the API: its
    /// CRD deprecates it, with no date.
    fn since(&self, gate: &Gate, owner: Option<&str>) -> String {
        since_text(self.tables, gate, owner, self.target)
    }

    /// Reports `text`, a string of a custom resource, when it is not of
    /// the `format` its CRD declares and the API server of the target
    /// validates that format (others it strips from the schema).
    fn crd_format(&mut self, walk: &Walk<'_>, format: &str, text: &str, line: u32) {
        // The formats follow Kubernetes minors; another API's minor says
        // nothing of the server's, so only what every minor validates.
        let minor = self
            .tables
            .dialect()
            .minors_are_kubernetes_releases()
            .then_some(self.target);
        let Some(known) = CrdFormat::supported(format, minor) else {
            return;
        };
        if !known.accepts(text) {
            let message = format_message(&walk.path_text(None), format, text);
            self.report(walk, Rule::Format, None, line, message);
        }
    }

    /// Checks `root`, a document of definition `name`.
    pub fn document(&mut self, root: &'a Node, name: &str) {
        let ty = TypeExpr::Definition(name.to_owned());
        let mut walk = Walk::new(self.tables, self.target, self.target);
        walk.value(self, root, root.line, &ty, &ty);
    }

    /// Reports a finding of `rule` at its default severity, at the path
    /// so far (with `last` appended).
    fn report(
        &mut self,
        walk: &Walk<'_>,
        rule: Rule,
        last: Option<&str>,
        line: u32,
        message: String,
    ) {
        self.report_as(walk, None, rule, last, line, message);
    }

    /// [`Checker::report`], at `deviation`'s severity when there is one.
    fn report_as(
        &mut self,
        walk: &Walk<'_>,
        deviation: Option<Deviation>,
        rule: Rule,
        last: Option<&str>,
        line: u32,
        message: String,
    ) {
        let violation = Violation::new(rule, walk.path_text(last), line, message);
        self.violations.push(violation.deviating_if(deviation));
    }

    fn wrong_type(
        &mut self,
        walk: &Walk<'_>,
        node: &Node,
        expected: &str,
        ty: &TypeExpr,
        line: u32,
    ) {
        let shown = match ty.definition() {
            Some(name) => short(name).to_owned(),
            None => ty.to_string(),
        };
        let message = format!(
            "expected {expected} ({shown} in {}), found {}",
            self.target,
            node.describe()
        );
        self.report(walk, Rule::WrongType, None, line, message);
    }

    /// Reports each field `object` requires in the target that `entries`
    /// lack or hold as null; `line` is the line of the object's key.
    fn required(&mut self, walk: &Walk<'_>, object: &Object<'_>, entries: &[Entry], line: u32) {
        for required in &object.fields.required {
            if !required.is_required_in(self.target) {
                continue;
            }
            let field_name = required.name;
            // `null` means unset, so a required field set to null is missing.
            let present = entries
                .iter()
                .find(|entry| entry.key.len() == field_name.len() && entry.key == field_name);
            let unset = match present {
                None => true,
                Some(entry) => matches!(entry.value.value, Value::Null),
            };
            // The API server fills it in, or its validation accepts it unset.
            if unset && super::server_defaults::unset_accepted(object.name, field_name) {
                continue;
            }
            let (line, message) = match present {
                None => (line, format!("missing: required in {}", self.target)),
                Some(entry) if matches!(entry.value.value, Value::Null) => (
                    entry.line,
                    format!("null counts as missing: required in {}", self.target),
                ),
                Some(_) => continue,
            };
            self.report(walk, Rule::MissingRequired, Some(field_name), line, message);
        }
    }
}

impl<'a> Visitor<'a> for Checker<'a> {
    type Out = ();

    /// Check reports as it goes: an object's entries are not needed.
    const GATHERS_ENTRIES: bool = false;

    fn leaf(&mut self, _: &Walk<'a>, _: &'a Node) {}

    #[inline]
    fn scalar(&mut self, walk: &Walk<'a>, node: &'a Node, line: u32, scalar: &Scalar) {
        // apiextensions strips the formats it does not validate from a
        // CRD's schema: a custom resource's `int32` or `int64` integer is
        // any integer JSON carries, not range-checked. Its
        // `x-kubernetes-int-or-string` is an integer or a string of the
        // schema, no Go `intstr` (int32): its integers neither.
        let unformatted = Scalar::Integer(None);
        let any_integer = || scalar::fit(&unformatted, node, false).is_ok();
        if walk.in_custom() && matches!(scalar, Scalar::IntOrString) && any_integer() {
            return;
        }
        let scalar = match scalar {
            Scalar::Integer(Some(_)) if walk.in_custom() => &unformatted,
            other => other,
        };
        // A custom resource's strings are checked by the formats the API
        // server validates in CRDs, strict or not, and by nothing else.
        let crd_string = walk.in_custom() && matches!(scalar, Scalar::String(_));
        if let (true, Scalar::String(Some(format)), Value::String(text)) =
            (crd_string, scalar, &node.value)
        {
            self.crd_format(walk, format.as_str(), text, line);
        }
        // A built-in's timestamps, bytes and quantities are decoded by the
        // Kubernetes API server, which refuses one that does not decode:
        // strict or not. Another API's formats may only describe a value.
        if let Err(misfit) = scalar::fit(scalar, node, self.decodes && !crd_string) {
            let message = format!(
                "expected {} ({scalar} in {}), found {}",
                misfit.expected, self.target, misfit.found
            );
            self.report(walk, Rule::WrongType, None, line, message);
        }
    }

    fn mismatch(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        expected: Expected,
        ty: &TypeExpr,
    ) {
        self.wrong_type(walk, node, expected.text(), ty, line);
    }

    /// Check walks one minor, so no type differs between `from` and `to`.
    fn retyped(&mut self, _: &Walk<'a>, _: &'a Node, _: u32, _: &TypeExpr, _: &TypeExpr) {}

    fn refused(
        &mut self,
        walk: &Walk<'a>,
        last: Option<&str>,
        line: u32,
        text: &str,
        refusal: Refusal<'a>,
    ) {
        let target = self.target;
        let (deviation, message) = match refusal {
            Refusal::NotInMinor { gate, .. } => {
                let (_, reason) = absent_reason(gate, target, None);
                (
                    None,
                    format!("value {text:?} is not available in {target} ({reason})"),
                )
            }
            // The target's spec lists no values; those of a later listing
            // are carried back, inferred: a warning, an error with --strict.
            Refusal::Unlisted {
                accepted,
                carried_from: Some(known_from),
            } => (
                Some(self.accepted_with_warning()),
                format!(
                    "value {text:?} is likely refused in {target}: the {target} spec lists no values, and {known_from}'s, carried back as the field's description is the same, are {}",
                    show_values(&accepted)
                ),
            ),
            // The target lists its values and this is none of them: the
            // API refuses it (and so do the JSON Schemas), strict or not.
            Refusal::Unlisted { accepted, .. } => (
                None,
                format!(
                    "value {text:?} is not accepted in {target} (accepted: {})",
                    show_values(&accepted)
                ),
            ),
        };
        self.report_as(
            walk,
            deviation,
            Rule::ValueNotAvailable,
            last,
            line,
            message,
        );
    }

    fn deprecated_value(
        &mut self,
        walk: &Walk<'a>,
        last: Option<&str>,
        line: u32,
        text: &str,
        gate: &'a Gate,
    ) {
        let mut message = format!("value {text:?} is deprecated{}", self.since(gate, None));
        if gate.inferred.contains(&Inferred::DeprecatedIn) {
            message.push_str(" (inferred from its description)");
        }
        self.report(walk, Rule::Deprecated, last, line, message);
    }

    fn constraint(&mut self, walk: &Walk<'a>, last: Option<&str>, line: u32, verdict: Verdict) {
        let (deviation, message) = match verdict {
            Verdict::Broken(message) => (None, message),
            Verdict::Unchecked(message) => (Some(Deviation::NotChecked), message),
        };
        self.report_as(walk, deviation, Rule::Constraint, last, line, message);
    }

    fn union(
        &mut self,
        walk: &mut Walk<'a>,
        node: &'a Node,
        line: u32,
        name: &'a str,
        union: &'a crate::gates::UnionGate,
    ) {
        self.check_union(walk, node, line, name, union);
    }

    #[inline]
    fn field(
        &mut self,
        walk: &Walk<'a>,
        entry: &'a Entry,
        object: &Object<'a>,
    ) -> FieldStep<'a, ()> {
        let target = self.target;
        let key = entry.key.as_str();
        let def = object.def;
        let Some((&name, &indexed)) = object.fields.by_name.get_key_value(key) else {
            // As the API server's field validation: `Strict` (what
            // `kubectl apply` asks for) refuses the object, `Warn` drops the
            // field with a warning, `Ignore` drops it silently.
            let deviation = match self.fields {
                FieldValidation::Ignore => return FieldStep::Keep(()),
                FieldValidation::Warn => Some(Deviation::FieldValidationWarn),
                FieldValidation::Strict => None,
            };
            if !def.open {
                let path = walk.path_text(Some(key));
                let mut message = match deviation {
                    None => format!("strict decoding error: unknown field {path:?}"),
                    Some(_) => format!("unknown field {path:?}"),
                };
                let _ = write!(
                    message,
                    " ({} has no field {:?} in any minor",
                    short(object.name),
                    entry.key
                );
                if let Some(suggestion) = closest_field(def, key, target) {
                    let _ = write!(message, "; did you mean {suggestion:?}?");
                }
                message.push(')');
                self.report_as(
                    walk,
                    deviation,
                    Rule::UnknownField,
                    Some(key),
                    entry.line,
                    message,
                );
            }
            return FieldStep::Keep(());
        };
        let field = indexed.gate;
        // Most fields: present, not deprecated, no stage (answered without
        // reading the gate).
        if !indexed.plainly_in(target) {
            if !field.gate.is_present_in(target) {
                let (rule, message) =
                    absent_message(&field.gate, target, renamed_to(def, key, target));
                self.report(walk, rule, Some(key), entry.line, message);
                return FieldStep::Drop;
            }
            if field.gate.is_deprecated_in(target) {
                let mut message =
                    format!("deprecated{}", self.since(&field.gate, Some(object.name)));
                if field.gate.inferred.contains(&Inferred::DeprecatedIn) {
                    message.push_str(" (inferred from its description)");
                }
                if let Some((new_name, since)) = renamed_to(def, key, Version::new(u32::MAX, 0)) {
                    let _ = write!(message, "; renamed to {new_name} in {since}");
                }
                self.report(walk, Rule::Deprecated, Some(key), entry.line, message);
            }
            if let Some(message) = self.gate_off(&field.gate) {
                self.report_as(
                    walk,
                    Some(self.accepted_with_warning()),
                    Rule::FeatureGateOff,
                    Some(key),
                    entry.line,
                    message,
                );
            }
        }
        // A zero value the API server fills in before it validates (a
        // Service port's `targetPort: 0`): the schema's checks do not see it.
        if super::server_defaults::taken_for_unset(object.name, name, &entry.value.value) {
            return FieldStep::Keep(());
        }
        FieldStep::Walk {
            key: name,
            from: field,
            to: field,
            constrained: indexed.constrained,
            plain: indexed.plain_value,
        }
    }

    fn list(&mut self, _: &'a Node, _: Vec<()>) {}

    fn map(&mut self, _: &'a Node, _: Vec<()>) {}

    fn object(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        object: &Object<'a>,
        _: Vec<(&'a str, u32, ())>,
    ) {
        if let Some(entries) = node.as_map() {
            // What the target's server leaves unvalidated below this object
            // (a StatefulSet's templates before 1.34): its children's
            // findings, before this object's own checks add theirs.
            let parts = super::go_validation::unvalidated_parts(object.name, self.target);
            if !parts.is_empty() {
                let base = walk.path_text(None);
                super::go_validation::forget_unvalidated(&mut self.violations, &base, parts);
            }
            self.required(walk, object, entries, line);
            // Few types have cross-field rules: the others make no call.
            if !object.def.rules.is_empty() {
                for broken in super::cross_field::check(&object.def.rules, entries, line) {
                    let last = (!broken.last.is_empty()).then_some(broken.last.as_str());
                    let (rule, line) = (Rule::CrossField, broken.line);
                    self.report(walk, rule, last, line, broken.message);
                }
            }
            let before = self.violations.len();
            for broken in super::go_validation::check(object.name, self.target, entries, line) {
                let last = (!broken.last.is_empty()).then_some(broken.last.as_str());
                let (rule, line) = (Rule::ServerValidation, broken.line);
                self.report(walk, rule, last, line, broken.message);
            }
            self.drop_enum_twins(walk, before);
        }
    }
}

impl Checker<'_> {
    /// Drops the schema's enum finding (`value-not-available`) of a field
    /// the server's own check reported from `from` on: the server's words
    /// say it (a spec without enums carries a later one's back as a
    /// warning; the server refuses with its own message). Only the
    /// object's own subtree is read (the walk is post-order, so its
    /// findings are the last ones before `from`, all below `walk`'s path):
    /// a document of many objects costs no more than one pass per level.
    fn drop_enum_twins(&mut self, walk: &Walk<'_>, mut from: usize) {
        if self.violations.len() == from {
            return;
        }
        let base = walk.path_text(None);
        let mut index = from;
        while index > 0 {
            index -= 1;
            let old = &self.violations[index];
            if !old.path.starts_with(base.as_str()) {
                break;
            }
            let twin = old.rule == Rule::ValueNotAvailable
                && self.violations[from..]
                    .iter()
                    .any(|new| new.path == old.path);
            if twin {
                self.violations.remove(index);
                from -= 1;
            }
        }
    }
}

/// Why an item with `gate` is absent in `target`: the rule and the message
/// (`not available in 1.29 (introduced in 1.30 as beta, feature gate X)`).
pub(super) fn absent_message(
    gate: &Gate,
    target: Version,
    renamed: Option<(&str, Version)>,
) -> (Rule, String) {
    let (rule, reason) = absent_reason(gate, target, renamed);
    (rule, format!("not available in {target} ({reason})"))
}

/// The reason alone: `introduced in 1.30 as beta, feature gate X`,
/// `removed in 1.32; renamed to y in 1.32`, `present in 1.9, 1.11`.
pub(crate) fn absent_reason(
    gate: &Gate,
    target: Version,
    renamed: Option<(&str, Version)>,
) -> (Rule, String) {
    if target < gate.introduced_in {
        let mut why = format!("introduced in {}", gate.introduced_in);
        if let Some(stage) = gate.stage_in(gate.introduced_in) {
            let _ = write!(why, " as {}", stage_name(stage));
        }
        if let Some(feature_gate) = &gate.feature_gate {
            let _ = write!(why, ", feature gate {feature_gate}");
        }
        return (Rule::NotYetIntroduced, why);
    }
    if let Some(removed) = gate.removed_in.filter(|removed| target >= *removed) {
        let mut why = format!("removed in {removed}");
        if let Some((new_name, since)) = renamed {
            let _ = write!(why, "; renamed to {new_name} in {since}");
        }
        return (Rule::Removed, why);
    }
    let present: Vec<String> = gate
        .present_in
        .iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
    (
        Rule::NotInMinor,
        format!("present in {}", present.join(", ")),
    )
}

/// The field that replaced `old` by a rename at or before `by`, if any.
pub(super) fn renamed_to<'d>(
    def: &'d TypeGate,
    old: &str,
    by: Version,
) -> Option<(&'d str, Version)> {
    def.fields.iter().find_map(|(name, field)| {
        field
            .renamed_from
            .as_ref()
            .filter(|rename| rename.from == old && rename.in_version <= by)
            .map(|rename| (name.as_str(), rename.in_version))
    })
}

fn stage_name(stage: crate::gates::Stage) -> &'static str {
    match stage {
        crate::gates::Stage::Alpha => "alpha",
        crate::gates::Stage::Beta => "beta",
        crate::gates::Stage::Ga => "GA",
    }
}

/// The field of `def` present in `target` whose name is closest to `key`
/// (at most two edits away).
fn closest_field<'d>(def: &'d TypeGate, key: &str, target: Version) -> Option<&'d str> {
    def.fields
        .iter()
        .filter(|(_, field)| field.gate.is_present_in(target))
        .map(|(name, _)| (strsim::damerau_levenshtein(key, name), name.as_str()))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, name)| name)
}

/// The short name of a definition (`io.k8s.api.core.v1.ServiceSpec` → `ServiceSpec`).
pub(super) fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// See `Checker::since`.
pub(super) fn since_text(
    tables: &GateTables,
    gate: &Gate,
    owner: Option<&str>,
    target: Version,
) -> String {
    if owner.is_some_and(|owner| tables.is_custom(owner)) {
        return " by its CRD".to_owned();
    }
    let since = gate.deprecated_in.unwrap_or(target);
    if tables.versions().first() == Some(&since) {
        format!(" since {since} or earlier")
    } else {
        format!(" since {since}")
    }
}
