//! One value against one schema of a junctor's branch, as kube-openapi's
//! `SchemaValidator` does it, with the API server's messages: the value
//! validations a structural schema allows there (`properties`, `items`,
//! `additionalProperties`, `required`, `enum`, `format`, `pattern`,
//! lengths, bounds, item counts) and the junctors themselves
//! (`schema_props.go`: `anyOf`, `oneOf`, `allOf`, `not`).
//!
//! kube-openapi reports the errors of the failing branch with the most
//! checks done (`MatchCount`); here that count is the number of schemas a
//! branch visited, which picks the same branch for the schemas CRDs write
//! (the one that got furthest), the first on a tie, as there.

use crate::walk::{format_message, CrdFormat};
use crate::Version;
use serde_json::Value;
use vergate_codegen::load::VALUE_VALIDATIONS;

/// The most schemas one document's junctors visit, over all their
/// branches: far above a real custom resource, far below a hang.
pub(super) const MAX_VISITS: usize = 100_000;

/// The deepest nesting of schemas a branch is followed into.
pub(super) const MAX_DEPTH: usize = 64;

/// One error, as the API server reports it: the path of the value it is
/// about and the text after the field path. A junctor's own message is
/// reported by the server at no field (`<nil>: Invalid value: "": …`)
/// and names its path inside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Finding {
    pub path: String,
    pub message: String,
}

/// What validating a value found: its errors and how many schemas it
/// visited (kube-openapi's `MatchCount`).
#[derive(Default)]
pub(super) struct Outcome {
    pub errors: Vec<Finding>,
    pub visits: usize,
}

impl Outcome {
    /// Adds an error, its message and path cut to
    /// `findings::MAX_MESSAGE_BYTES` (both quote the input: a long value
    /// or key checked by many branches would otherwise take memory).
    fn add(&mut self, mut finding: Finding) {
        crate::findings::cut(&mut finding.message);
        crate::findings::cut(&mut finding.path);
        self.errors.push(finding);
    }
}

/// Why a validation was cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// [`MAX_VISITS`] schemas visited.
    Visits,
    /// Junctors nested deeper than [`MAX_DEPTH`].
    Depth,
}

/// Where a validation was first cut short: the bound, the schema below
/// the place with junctors (`.allOf[0].not…`, as the CRD writes it) and
/// the value's path.
#[derive(Clone, Debug)]
pub(super) struct Cut {
    pub bound: Bound,
    pub schema: String,
    pub path: String,
}

/// One step from a schema into a schema inside it, kept while it is
/// visited so that a cut can name where it happened (borrowed: nothing is
/// built unless a bound is reached).
#[derive(Clone, Copy)]
enum Step<'j> {
    Property(&'j str),
    Items,
    Additional,
    Branch(&'static str, usize),
    Not,
}

/// The state of one document's validation.
pub(super) struct Validator<'j> {
    /// The minor whose formats apply (`None`: the formats of every minor).
    pub minor: Option<Version>,
    /// Schemas left to visit ([`MAX_VISITS`]).
    pub left: usize,
    /// Set when a bound was reached: the verdict is unknown.
    pub cut: Option<Cut>,
    /// The steps from the place's schema to the one visited.
    trail: Vec<Step<'j>>,
}

