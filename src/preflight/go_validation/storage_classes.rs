//! storage.k8s.io's StorageClass checks (k8s.io/kubernetes
//! `pkg/apis/storage/validation` `ValidateStorageClass`): the provisioner a
//! qualified name, the parameters' count and size, the reclaim policy and
//! binding mode (after the server's defaults: `Delete`, `Immediate`), the
//! allowed topologies' terms.

use super::read::{entries, get, items, line_of, text, Findings, Path};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;
use crate::walk::go_quoted;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[("io.k8s.api.storage.v1.StorageClass", storage_class)];

/// At most this many parameters, of this many bytes of keys and values.
const MAX_PARAMETERS: usize = 512;
const MAX_PARAMETERS_SIZE: usize = 256 * 1024;

/// `ValidateStorageClass`.
fn storage_class(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let at = |key| line_of(object, key, line);
    let provisioner = text(object, "provisioner");
    if provisioner.is_empty() {
        found.required(root.key("provisioner"), at("provisioner"), "");
    } else {
        let lower = provisioner.to_lowercase();
        found.invalid_each(
            root.key("provisioner"),
            at("provisioner"),
            &lower,
            names::qualified_name(&lower),
        );
    }
    let parameters = entries(get(object, "parameters"));
    if parameters.len() > MAX_PARAMETERS {
        found.too_long(root.key("parameters"), at("parameters"), MAX_PARAMETERS);
    } else {
        for entry in parameters.iter().filter(|entry| entry.key.is_empty()) {
            found.invalid(
                root.key("parameters"),
                entry.line,
                "\"\"",
                "field can not be empty.",
            );
        }
        let size: usize = parameters
            .iter()
            .map(|entry| entry.key.len() + entry.value.as_str().map_or(0, str::len))
            .sum();
        if size > MAX_PARAMETERS_SIZE {
            found.too_long(
                root.key("parameters"),
                at("parameters"),
                MAX_PARAMETERS_SIZE,
            );
        }
    }
    if let Some(policy) = get(object, "reclaimPolicy").and_then(Node::as_str) {
        if !policy.is_empty() && policy != "Delete" && policy != "Retain" {
            found.not_supported(
                root.key("reclaimPolicy"),
                at("reclaimPolicy"),
                policy,
                &["Delete", "Retain"],
            );
        }
    }
    if let Some(mode) = get(object, "volumeBindingMode").and_then(Node::as_str) {
        if mode != "Immediate" && mode != "WaitForFirstConsumer" {
            let supported = ["Immediate", "WaitForFirstConsumer"];
            found.not_supported(
                root.key("volumeBindingMode"),
                at("volumeBindingMode"),
                mode,
                &supported,
            );
        }
    }
    topologies(
        items(get(object, "allowedTopologies")),
        root.key("allowedTopologies"),
        found,
    );
}

/// One term's requirements as the server compares terms: by key (the
/// last of a repeated key), each with its set of values.
type Term<'n> = Vec<(&'n str, Vec<&'n str>)>;

/// `validateAllowedTopologies`: each term's requirements, and no term
/// equal to another. The server compares each term with a list it
/// pre-fills with one empty term per term, so an empty term is a
/// duplicate once per term.
fn topologies(terms: &[Node], at: Path<'_>, found: &mut Findings<'_>) {
    let mut seen: Vec<Term<'_>> = Vec::with_capacity(terms.len());
    for (index, term) in terms.iter().enumerate() {
        let term_path = at.index(index);
        let expressions_path = term_path.key("matchLabelExpressions");
        let fields = entries(Some(term));
        let mut by_key: Term<'_> = Vec::new();
        for (index, expression) in items(get(fields, "matchLabelExpressions"))
            .iter()
            .enumerate()
        {
            let expression_path = expressions_path.index(index);
            let requirement = entries(Some(expression));
            let values_path = expression_path.key("values");
            let values = items(get(requirement, "values"));
            let line = expression.line;
            if values.is_empty() {
                found.required(values_path, line_of(requirement, "values", line), "");
            }
            let mut set: Vec<&str> = Vec::with_capacity(values.len());
            for (index, value) in values.iter().enumerate() {
                let text = value.as_str().unwrap_or("");
                if set.contains(&text) {
                    found.duplicate(values_path.index(index), value.line, &go_quoted(text));
                } else {
                    set.push(text);
                }
            }
            set.sort_unstable();
            let key = text(requirement, "key");
            found.invalid_each(
                expression_path.key("key"),
                line_of(requirement, "key", line),
                key,
                names::qualified_name(key),
            );
            match by_key.iter_mut().find(|(known, _)| *known == key) {
                Some(slot) => {
                    found.duplicate(expression_path.key("key"), line, &go_quoted(key));
                    slot.1 = set;
                }
                None => by_key.push((key, set)),
            }
        }
        by_key.sort_unstable();
        let empties = if by_key.is_empty() { terms.len() } else { 0 };
        let equal = seen.iter().filter(|known| **known == by_key).count();
        for _ in 0..empties + equal {
            found.duplicate(expressions_path, term.line, "\"\"");
        }
        seen.push(by_key);
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found;

    const CLASS: &str = "io.k8s.api.storage.v1.StorageClass";

    #[test]
    fn provisioner_policies_and_topologies() {
        assert!(found(CLASS, "provisioner: example.com/fast\nreclaimPolicy: Delete\nvolumeBindingMode: WaitForFirstConsumer\n").is_empty());
        assert!(found(CLASS, "provisioner: example.com/fast\nreclaimPolicy: ''\n").is_empty());
        let bad =
            "provisioner: bad provisioner\nreclaimPolicy: Recycle\nvolumeBindingMode: Later\n";
        let messages = found(CLASS, bad);
        assert!(messages[0].starts_with(
            "provisioner@1: Invalid value: \"bad provisioner\": name part must consist"
        ));
        assert_eq!(messages[1], "reclaimPolicy@2: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"");
        assert_eq!(messages[2], "volumeBindingMode@3: Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\"");
        let topologies = "provisioner: a.io/b\nallowedTopologies:\n- matchLabelExpressions: [{key: zone, values: [a, a]}]\n- matchLabelExpressions: [{key: zone, values: [a]}]\n- matchLabelExpressions: [{key: zone, values: []}]\n";
        assert_eq!(
            found(CLASS, topologies),
            [
                "allowedTopologies[0].matchLabelExpressions[0].values[1]@3: Duplicate value: \"a\"",
                "allowedTopologies[1].matchLabelExpressions@4: Duplicate value: \"\"",
                "allowedTopologies[2].matchLabelExpressions[0].values@5: Required value",
            ]
        );
        assert_eq!(
            found(
                CLASS,
                "provisioner: a.io/b\nallowedTopologies: [{matchLabelExpressions: []}]\n"
            ),
            ["allowedTopologies[0].matchLabelExpressions@2: Duplicate value: \"\""]
        );
    }
}
