//! Completion: the fields of the target minor at the cursor's place, or the
//! enum values the target accepts there, each with its lifecycle line.
//! Fields and values of other minors are not offered.

use super::lifecycle;
use super::locate;
use super::schema;
use crate::gates::TypeExpr;
use crate::tables::GateTables;
use crate::Version;

/// One item to offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    /// The field's type or "value".
    pub detail: String,
    /// The lifecycle line, when there is more to say than "every minor".
    pub lifecycle: Option<String>,
    pub is_field: bool,
    /// What typing the item replaces: the word typed so far.
    pub replace: std::ops::Range<usize>,
    pub deprecated: bool,
}

/// The items at `offset`. The text need not read: block YAML being typed
/// is located by indentation.
pub fn at(tables: &GateTables, target: Version, text: &str, offset: usize) -> Vec<Item> {
    let located = locate::by_indentation(text, offset);
    let (Some(api_version), Some(kind)) = (located.api_version.clone(), located.kind.clone())
    else {
        return Vec::new();
    };
    let Some(root) = schema::root_type(tables, &api_version, &kind) else {
        return Vec::new();
    };
    let corpus = tables.versions();
    if located.on_key {
        let parent = &located.path[..located.path.len().saturating_sub(1)];
        let Some(resolved) = schema::resolve(tables, root, parent, target) else {
            return Vec::new();
        };
        let TypeExpr::Definition(name) = &resolved.ty else {
            return Vec::new();
        };
        return schema::fields_in(tables, name, target)
            .into_iter()
            .map(|(field, gate)| Item {
                label: field.to_owned(),
                detail: gate.type_in(target).to_string(),
                lifecycle: lifecycle::line(&gate.gate, target, corpus),
                is_field: true,
                replace: located.word.clone(),
                deprecated: gate.gate.is_deprecated_in(target),
            })
            .collect();
    }
    let path = &located.path;
    let Some(resolved) = schema::resolve(tables, root, path, target) else {
        return Vec::new();
    };
    let Some(values) = schema::values(tables, &resolved) else {
        return Vec::new();
    };
    values
        .iter()
        .filter(|(_, gate)| gate.is_present_in(target))
        .map(|(value, gate)| Item {
            label: value.clone(),
            detail: "value".into(),
            lifecycle: lifecycle::line(gate, target, corpus),
            is_field: false,
            replace: located.word.clone(),
            deprecated: gate.is_deprecated_in(target),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, target: &str) -> Vec<Item> {
        let tables = crate::embedded::kubernetes();
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        super::at(&tables, target.parse().unwrap(), &text, at)
    }

    #[test]
    fn only_the_targets_fields_with_their_lifecycle() {
        let text = "apiVersion: v1\nkind: Service\nspec:\n  traf|\n";
        let items = labels(text, "1.34");
        let item = items
            .iter()
            .find(|i| i.label == "trafficDistribution")
            .expect("offered in 1.34");
        assert!(item
            .lifecycle
            .as_deref()
            .unwrap()
            .starts_with("Introduced in 1.30"));
        assert!(items.iter().any(|i| i.label == "ports"));
        let items = labels(text, "1.29");
        assert!(items.iter().all(|i| i.label != "trafficDistribution"));
        assert!(items.iter().any(|i| i.label == "ports"));
    }

    #[test]
    fn enum_values_of_the_target() {
        let text = "apiVersion: v1\nkind: Service\nspec:\n  type: |\n";
        let items = labels(text, "1.34");
        let names: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert!(
            names.contains(&"ClusterIP") && names.contains(&"NodePort"),
            "{names:?}"
        );
        assert!(items.iter().all(|i| !i.is_field));
    }
}
