//! The changelog between two minors: what the newer one adds, removes,
//! deprecates, retypes and makes required or optional, read from the gate
//! tables.

use crate::gates::{
    show_values, values_listed_in, Constraints, FieldGate, Gate, Inferred, TypeExpr, UnionGate,
    ValidationRule,
};
use crate::tables::GateTables;
use crate::Version;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// What changes from `old` to `new`. Every list is sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Changelog {
    pub api: String,
    pub old: Version,
    pub new: Version,
    /// Kinds served in `new` but not in `old` (`apps/v1 Deployment`).
    pub kinds_added: Vec<String>,
    /// Kinds served in `old` but not in `new`.
    pub kinds_removed: Vec<String>,
    /// Kinds served in both and deprecated in `new` only, with the
    /// deprecation warning when the spec gives one (a CRD version's).
    pub kinds_deprecated: Vec<Item>,
    pub types_added: Vec<String>,
    pub types_removed: Vec<String>,
    /// `Type.field` entries.
    pub fields_added: Vec<Item>,
    pub fields_removed: Vec<Item>,
    /// Fields deprecated in `new` and not in `old`.
    pub fields_deprecated: Vec<Item>,
    /// Fields optional in `old` and required in `new`: a breaking change for
    /// documents that leave them out.
    pub fields_now_required: Vec<Item>,
    /// Fields required in `old` and optional in `new`.
    pub fields_now_optional: Vec<Item>,
    /// Fields whose type differs.
    pub fields_retyped: Vec<Item>,
    /// Fields (and types) whose value constraints differ (`maxLength 20 →
    /// 63`, a CEL rule added or removed).
    pub fields_constrained: Vec<Item>,
    /// `Type.field=value` (or `Type=value`, `Type.field[]=value` for a
    /// list's items, `Type.field{}=value` for a map's values) entries:
    /// values added to, or removed from, an enum both minors list.
    pub values_added: Vec<Item>,
    pub values_removed: Vec<Item>,
    /// Enums `new` lists where `old` listed no value (the note gives the
    /// values). Upstream specs often start listing an enum the API had long
    /// accepted (Kubernetes lists its enums from 1.34), so these are not
    /// reported value by value as additions.
    pub enums_first_listed: Vec<Item>,
    /// Enums `old` listed and `new` lists no value of.
    pub enums_no_longer_listed: Vec<Item>,
    /// `Union|member` entries (the member's type expression): members a
    /// union both minors have gains or loses (the note says oneOf or anyOf).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members_added: Vec<Item>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members_removed: Vec<Item>,
}

/// One changed item and a note (its type, stage, replacement).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Changelog {
    /// True when nothing changes.
    pub fn is_empty(&self) -> bool {
        self.sections().iter().all(|(_, items)| items.is_empty())
    }

    fn sections(&self) -> Vec<(&'static str, Vec<Item>)> {
        let plain = |names: &[String]| -> Vec<Item> {
            names
                .iter()
                .map(|name| Item {
                    name: name.clone(),
                    note: String::new(),
                })
                .collect()
        };
        vec![
            ("kinds served", plain(&self.kinds_added)),
            ("kinds no longer served", plain(&self.kinds_removed)),
            ("kinds deprecated", self.kinds_deprecated.clone()),
            ("types added", plain(&self.types_added)),
            ("types removed", plain(&self.types_removed)),
            ("fields added", self.fields_added.clone()),
            ("fields removed", self.fields_removed.clone()),
            ("fields deprecated", self.fields_deprecated.clone()),
            (
                "fields now required, breaking for documents without them",
                self.fields_now_required.clone(),
            ),
            (
                "fields no longer required",
                self.fields_now_optional.clone(),
            ),
            ("fields whose type changes", self.fields_retyped.clone()),
            (
                "fields whose constraints change",
                self.fields_constrained.clone(),
            ),
            ("enum values added", self.values_added.clone()),
            ("enum values removed", self.values_removed.clone()),
            (
                "enums first listed (no value was listed before)",
                self.enums_first_listed.clone(),
            ),
            (
                "enums no longer listed (any value passes)",
                self.enums_no_longer_listed.clone(),
            ),
            ("union members added", self.members_added.clone()),
            ("union members removed", self.members_removed.clone()),
        ]
    }
}

impl fmt::Display for Changelog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {} → {}", self.api, self.old, self.new)?;
        if self.is_empty() {
            return writeln!(f, "  no changes");
        }
        for (title, items) in self.sections() {
            if items.is_empty() {
                continue;
            }
            writeln!(f, "\n{title} ({}):", items.len())?;
            for item in items {
                let mut line = format!("  {}", item.name);
                if !item.note.is_empty() {
                    let _ = write!(line, "  ({})", item.note);
                }
                writeln!(f, "{line}")?;
            }
        }
        Ok(())
    }
}

