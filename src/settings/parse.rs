//! Reading `vergate.toml` with positions: toml_edit's parser (the one the
//! `toml` crate uses, already in the CLI through the code generator) keeps
//! the span of every key and value, so each mistake is reported where it
//! is written, and every mistake in the file is reported, not the first.

use super::{closest, line_column, RuleLevel, Settings, SettingsError};
use crate::preflight::Rule;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml_edit::{ImDocument, Item, TableLike, Value};

/// The keys of the file, in the order docs/cli.md lists them.
const KEYS: &[&str] = &["target", "crds", "api", "rules", "feature_gates"];

/// Collects the mistakes of one file, each at its place.
struct Errors<'a> {
    file: &'a Path,
    text: &'a str,
    found: Vec<(usize, SettingsError)>,
}

impl Errors<'_> {
    fn at(&mut self, span: Option<Range<usize>>, message: String) {
        let offset = span.map_or(0, |span| span.start);
        let (line, column) = line_column(self.text, offset);
        self.found.push((
            offset,
            SettingsError {
                file: self.file.to_owned(),
                line,
                column,
                message,
            },
        ));
    }
}

pub(super) fn parse(path: &Path, text: &str) -> Result<Settings, Vec<SettingsError>> {
    let root = path
        .parent()
        .map(Path::to_owned)
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."));
    let mut errors = Errors {
        file: path,
        text,
        found: Vec::new(),
    };
    let document = match ImDocument::parse(text) {
        Ok(document) => document,
        Err(err) => {
            // toml_edit's message spans several lines (the source line and a
            // caret); its first line is the message itself.
            let message = err.message().lines().next().unwrap_or("").trim().to_owned();
            errors.at(err.span(), format!("not TOML: {message}"));
            return Err(finish(errors));
        }
    };
    let mut settings = Settings {
        root: root.clone(),
        file: path.to_owned(),
        ..Settings::default()
    };
    let table = document.as_table();
    for (key, item) in table.iter() {
        let key_span = table.key(key).and_then(|key| key.span());
        match key {
            "target" => target(&mut errors, &mut settings, item, key_span),
            "crds" => settings.crds = paths(&mut errors, &root, item, key_span),
            "api" => settings.api = api(&mut errors, &root, item, key_span),
            "rules" => settings.rules = rules(&mut errors, item, key_span),
            "feature_gates" => settings.feature_gates = gates(&mut errors, item, key_span),
            other => {
                let hint = closest(other, KEYS.iter().copied())
                    .map(|near| format!("did you mean `{near}`? "))
                    .unwrap_or_default();
                errors.at(
                    key_span,
                    format!(
                        "unknown key `{other}`: {hint}the keys are {}",
                        KEYS.join(", ")
                    ),
                );
            }
        }
    }
    if errors.found.is_empty() {
        Ok(settings)
    } else {
        Err(finish(errors))
    }
}

fn finish(errors: Errors) -> Vec<SettingsError> {
    let mut found = errors.found;
    found.sort_by_key(|(offset, _)| *offset);
    found.into_iter().map(|(_, error)| error).collect()
}

/// The span of a value, else of its key.
fn span_of(item: &Item, key: Option<Range<usize>>) -> Option<Range<usize>> {
    item.span().or(key)
}

fn target(errors: &mut Errors, settings: &mut Settings, item: &Item, key: Option<Range<usize>>) {
    let span = span_of(item, key.clone());
    match item.as_value() {
        Some(Value::String(text)) => match crate::Version::parse_cluster(text.value()) {
            Ok(version) => {
                settings.target = Some(version);
                let offset = span.map_or(0, |span| span.start);
                settings.target_at = Some(line_column(errors.text, offset));
            }
            Err(err) => errors.at(
                span,
                format!(
                    "target {:?}: {err}; write the minor as a string, e.g. target = \"1.31\"",
                    text.value()
                ),
            ),
        },
        Some(Value::Float(_)) => {
            let written = span
                .clone()
                .and_then(|span| errors.text.get(span))
                .unwrap_or("")
                .trim()
                .to_owned();
            errors.at(
                span,
                format!(
                    "target is a number ({written}), which TOML reads as a float (1.30 is 1.3); \
                     write it as a string: target = \"{written}\""
                ),
            )
        }
        _ => errors.at(
            span,
            "target is a string naming a minor: target = \"1.31\"".to_owned(),
        ),
    }
}