impl<'j> Validator<'j> {
    /// A validator for one document, with the whole budget.
    pub fn new(minor: Option<Version>) -> Validator<'j> {
        Validator {
            minor,
            left: MAX_VISITS,
            cut: None,
            trail: Vec::new(),
        }
    }

    /// Records the first bound reached, at the schema visited and `path`.
    pub fn cut_at(&mut self, bound: Bound, path: &str) {
        if self.cut.is_some() {
            return;
        }
        let mut schema = String::new();
        for step in &self.trail {
            match step {
                Step::Property(name) => {
                    schema.push_str(".properties.");
                    schema.push_str(name);
                }
                Step::Items => schema.push_str(".items"),
                Step::Additional => schema.push_str(".additionalProperties"),
                Step::Branch(junctor, index) => {
                    schema.push_str(&format!(".{junctor}[{index}]"));
                }
                Step::Not => schema.push_str(".not"),
            }
        }
        self.cut = Some(Cut {
            bound,
            schema,
            path: path.to_owned(),
        });
    }

    /// [`Validator::validate`] of a schema one `step` inside the one visited.
    fn validate_in(
        &mut self,
        step: Step<'j>,
        schema: &'j Value,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Outcome {
        self.trail.push(step);
        let out = self.validate(schema, value, path, depth + 1);
        self.trail.pop();
        out
    }

    /// Validates `value` at `path` against `schema`.
    pub fn validate(
        &mut self,
        schema: &'j Value,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Outcome {
        let mut out = Outcome::default();
        if self.cut.is_some() {
            return out;
        }
        if depth > MAX_DEPTH {
            self.cut_at(Bound::Depth, path);
            return out;
        }
        if self.left == 0 {
            self.cut_at(Bound::Visits, path);
            return out;
        }
        self.left -= 1;
        out.visits = 1;
        let Some(schema) = schema.as_object() else {
            return out;
        };
        if !value.is_null() {
            self.enumeration(schema, value, path, &mut out);
            match value {
                Value::String(text) => self.string(schema, text, path, &mut out),
                Value::Number(number) => number_bounds(schema, number, path, &mut out),
                Value::Array(items) => self.array(schema, items, path, depth, &mut out),
                Value::Object(entries) => self.object(schema, entries, path, depth, &mut out),
                Value::Null | Value::Bool(_) => {}
            }
        }
        if let Some(Value::Object(junctors)) = schema.get(VALUE_VALIDATIONS) {
            self.junctors(junctors, value, path, depth, &mut out);
        }
        out
    }

    fn enumeration(
        &self,
        schema: &serde_json::Map<String, Value>,
        value: &Value,
        path: &str,
        out: &mut Outcome,
    ) {
        let Some(Value::Array(allowed)) = schema.get("enum") else {
            return;
        };
        if allowed.contains(value) {
            return;
        }
        let shown: Vec<String> = allowed.iter().map(quoted_json).collect();
        out.add(Finding {
            path: path.to_owned(),
            message: format!(
                "Unsupported value: {}: supported values: {}",
                quoted_json(value),
                shown.join(", ")
            ),
        });
    }

    fn string(
        &self,
        schema: &serde_json::Map<String, Value>,
        text: &str,
        path: &str,
        out: &mut Outcome,
    ) {
        let at = path.to_owned();
        let length = text.chars().count() as u64;
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
            if length > max {
                out.add(Finding {
                    path: at.clone(),
                    message: format!("Too long: may not be more than {max} bytes"),
                });
            }
        }
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
            if length < min {
                out.add(Finding {
                    path: at.clone(),
                    message: format!(
                        "Invalid value: {}: {path} in body should be at least {min} chars long",
                        crate::walk::go_quoted(text)
                    ),
                });
            }
        }
        if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
            // A pattern that does not compile is reported by the walker
            // where the type keeps it; here it is not guessed.
            if let Ok(regex) = crate::walk::compiled_pattern(pattern) {
                if !regex.is_match(text) {
                    out.add(Finding {
                        path: at.clone(),
                        message: format!(
                            "Invalid value: {}: {path} in body should match '{pattern}'",
                            crate::walk::go_quoted(text)
                        ),
                    });
                }
            }
        }
        if let Some(name) = schema.get("format").and_then(Value::as_str) {
            let known = CrdFormat::supported(name, self.minor);
            if known.is_some_and(|format| !format.accepts(text)) {
                out.add(Finding {
                    path: at,
                    message: format_message(path, name, text),
                });
            }
        }
    }

    fn array(
        &mut self,
        schema: &'j serde_json::Map<String, Value>,
        items: &[Value],
        path: &str,
        depth: usize,
        out: &mut Outcome,
    ) {
        let count = items.len() as u64;
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
            if count > max {
                out.add(Finding {
                    path: path.to_owned(),
                    message: format!("Too many: {count}: must have at most {max} items"),
                });
            }
        }
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if count < min {
                out.add(Finding {
                    path: path.to_owned(),
                    message: format!(
                        "Invalid value: {count}: {path} in body should have at least {min} items"
                    ),
                });
            }
        }
        if let Some(item_schema) = schema.get("items").filter(|items| items.is_object()) {
            for (index, item) in items.iter().enumerate() {
                let at = format!("{path}[{index}]");
                let inner = self.validate_in(Step::Items, item_schema, item, &at, depth);
                merge(out, inner);
            }
        }
    }

    fn object(
        &mut self,
        schema: &'j serde_json::Map<String, Value>,
        entries: &serde_json::Map<String, Value>,
        path: &str,
        depth: usize,
        out: &mut Outcome,
    ) {
        let child = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !entries.contains_key(name) {
                    out.add(Finding {
                        path: child(name),
                        message: "Required value".to_owned(),
                    });
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        if let Some(properties) = properties {
            for (key, property) in properties {
                if let Some(value) = entries.get(key) {
                    let step = Step::Property(key);
                    let inner = self.validate_in(step, property, value, &child(key), depth);
                    merge(out, inner);
                }
            }
        }
        if let Some(additional) = schema
            .get("additionalProperties")
            .filter(|value| value.is_object())
        {
            for (key, value) in entries {
                if properties.is_some_and(|properties| properties.contains_key(key)) {
                    continue;
                }
                let step = Step::Additional;
                let inner = self.validate_in(step, additional, value, &child(key), depth);
                merge(out, inner);
            }
        }
    }

    /// kube-openapi's `schemaPropsValidator.Validate`.
    fn junctors(
        &mut self,
        junctors: &'j serde_json::Map<String, Value>,
        value: &Value,
        path: &str,
        depth: usize,
        out: &mut Outcome,
    ) {
        let branches = |key: &str| match junctors.get(key) {
            Some(Value::Array(branches)) => branches.as_slice(),
            _ => &[],
        };
        let quoted = crate::walk::go_quoted(path);
        if !branches("anyOf").is_empty() {
            let mut best: Option<Outcome> = None;
            let mut passed = false;
            for (index, branch) in branches("anyOf").iter().enumerate() {
                let step = Step::Branch("anyOf", index);
                let result = self.validate_in(step, branch, value, path, depth);
                if result.errors.is_empty() {
                    passed = true;
                    out.visits += result.visits;
                    break;
                }
                if best.as_ref().is_none_or(|best| result.visits > best.visits) {
                    best = Some(result);
                }
            }
            if !passed {
                out.add(composite(
                    path,
                    format!("{quoted} must validate at least one schema (anyOf)"),
                ));
                if let Some(best) = best {
                    merge(out, best);
                }
            }
        }
        if !branches("oneOf").is_empty() {
            let mut best: Option<Outcome> = None;
            let mut valid = 0;
            for (index, branch) in branches("oneOf").iter().enumerate() {
                let step = Step::Branch("oneOf", index);
                let result = self.validate_in(step, branch, value, path, depth);
                if result.errors.is_empty() {
                    valid += 1;
                    best = None;
                    if valid == 1 {
                        out.visits += result.visits;
                    }
                    continue;
                }
                if valid == 0 && best.as_ref().is_none_or(|best| result.visits > best.visits) {
                    best = Some(result);
                }
            }
            if valid != 1 {
                let found = match valid {
                    0 => "Found none valid".to_owned(),
                    several => format!("Found {several} valid alternatives"),
                };
                out.add(composite(
                    path,
                    format!("{quoted} must validate one and only one schema (oneOf). {found}"),
                ));
                if let Some(best) = best {
                    merge(out, best);
                }
            }
        }
        if !branches("allOf").is_empty() {
            let mut valid = 0;
            for (index, branch) in branches("allOf").iter().enumerate() {
                let step = Step::Branch("allOf", index);
                let result = self.validate_in(step, branch, value, path, depth);
                if result.errors.is_empty() {
                    valid += 1;
                }
                merge(out, result);
            }
            let all = branches("allOf").len();
            if valid != all {
                let none = if valid == 0 { ". None validated" } else { "" };
                out.add(composite(
                    path,
                    format!("{quoted} must validate all the schemas (allOf){none}"),
                ));
            }
        }
        if let Some(not) = junctors.get("not") {
            let result = self.validate_in(Step::Not, not, value, path, depth);
            if result.errors.is_empty() {
                out.add(composite(
                    path,
                    format!("{quoted} must not validate the schema (not)"),
                ));
            }
        }
    }
}