impl Changelog {
    /// Records what changes about a field present in both minors: its
    /// deprecation, whether it is required, its type and its enum values.
    fn field_kept(&mut self, full: &str, field: &FieldGate) {
        let (old, new) = (self.old, self.new);
        let gate = &field.gate;
        if gate.is_deprecated_in(new) && !gate.is_deprecated_in(old) {
            self.fields_deprecated.push(Item::plain(full.to_owned()));
        }
        match (field.is_required_in(old), field.is_required_in(new)) {
            (false, true) => self.fields_now_required.push(Item {
                name: full.to_owned(),
                note: format!("optional in {old}, required in {new}"),
            }),
            (true, false) => self.fields_now_optional.push(Item {
                name: full.to_owned(),
                note: format!("required in {old}, optional in {new}"),
            }),
            _ => {}
        }
        let (old_ty, new_ty) = (field.type_in(old), field.type_in(new));
        if old_ty != new_ty {
            self.fields_retyped.push(Item {
                name: full.to_owned(),
                note: format!("{old_ty} → {new_ty}"),
            });
        }
        let (old_constraints, new_constraints) =
            (field.constraints_in(old), field.constraints_in(new));
        if old_constraints != new_constraints {
            self.fields_constrained.push(Item {
                name: full.to_owned(),
                note: constraint_changes(old_constraints, new_constraints),
            });
        }
        self.enum_changes(full, &field.values, field.values_known_from);
        // Element values are named `Type.field[]=value` for a list's items
        // and `Type.field{}=value` for a map's values.
        let element = match field.type_in(self.new) {
            TypeExpr::Map(_) => "{}",
            TypeExpr::Array(_) | TypeExpr::Scalar(_) | TypeExpr::Definition(_) => "[]",
        };
        self.enum_changes(
            &format!("{full}{element}"),
            &field.element_values,
            field.values_known_from,
        );
    }

