//! Where each definition lives inside a minor's module, and its Rust names.
//!
//! **Module rule.** A definition's module comes from its namespace (the
//! definition name without its last segment), chosen once for the whole API
//! so that a type has the same path in every minor:
//!
//! - a namespace ending in an API version (`v1`, `v2beta1`) is
//!   `<group>::<version>`, where `<group>` is the first label of the group the
//!   namespace's kinds are served in (`networking.k8s.io` → `networking`,
//!   the core group `""` → `core`), or, when its definitions are served as no
//!   single group's kinds, the segment before the version
//!   (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` → `meta::v1`);
//! - any other namespace is its last segment
//!   (`io.k8s.apimachinery.pkg.api.resource.Quantity` → `resource`);
//! - when a group label would put two namespaces in one module (the meta
//!   types `APIGroup` and `Status` are served in the core group too), the
//!   namespace whose own segment differs from the label falls back to its
//!   segment (`meta::v1`, not `core::v1`);
//! - namespaces that still share a module take one more namespace segment in
//!   front of the group (`foo_bar::v1`), until they do not.
//!
//! Segments are snake_case ASCII; `prelude` and Rust keywords are escaped.
//!
//! **Names.** Types are the UpperCamelCase of the definition's last segment,
//! fields the snake_case of the wire name, enum variants the UpperCamelCase
//! of the value (`""` is `Empty`: `crate::derive::variant_name`); names that
//! are not identifiers lose their other characters,
//! keywords become raw identifiers. Names that still collide (`foo-bar`,
//! `foo_bar` and `fooBar` are all `foo_bar`) keep the plain name for the one
//! spelled exactly so (else the first in byte order) and take `_2`, `_3`, …
//! (fields) or `2`, `3`, … (types, variants: `IDResponse` and `IdResponse`
//! are `IdResponse` and `IdResponse2`) in byte order for the others, over
//! every minor at once.

use crate::derive::ident;
use crate::model::naming::{group_label, namespace_of, namespace_segments, versioned};
use crate::model::GatedModel;
use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::Ident;
use quote::format_ident;
use std::collections::{BTreeMap, BTreeSet};

/// A module segment that is also the name of what the emitter puts beside
/// the groups in each minor.
const RESERVED_SEGMENTS: &[&str] = &["prelude"];

/// The module and Rust names of every definition, field and enum value.
#[derive(Debug)]
pub struct Names {
    modules: BTreeMap<String, Vec<String>>,
    // Identifiers as text (`r#type`): `Names` is shared between threads,
    // which proc_macro2's `Ident` cannot be.
    types: BTreeMap<String, String>,
    fields: BTreeMap<String, BTreeMap<String, String>>,
    variants: BTreeMap<String, BTreeMap<String, String>>,
}

impl Names {
    /// Names everything `model` defines.
    pub fn new(model: &GatedModel) -> Names {
        let modules = module_paths(model);
        let mut by_module: BTreeMap<&[String], Vec<&str>> = BTreeMap::new();
        for name in model.types.keys() {
            by_module
                .entry(&modules[namespace_of(name)])
                .or_default()
                .push(name);
        }
        let mut types = BTreeMap::new();
        for names in by_module.values() {
            let last = |name: &str| name.rsplit('.').next().unwrap_or(name).to_owned();
            let lasts: Vec<String> = names.iter().map(|name| last(name)).collect();
            for (name, ident) in names.iter().zip(unique(&lasts, type_candidate, "")) {
                types.insert((*name).to_owned(), ident);
            }
        }
        let mut fields = BTreeMap::new();
        let mut variants = BTreeMap::new();
        for (name, ty) in &model.types {
            let wires: Vec<String> = ty.fields.keys().cloned().collect();
            let idents = unique(&wires, field_candidate, "_");
            fields.insert(name.clone(), wires.into_iter().zip(idents).collect());
            let values: Vec<String> = ty.values.keys().cloned().collect();
            let idents = unique(&values, crate::derive::variant_name, "");
            variants.insert(name.clone(), values.into_iter().zip(idents).collect());
        }
        Names {
            modules: modules
                .into_iter()
                .map(|(namespace, path)| (namespace.to_owned(), path))
                .collect(),
            types,
            fields,
            variants,
        }
    }

    /// The module segments of definition `name` inside a minor (`["core", "v1"]`).
    pub fn module(&self, name: &str) -> &[String] {
        &self.modules[namespace_of(name)]
    }