/// A junctor's own message about the value at `path` (reported by the
/// API server at no field, `Invalid value: ""`).
fn composite(path: &str, message: String) -> Finding {
    Finding {
        path: path.to_owned(),
        message: format!("Invalid value: \"\": {message}"),
    }
}

fn merge(out: &mut Outcome, inner: Outcome) {
    out.errors.extend(inner.errors);
    out.visits += inner.visits;
}

/// `minimum` / `maximum` (and their exclusive forms) in kube-openapi's words.
fn number_bounds(
    schema: &serde_json::Map<String, Value>,
    number: &serde_json::Number,
    path: &str,
    out: &mut Outcome,
) {
    let Some(value) = number.as_f64() else {
        return;
    };
    let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
    let mut broken = |words: &str, bound: &Value| {
        out.add(Finding {
            path: path.to_owned(),
            message: format!("Invalid value: {number}: {path} in body should be {words} {bound}"),
        });
    };
    if let Some(min) = schema.get("minimum") {
        if let Some(bound) = min.as_f64() {
            if flag("exclusiveMinimum") && value <= bound {
                broken("greater than", min);
            } else if value < bound {
                broken("greater than or equal to", min);
            }
        }
    }
    if let Some(max) = schema.get("maximum") {
        if let Some(bound) = max.as_f64() {
            if flag("exclusiveMaximum") && value >= bound {
                broken("less than", max);
            } else if value > bound {
                broken("less than or equal to", max);
            }
        }
    }
}

/// A JSON value as Go's `%q` or `%v` shows it in a field error: strings
/// quoted, everything else as JSON.
fn quoted_json(value: &Value) -> String {
    match value {
        Value::String(text) => crate::walk::go_quoted(text),
        other => other.to_string(),
    }
}