/// `crds`: a string or an array of strings, each a path that exists.
fn paths(errors: &mut Errors, root: &Path, item: &Item, key: Option<Range<usize>>) -> Vec<PathBuf> {
    let hint = "crds is a list of CRD files or directories: crds = [\"crds/\"]";
    let values: Vec<&Value> = match item.as_value() {
        Some(Value::Array(array)) => array.iter().collect(),
        Some(value @ Value::String(_)) => vec![value],
        _ => {
            errors.at(span_of(item, key), hint.to_owned());
            return Vec::new();
        }
    };
    let mut found = Vec::new();
    for value in values {
        match value {
            Value::String(text) if !text.value().is_empty() => {
                let path = PathBuf::from(text.value());
                if root.join(&path).exists() {
                    found.push(path);
                } else {
                    errors.at(
                        value.span(),
                        format!(
                            "crds: {:?} does not exist (paths are relative to the directory of vergate.toml, {}); fix the path or remove it",
                            text.value(),
                            root.display()
                        ),
                    );
                }
            }
            _ => errors.at(value.span(), hint.to_owned()),
        }
    }
    found
}

/// `api`: a generated API directory (or its gates.json) that exists.
fn api(
    errors: &mut Errors,
    root: &Path,
    item: &Item,
    key: Option<Range<usize>>,
) -> Option<PathBuf> {
    let span = span_of(item, key);
    match item.as_value() {
        Some(Value::String(text)) if !text.value().is_empty() => {
            let path = PathBuf::from(text.value());
            let full = root.join(&path);
            if full.is_file() || full.join("gates.json").is_file() {
                Some(path)
            } else {
                errors.at(
                    span,
                    format!(
                        "api: {} has no gates.json (paths are relative to the directory of vergate.toml); \
                         name a generated API directory (`cargo xtask regen` writes generated/<api>/), \
                         or remove the key for the embedded Kubernetes index",
                        full.display()
                    ),
                );
                None
            }
        }
        _ => {
            errors.at(
                span,
                "api is the path of a generated API directory: api = \"generated/demo\"".to_owned(),
            );
            None
        }
    }
}

/// A table (`[rules]`, `rules = { … }` or dotted keys) or an error.
fn table<'i>(
    errors: &mut Errors,
    name: &str,
    example: &str,
    item: &'i Item,
    key: Option<Range<usize>>,
) -> Option<&'i dyn TableLike> {
    let table = item.as_table_like();
    if table.is_none() {
        errors.at(
            span_of(item, key),
            format!("{name} is a table: {name} = {{ {example} }}"),
        );
    }
    table
}

fn rules(
    errors: &mut Errors,
    item: &Item,
    key: Option<Range<usize>>,
) -> std::collections::BTreeMap<String, RuleLevel> {
    let mut rules = std::collections::BTreeMap::new();
    let Some(table) = table(errors, "rules", "removed-ahead = \"error\"", item, key) else {
        return rules;
    };
    let ids: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
    for (id, value) in table.iter() {
        let key_span = table.key(id).and_then(|key| key.span());
        if super::rule(id).is_none() {
            let hint = closest(id, ids.iter().copied())
                .map(|near| format!("did you mean `{near}`? "))
                .unwrap_or_default();
            errors.at(
                key_span,
                format!("rules: no rule `{id}`; {hint}the rules: {}", ids.join(", ")),
            );
            continue;
        }
        let level = match value.as_str() {
            Some("error") => RuleLevel::Error,
            Some("warning") => RuleLevel::Warning,
            Some("off") => RuleLevel::Off,
            other => {
                let hint = other
                    .and_then(|text| closest(text, ["error", "warning", "off"]))
                    .map(|near| format!(" (did you mean \"{near}\"?)"))
                    .unwrap_or_default();
                errors.at(
                    span_of(value, key_span),
                    format!(
                        "rules: the level of `{id}` is \"error\", \"warning\" or \"off\"{hint}"
                    ),
                );
                continue;
            }
        };
        rules.insert(id.to_owned(), level);
    }
    rules
}

fn gates(
    errors: &mut Errors,
    item: &Item,
    key: Option<Range<usize>>,
) -> std::collections::BTreeMap<String, bool> {
    let mut gates = std::collections::BTreeMap::new();
    let Some(table) = table(
        errors,
        "feature_gates",
        "ServiceTrafficDistribution = true",
        item,
        key,
    ) else {
        return gates;
    };
    for (name, value) in table.iter() {
        let key_span = table.key(name).and_then(|key| key.span());
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            errors.at(
                key_span,
                format!(
                    "feature_gates: {name:?} is no feature gate name (letters and digits, as kube-apiserver's --feature-gates: ServiceTrafficDistribution)"
                ),
            );
            continue;
        }
        match value.as_bool() {
            Some(enabled) => {
                gates.insert(name.to_owned(), enabled);
            }
            None => errors.at(
                span_of(value, key_span),
                format!("feature_gates: {name} is true or false (unquoted): {name} = true"),
            ),
        }
    }
    gates
}