    /// The Rust name of definition `name`.
    pub fn type_ident(&self, name: &str) -> Ident {
        syn_ident(&self.types[name])
    }

    /// The Rust name of field `wire` of definition `type_name`.
    pub fn field_ident(&self, type_name: &str, wire: &str) -> Ident {
        syn_ident(&self.fields[type_name][wire])
    }

    /// The Rust name of enum value `value` of definition `type_name`.
    pub fn variant_ident(&self, type_name: &str, value: &str) -> Ident {
        syn_ident(&self.variants[type_name][value])
    }
}

/// Keeps ASCII letters, digits and `_`; everything else separates words.
fn ascii_words(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn type_candidate(name: &str) -> String {
    ascii_words(name).to_upper_camel_case()
}

fn field_candidate(name: &str) -> String {
    ascii_words(name).to_snake_case()
}

/// One identifier per name (in the given order), distinct from each other:
/// a name that collides takes `separator` and a number (`_2` for fields,
/// plain `2` for UpperCamelCase types and variants, which `_` would make
/// non-camel-case).
fn unique(names: &[String], candidate: impl Fn(&str) -> String, separator: &str) -> Vec<String> {
    let candidates: Vec<String> = names.iter().map(|n| candidate(n)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &candidates {
        *count.entry(c.as_str()).or_default() += 1;
    }
    // Who keeps the plain name: the only holder, else the one spelled exactly
    // so, else the first in byte order.
    let mut plain: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, c) in candidates.iter().enumerate() {
        let exact = names[index] == *c;
        match plain.get(c.as_str()) {
            None => {
                plain.insert(c, index);
            }
            Some(&holder) if exact && names[holder] != *c => {
                plain.insert(c, index);
            }
            Some(_) => {}
        }
    }
    let mut used: BTreeSet<String> = plain.keys().map(|c| ident(c).to_string()).collect();
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|a, b| names[*a].cmp(&names[*b]));
    let mut out: Vec<Option<String>> = vec![None; names.len()];
    for index in order {
        let c = candidates[index].as_str();
        if plain[c] == index {
            out[index] = Some(ident(c).to_string());
            continue;
        }
        let mut n = 2;
        let chosen = loop {
            let name = ident(&format!("{c}{separator}{n}")).to_string();
            if used.insert(name.clone()) {
                break name;
            }
            n += 1;
        };
        out[index] = Some(chosen);
    }
    out.into_iter()
        .map(|i| i.expect("every name is assigned"))
        .collect()
}

/// The module path of every namespace.
fn module_paths(model: &GatedModel) -> BTreeMap<&str, Vec<String>> {
    let mut groups = namespace_groups(model);
    let namespaces: BTreeSet<&str> = model.types.keys().map(|n| namespace_of(n)).collect();
    let split: BTreeMap<&str, Vec<&str>> = namespaces
        .iter()
        .map(|ns| (*ns, namespace_segments(ns)))
        .collect();
    // A group label that clashes gives way to the namespace's own segment.
    loop {
        let mut holders: BTreeMap<Vec<String>, Vec<&str>> = BTreeMap::new();
        for ns in &namespaces {
            holders
                .entry(path_of(&split[ns], groups.get(ns).copied(), 0))
                .or_default()
                .push(ns);
        }
        let borrowed: Vec<&str> = holders
            .values()
            .filter(|clash| clash.len() > 1)
            .flatten()
            .copied()
            .filter(|ns| {
                let own = path_of(&split[ns], None, 0);
                groups.contains_key(ns) && path_of(&split[ns], groups.get(ns).copied(), 0) != own
            })
            .collect();
        if borrowed.is_empty() {
            break;
        }
        for ns in borrowed {
            groups.remove(ns);
        }
    }
    // How many extra namespace segments each namespace takes in front.
    let mut extra: BTreeMap<&str, usize> = namespaces.iter().map(|ns| (*ns, 0)).collect();
    loop {
        let paths: BTreeMap<&str, Vec<String>> = namespaces
            .iter()
            .map(|ns| (*ns, path_of(&split[ns], groups.get(ns).copied(), extra[ns])))
            .collect();
        let mut holders: BTreeMap<&Vec<String>, Vec<&str>> = BTreeMap::new();
        for (ns, path) in &paths {
            holders.entry(path).or_default().push(ns);
        }
        let mut grew = false;
        for clash in holders.values().filter(|h| h.len() > 1) {
            for ns in clash {
                if extra[ns] < split[ns].len() {
                    *extra.get_mut(ns).expect("every namespace has an entry") += 1;
                    grew = true;
                }
            }
        }
        if !grew {
            return paths;
        }
    }
}

