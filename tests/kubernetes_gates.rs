//! gates.json against the real Kubernetes corpus: for every definition and
//! every (definition, property) pair of v1.28 … v1.36, the gate reproduces
//! exactly the set of minors whose spec has it.

mod support;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use vergate::gates::{Gate, GatesIndex, Inferred};
use vergate::Version;

/// A minor, as gates compare it.
fn v(minor: &str) -> Option<Version> {
    Some(minor.parse().unwrap())
}

fn corpus_gates(specs: &std::path::Path) -> &'static GatesIndex {
    support::kubernetes_corpus_gates(specs)
}

/// Presence read straight from the raw specs, independently of the loader.
fn raw_presence(specs: &std::path::Path) -> BTreeMap<(String, Option<String>), BTreeSet<Version>> {
    let mut presence: BTreeMap<(String, Option<String>), BTreeSet<Version>> = BTreeMap::new();
    for minor in support::KUBERNETES_MINORS {
        let version: Version = minor.parse().unwrap();
        let text = std::fs::read(specs.join(minor).join("swagger.json")).unwrap();
        let doc: Value = serde_json::from_slice(&text).unwrap();
        for (name, schema) in doc["definitions"].as_object().unwrap() {
            presence
                .entry((name.clone(), None))
                .or_default()
                .insert(version);
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for property in properties.keys() {
                    presence
                        .entry((name.clone(), Some(property.clone())))
                        .or_default()
                        .insert(version);
                }
            }
        }
    }
    presence
}

fn minors_of(gate: &Gate, corpus: &[Version]) -> BTreeSet<Version> {
    corpus
        .iter()
        .copied()
        .filter(|v| gate.is_present_in(*v))
        .collect()
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn gates_reproduce_presence_of_every_definition_and_property() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let corpus = index.versions.clone();
    assert_eq!(corpus.len(), 9);

    let expected = raw_presence(&specs);
    let definitions = expected.keys().filter(|(_, p)| p.is_none()).count();
    let pairs = expected.len() - definitions;
    assert_eq!(
        (definitions, pairs),
        (960, 3770),
        "the corpus' README counts"
    );

    let mut actual: BTreeMap<(String, Option<String>), BTreeSet<Version>> = BTreeMap::new();
    for (name, ty) in &index.types {
        actual.insert((name.clone(), None), minors_of(&ty.gate, &corpus));
        for (field, gate) in &ty.fields {
            actual.insert(
                (name.clone(), Some(field.clone())),
                minors_of(&gate.gate, &corpus),
            );
        }
    }
    let mismatches: Vec<String> = expected
        .iter()
        .filter(|(key, minors)| actual.get(*key) != Some(*minors))
        .map(|((name, field), minors)| {
            format!(
                "{name}.{field:?}: specs {minors:?}, gates {:?}",
                actual.get(&(name.clone(), field.clone()))
            )
        })
        .take(10)
        .collect();
    assert!(
        mismatches.is_empty(),
        "gates differ from the specs:\n{}",
        mismatches.join("\n")
    );
    assert_eq!(
        actual.len(),
        expected.len(),
        "gates.json has entries no spec has"
    );

    let traffic = &index.types["io.k8s.api.core.v1.ServiceSpec"].fields["trafficDistribution"];
    assert_eq!(traffic.gate.introduced_in, "1.30".parse().unwrap());
    assert_eq!(traffic.gate.removed_in, None);
}