    /// Records what changes about the enum of `owner` (a type, a field or a
    /// field's elements): values added or removed, or the whole enum first (or
    /// no longer) listed. What a spec lists is compared: before `known_from`
    /// (the field's `values_known_from`) its values are carried back, not
    /// listed.
    fn enum_changes(
        &mut self,
        owner: &str,
        values: &BTreeMap<String, Gate>,
        known_from: Option<Version>,
    ) {
        let (old, new) = (self.old, self.new);
        let listed = |minor: Version| {
            if known_from.is_some_and(|known_from| minor < known_from) {
                Vec::new()
            } else {
                values_listed_in(values, minor)
            }
        };
        let (in_old, in_new) = (listed(old), listed(new));
        let whole = |listed: Vec<&str>| Item {
            name: owner.to_owned(),
            note: show_values(&listed),
        };
        match (in_old.is_empty(), in_new.is_empty()) {
            (true, false) => self.enums_first_listed.push(whole(in_new)),
            (false, true) => self.enums_no_longer_listed.push(whole(in_old)),
            _ => {
                for (value, gate) in values {
                    let item = Item::plain(format!("{owner}={value}"));
                    match (gate.is_present_in(old), gate.is_present_in(new)) {
                        (false, true) => self.values_added.push(item),
                        (true, false) => self.values_removed.push(item),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// What differs between two sets of constraints, key by key:
/// `maxLength 20 → 63, pattern ^[a-z]+$ → none`.
fn constraint_changes(old: &Constraints, new: &Constraints) -> String {
    let entries = |constraints: &Constraints| -> BTreeMap<String, String> {
        let value = serde_json::to_value(constraints).expect("constraints serialize");
        value
            .as_object()
            .map(|object| {
                object
                    .iter()
                    .map(|(key, value)| {
                        let text = match value {
                            serde_json::Value::String(text) => text.clone(),
                            other => other.to_string(),
                        };
                        (key.clone(), text)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let rules = rule_changes(&old.rules, &new.rules);
    let (old, new) = (entries(old), entries(new));
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let none = "none".to_owned();
    keys.into_iter()
        .filter(|key| *key != "rules" && old.get(*key) != new.get(*key))
        .map(|key| {
            let before = old.get(key).unwrap_or(&none);
            let after = new.get(key).unwrap_or(&none);
            format!("{key} {before} → {after}")
        })
        .chain(rules)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What differs between two lists of CEL rules, rule by rule (a rule is
/// its expression): `rule added `…`: message`, `rule removed `…``, and
/// `rule `…` changed: message "a" → "b"`.
fn rule_changes(old: &[ValidationRule], new: &[ValidationRule]) -> Vec<String> {
    let find = |rules: &[ValidationRule], rule: &ValidationRule| {
        rules.iter().find(|other| other.rule == rule.rule).cloned()
    };
    let mut changes = Vec::new();
    for rule in new {
        match find(old, rule) {
            None => changes.push(format!("rule added {}", rule.describe())),
            Some(before) if before != *rule => {
                let shown = |rule: &ValidationRule| {
                    format!(
                        "{:?}",
                        rule.message
                            .as_deref()
                            .or(rule.message_expression.as_deref())
                            .unwrap_or("")
                    )
                };
                let mut what = Vec::new();
                if (&before.message, &before.message_expression)
                    != (&rule.message, &rule.message_expression)
                {
                    what.push(format!("message {} → {}", shown(&before), shown(rule)));
                }
                if before.field_path != rule.field_path || before.reason != rule.reason {
                    what.push("fieldPath or reason changed".to_owned());
                }
                changes.push(format!("rule `{}` changed: {}", rule.rule, what.join(", ")));
            }
            Some(_) => {}
        }
    }
    for rule in old {
        if find(new, rule).is_none() {
            changes.push(format!("rule removed {}", rule.describe()));
        }
    }
    changes
}

impl Changelog {
    /// Records the members the union `name` gains or loses.
    fn member_changes(&mut self, name: &str, union: &UnionGate) {
        for (member, gate) in &union.members {
            let item = Item {
                name: format!("{name}|{member}"),
                note: union.kind.keyword().to_owned(),
            };
            match (gate.is_present_in(self.old), gate.is_present_in(self.new)) {
                (false, true) => self.members_added.push(item),
                (true, false) => self.members_removed.push(item),
                _ => {}
            }
        }
    }
}

impl Item {
    fn plain(name: String) -> Item {
        Item {
            name,
            note: String::new(),
        }
    }
}

/// The changelog from `old` to `new` (either order works; `new` is what you
/// move to).
pub fn diff(tables: &GateTables, old: Version, new: Version) -> Changelog {
    let mut log = Changelog {
        api: tables.api().to_owned(),
        old,
        new,
        ..Changelog::default()
    };
    let appears = |gate: &Gate| !gate.is_present_in(old) && gate.is_present_in(new);
    let disappears = |gate: &Gate| gate.is_present_in(old) && !gate.is_present_in(new);
    for (name, ty) in tables.types() {
        let kinds = || {
            ty.kinds
                .iter()
                .map(|k| format!("{} {}", k.api_version(), k.kind))
        };
        if appears(&ty.gate) {
            log.types_added.push(name.to_owned());
            log.kinds_added.extend(kinds());
        } else if disappears(&ty.gate) {
            log.types_removed.push(name.to_owned());
            log.kinds_removed.extend(kinds());
        }
        let both = ty.gate.is_present_in(old) && ty.gate.is_present_in(new);
        if both {
            log.enum_changes(name, &ty.values, None);
            // A type's own constraints (an object's CEL rules, most often).
            let (old_constraints, new_constraints) =
                (ty.constraints_in(old), ty.constraints_in(new));
            if old_constraints != new_constraints {
                log.fields_constrained.push(Item {
                    name: name.to_owned(),
                    note: constraint_changes(old_constraints, new_constraints),
                });
            }
            // Where the API publishes the kind's lifecycle, the API
            // server's own warning decides, and is the note.
            let warns = |minor: Version| match ty.api_lifecycle_in(minor) {
                Some(said) if said.deprecated.is_some() => said.is_deprecated_in(minor),
                _ => ty.gate.is_deprecated_in(minor),
            };
            if warns(new) && !warns(old) {
                let server = ty
                    .kinds
                    .first()
                    .and_then(|kind| crate::gates::warning_in(&ty.api_lifecycle, kind, new));
                let note = match (&ty.deprecation_warning, server) {
                    (_, Some(server)) => server,
                    (Some(warning), None) => warning.clone(),
                    (None, None) if ty.gate.inferred.contains(&Inferred::DeprecatedIn) => {
                        "inferred from its description".to_owned()
                    }
                    (None, None) => String::new(),
                };
                log.kinds_deprecated.extend(kinds().map(|name| Item {
                    name,
                    note: note.clone(),
                }));
            }
            if let Some(union) = &ty.union {
                log.member_changes(name, union);
            }
        }
        if !both {
            // Fields of an added or removed type are covered by the type.
            continue;
        }
        for (field_name, field) in &ty.fields {
            let full = format!("{name}.{field_name}");
            let gate = &field.gate;
            if appears(gate) {
                let mut note = field.type_in(new).to_string();
                if field.is_required_in(new) {
                    note.push_str(", required");
                }
                if let Some(stage) = gate.stage_in(new) {
                    let _ = write!(note, ", {}", format!("{stage:?}").to_lowercase());
                }
                if let Some(feature_gate) = &gate.feature_gate {
                    let _ = write!(note, ", feature gate {feature_gate}");
                }
                if let Some(rename) = field
                    .renamed_from
                    .as_ref()
                    .filter(|r| r.in_version == new || (old < r.in_version && r.in_version <= new))
                {
                    let _ = write!(note, ", renamed from {}", rename.from);
                }
                log.fields_added.push(Item { name: full, note });
                continue;
            }
            if disappears(gate) {
                let note = ty
                    .fields
                    .iter()
                    .find(|(_, other)| {
                        other.renamed_from.as_ref().is_some_and(|r| {
                            r.from == *field_name && old < r.in_version && r.in_version <= new
                        })
                    })
                    .map_or_else(String::new, |(other, _)| format!("renamed to {other}"));
                log.fields_removed.push(Item { name: full, note });
                continue;
            }
            if !(gate.is_present_in(old) && gate.is_present_in(new)) {
                continue;
            }
            log.field_kept(&full, field);
        }
    }
    log.kinds_added.sort();
    log.kinds_removed.sort();
    log.kinds_deprecated.sort_by(|a, b| a.name.cmp(&b.name));
    log
}