/// The module path of a namespace: group (or last segment) and version.
fn path_of(segments: &[&str], group: Option<&str>, extra: usize) -> Vec<String> {
    let (group, version, before) = match versioned(segments) {
        Some(split) => (
            group.unwrap_or(split.group).to_owned(),
            Some(split.version),
            split.before,
        ),
        None => {
            let Some((last, rest)) = segments.split_last() else {
                return Vec::new();
            };
            ((*last).to_owned(), None, rest)
        }
    };
    let taken = extra.min(before.len());
    let mut head: Vec<&str> = before[before.len() - taken..].to_vec();
    head.push(&group);
    let mut path = vec![segment(&head.join("_"))];
    path.extend(version.map(segment));
    path
}

fn segment(raw: &str) -> String {
    let snake = ascii_words(raw).to_snake_case();
    let snake = if snake.is_empty() {
        "_".to_owned()
    } else {
        snake
    };
    if RESERVED_SEGMENTS.contains(&snake.as_str()) {
        return format!("{snake}_");
    }
    ident(&snake).to_string()
}

/// The first label of the one group each namespace's kinds are served in
/// (`core` for the core group), for namespaces that have one.
fn namespace_groups(model: &GatedModel) -> BTreeMap<&str, &str> {
    let mut seen: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for minor in model.minors.values() {
        for definition in minor.definitions.values() {
            // Meta types (`DeleteOptions`, `WatchEvent`) are served in many
            // groups: only single-group definitions say where they belong.
            let groups: BTreeSet<&str> = definition
                .kinds
                .iter()
                .map(|kind| kind.group.as_str())
                .collect();
            if groups.len() == 1 {
                let group = groups.into_iter().next().expect("one group");
                let label = match group_label(group) {
                    "" => "core",
                    label => label,
                };
                seen.entry(namespace_of(&definition.name))
                    .or_default()
                    .insert(label);
            }
        }
    }
    seen.into_iter()
        .filter(|(_, labels)| labels.len() == 1)
        .map(|(ns, labels)| (ns, labels.into_iter().next().expect("one label")))
        .collect()
}

/// An identifier from a segment that may be raw (`r#type`).
pub fn syn_ident(segment: &str) -> Ident {
    match segment.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, proc_macro2::Span::call_site()),
        None => format_ident!("{segment}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_of_namespace() {
        let path = |segments: &[&str], group| path_of(segments, group, 0);
        assert_eq!(
            path(&["io", "k8s", "api", "core", "v1"], Some("core")),
            ["core", "v1"]
        );
        assert_eq!(
            path(
                &["io", "k8s", "apimachinery", "pkg", "apis", "meta", "v1"],
                None
            ),
            ["meta", "v1"]
        );
        assert_eq!(
            path(
                &["io", "k8s", "api", "networking", "v1"],
                Some("networking")
            ),
            ["networking", "v1"]
        );
        assert_eq!(
            path(
                &["io", "k8s", "apimachinery", "pkg", "api", "resource"],
                None
            ),
            ["resource"]
        );
        assert_eq!(
            path_of(&["x", "foo", "bar", "v1"], None, 1),
            ["foo_bar", "v1"]
        );
        assert_eq!(path(&["a", "prelude"], None), ["prelude_"]);
        assert_eq!(path(&["a", "type"], None), ["r#type"]);
    }

    #[test]
    fn colliding_variants_get_numbers_in_byte_order() {
        // In byte order, as `Names` lists a type's values.
        let values: Vec<String> = ["", "1", "A_B", "Empty", "a-b", "a_b", "type"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let idents = unique(&values, crate::derive::variant_name, "");
        assert_eq!(
            idents,
            ["Empty2", "V1", "AB", "Empty", "AB2", "AB3", "Type"]
        );
    }

    #[test]
    fn colliding_names_get_suffixes() {
        let names: Vec<String> = [
            "foo-bar", "fooBar", "foo_bar", "type", "self", "$ref", "x-foo",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let idents = unique(&names, field_candidate, "_");
        assert_eq!(
            idents,
            [
                "foo_bar_2",
                "foo_bar_3",
                "foo_bar",
                "r#type",
                "self_",
                "r#ref",
                "x_foo"
            ]
        );
    }
}