/// Element enums (`items.enum` of an array property, `additionalProperties.enum`
/// of a map property) read straight from the raw specs: (definition,
/// property) → value → the minors listing it.
fn raw_element_values(
    specs: &std::path::Path,
) -> BTreeMap<(String, String), BTreeMap<String, BTreeSet<Version>>> {
    let mut found: BTreeMap<(String, String), BTreeMap<String, BTreeSet<Version>>> =
        BTreeMap::new();
    for minor in support::KUBERNETES_MINORS {
        let version: Version = minor.parse().unwrap();
        let text = std::fs::read(specs.join(minor).join("swagger.json")).unwrap();
        let doc: Value = serde_json::from_slice(&text).unwrap();
        for (name, schema) in doc["definitions"].as_object().unwrap() {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (property, value) in properties.into_iter().flatten() {
                let element = value.get("items").or(value.get("additionalProperties"));
                let Some(values) = element
                    .and_then(|e| e.get("enum"))
                    .and_then(Value::as_array)
                else {
                    continue;
                };
                let entry = found.entry((name.clone(), property.clone())).or_default();
                for item in values {
                    let item = item.as_str().unwrap().to_owned();
                    entry.entry(item).or_default().insert(version);
                }
            }
        }
    }
    found
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn gates_reproduce_every_element_enum_value() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let corpus = index.versions.clone();

    let expected = raw_element_values(&specs);
    assert_eq!(
        expected.len(),
        13,
        "list properties with an item enum, map properties with a value enum"
    );
    let mut actual = BTreeMap::new();
    for (name, ty) in &index.types {
        for (field, gate) in ty
            .fields
            .iter()
            .filter(|(_, g)| !g.element_values.is_empty())
        {
            // What the specs list: carried-back minors (before
            // values_known_from) are not listed, only inferred.
            let listed = |value: &Gate| -> BTreeSet<Version> {
                minors_of(value, &corpus)
                    .into_iter()
                    .filter(|minor| gate.values_known_from.is_none_or(|from| *minor >= from))
                    .collect()
            };
            let values: BTreeMap<String, BTreeSet<Version>> = gate
                .element_values
                .iter()
                .map(|(value, gate)| (value.clone(), listed(gate)))
                .collect();
            actual.insert((name.clone(), field.clone()), values);
        }
    }
    assert_eq!(actual, expected);

    let families = &index.types["io.k8s.api.core.v1.ServiceSpec"].fields["ipFamilies"];
    assert_eq!(families.ty, "[]string");
    assert!(
        families.values.is_empty(),
        "item values are not field values"
    );
    // Listed from 1.34; the field, older, keeps its description, so the
    // list is carried back to 1.28, inferred.
    assert_eq!(families.values_known_from, v("1.34"));
    let since: Vec<(&str, String, Vec<Inferred>)> = families
        .element_values
        .iter()
        .map(|(value, gate)| {
            (
                value.as_str(),
                gate.introduced_in.to_string(),
                gate.inferred.clone(),
            )
        })
        .collect();
    let carried = |value| (value, "1.28".to_owned(), vec![Inferred::IntroducedIn]);
    assert_eq!(since, [carried(""), carried("IPv4"), carried("IPv6")]);
    assert_eq!(families.gate.introduced_in, "1.28".parse().unwrap());

    // The one map whose values are an enum: listed from 1.34 on, on a
    // field present since 1.28 whose description has not changed: carried
    // back to 1.28.
    let statuses = &index.types["io.k8s.api.core.v1.PersistentVolumeClaimStatus"].fields
        ["allocatedResourceStatuses"];
    assert_eq!(statuses.ty, "map[string]string");
    assert!(statuses.values.is_empty());
    assert_eq!(statuses.gate.introduced_in, "1.28".parse().unwrap());
    let listed: Vec<(&str, String, Option<Version>)> = statuses
        .element_values
        .iter()
        .map(|(value, gate)| {
            (
                value.as_str(),
                gate.introduced_in.to_string(),
                gate.removed_in,
            )
        })
        .collect();
    assert_eq!(statuses.values_known_from, v("1.34"));
    let since = |value| (value, "1.28".to_owned(), None);
    assert_eq!(
        listed,
        [
            since("ControllerResizeInProgress"),
            since("ControllerResizeInfeasible"),
            since("NodeResizeInProgress"),
            since("NodeResizeInfeasible"),
            since("NodeResizePending"),
        ]
    );
}

/// Deprecation prose inside one enum value's part of a description
/// deprecates that value, not the field: `PodStatus.phase` lists
/// `"Unknown"` … Deprecated: from 1.34, `EndpointSlice.addressType` says
/// `* FQDN: … (Deprecated)` from 1.33, and `persistentVolumeReclaimPolicy`
/// says "Recycle (deprecated)" in every minor.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn value_deprecations_land_on_the_value_not_the_field() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let field = |ty: &str, field: &str| &index.types[ty].fields[field];

    let cases = [
        ("io.k8s.api.core.v1.PodStatus", "phase", "Unknown", "1.34"),
        (
            "io.k8s.api.discovery.v1.EndpointSlice",
            "addressType",
            "FQDN",
            "1.33",
        ),
        (
            "io.k8s.api.core.v1.PersistentVolumeSpec",
            "persistentVolumeReclaimPolicy",
            "Recycle",
            "1.28",
        ),
    ];
    for (ty, name, value, since) in cases {
        let gate = field(ty, name);
        assert_eq!(gate.gate.deprecated_in, None, "{ty}.{name}");
        assert!(gate.gate.inferred.is_empty(), "{ty}.{name}");
        let deprecated: Vec<(&str, Option<Version>)> = gate
            .values
            .iter()
            .filter(|(_, gate)| gate.deprecated_in.is_some())
            .map(|(value, gate)| (value.as_str(), gate.deprecated_in))
            .collect();
        assert_eq!(deprecated, [(value, v(since))], "{ty}.{name}");
        assert!(
            gate.values[value]
                .inferred
                .contains(&Inferred::DeprecatedIn),
            "{ty}.{name}"
        );
    }
    // A field whose own prose says it is deprecated keeps it, and its
    // values stay clean.
    let node_phase = field("io.k8s.api.core.v1.NodeStatus", "phase");
    assert_eq!(node_phase.gate.deprecated_in, v("1.28"));
    assert!(node_phase
        .values
        .values()
        .all(|g| g.deprecated_in.is_none()));
}

/// Every property of every minor, read straight from the raw specs: its
/// description and its enum (the property's own or its items'/values').
fn raw_properties(specs: &std::path::Path) -> BTreeMap<(String, String), BTreeMap<Version, Value>> {
    let mut out: BTreeMap<(String, String), BTreeMap<Version, Value>> = BTreeMap::new();
    for minor in support::KUBERNETES_MINORS {
        let version: Version = minor.parse().unwrap();
        let text = std::fs::read(specs.join(minor).join("swagger.json")).unwrap();
        let doc: Value = serde_json::from_slice(&text).unwrap();
        for (name, schema) in doc["definitions"].as_object().unwrap() {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                continue;
            };
            for (property, schema) in properties {
                out.entry((name.clone(), property.clone()))
                    .or_default()
                    .insert(version, schema.clone());
            }
        }
    }
    out
}

/// #20: of the fields whose description names a feature gate in some minor
/// (any capitalised word of a sentence that says "feature gate", read here
/// without the generator's parser), at least 90 % carry that gate in
/// gates.json, as `feature_gate` or among `related_feature_gates`.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn fields_carry_the_feature_gates_their_descriptions_name() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let mut named = 0;
    let mut missing = Vec::new();
    let mut guarded = 0;
    for ((ty, field), by_minor) in raw_properties(&specs) {
        let mut candidates = BTreeSet::new();
        for schema in by_minor.values() {
            let text = schema["description"].as_str().unwrap_or_default();
            let prose = text.split("\n\nPossible enum values:").next().unwrap();
            for sentence in prose.split(". ") {
                let lower = sentence.to_lowercase();
                if !["feature gate", "feature-gate", "featuregate"]
                    .iter()
                    .any(|marker| lower.contains(marker))
                {
                    continue;
                }
                for word in sentence.split(|c: char| !c.is_ascii_alphanumeric()) {
                    let camel = word.len() > 3
                        && word.starts_with(|c: char| c.is_ascii_uppercase())
                        && word.chars().skip(1).any(|c| c.is_ascii_lowercase())
                        && word.chars().skip(1).any(|c| c.is_ascii_uppercase());
                    if camel {
                        candidates.insert(word.to_owned());
                    }
                }
            }
        }
        if candidates.is_empty() {
            continue;
        }
        named += 1;
        let gate = &index.types[&ty].fields[&field].gate;
        guarded += usize::from(gate.feature_gate.is_some());
        let carried = gate
            .feature_gate
            .iter()
            .chain(&gate.related_feature_gates)
            .any(|name| candidates.contains(name));
        if !carried {
            missing.push(format!("{ty}.{field} {candidates:?}"));
        }
    }
    let carried = named - missing.len();
    assert!(named >= 120, "the corpus names gates in {named} fields");
    assert!(
        carried * 10 >= named * 9,
        "{carried} of {named} fields carry their gate; missing:\n{}",
        missing.join("\n")
    );
    assert!(
        guarded * 2 >= named,
        "{guarded} of {named} fields have a guarding feature_gate"
    );
}

/// #20: where a field's enum is first listed in a minor after the field's
/// first, gates.json says the list is known from that minor, and values of
/// that first listing are either carried back (inferred) or dated no later
/// than it: no value is claimed new in the minor that merely lists it.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn enum_values_are_not_dated_by_their_first_listing() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let (mut late, mut carried) = (0, 0);
    for ((ty, field), by_minor) in raw_properties(&specs) {
        let listing = |schema: &Value| {
            schema
                .get("enum")
                .or_else(|| schema.pointer("/items/enum"))
                .or_else(|| schema.pointer("/additionalProperties/enum"))
                .and_then(Value::as_array)
                .map(|values| values.len())
                .unwrap_or(0)
        };
        let first_minor = *by_minor.keys().next().unwrap();
        let Some((&first_listed, _)) = by_minor.iter().find(|(_, schema)| listing(schema) > 0)
        else {
            continue;
        };
        if first_listed == first_minor {
            continue;
        }
        late += 1;
        let gate = &index.types[&ty].fields[&field];
        assert_eq!(gate.values_known_from, Some(first_listed), "{ty}.{field}");
        let values = gate.values.values().chain(gate.element_values.values());
        let mut any_carried = false;
        for value in values {
            let carried_back = value.inferred.contains(&Inferred::IntroducedIn);
            assert!(
                !carried_back || value.introduced_in < first_listed,
                "{ty}.{field}"
            );
            any_carried |= carried_back;
        }
        carried += usize::from(any_carried);
    }
    assert!(late >= 100, "{late} fields listed late");
    assert!(carried * 10 >= late * 7, "{carried} of {late} carried back");
    let pull = &index.types["io.k8s.api.core.v1.Container"].fields["imagePullPolicy"];
    assert_eq!(pull.values["Always"].introduced_in, "1.28".parse().unwrap());
}
