//! gates.json against the real Kubernetes corpus: for every definition and
//! every (definition, property) pair of v1.28 … v1.36, the gate reproduces
//! exactly the set of minors whose spec has it.

mod support;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;
use vergate::gates::{Gate, GatesIndex};
use vergate::Version;
use vergate_codegen::api::Api;
use vergate_codegen::regen;

/// The gates.json a regen of the whole corpus at `specs` writes (what users
/// read), built once for all the tests of this file.
fn corpus_gates(specs: &std::path::Path) -> &'static GatesIndex {
    static INDEX: OnceLock<GatesIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let api_dir = support::api_dir_with_specs("kubernetes", specs, &support::KUBERNETES_MINORS);
        let api = Api::open(api_dir.path()).unwrap();
        let built = regen::build(&api).unwrap_or_else(|err| panic!("{err}"));
        let text = built.tree.get("gates.json").expect("gates.json is emitted");
        serde_json::from_slice(text).unwrap()
    })
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
            let values: BTreeMap<String, BTreeSet<Version>> = gate
                .element_values
                .iter()
                .map(|(value, gate)| (value.clone(), minors_of(gate, &corpus)))
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
    let since: Vec<(&str, String)> = families
        .element_values
        .iter()
        .map(|(value, gate)| (value.as_str(), gate.introduced_in.to_string()))
        .collect();
    let v1_34 = "1.34".to_owned();
    assert_eq!(
        since,
        [
            ("", v1_34.clone()),
            ("IPv4", v1_34.clone()),
            ("IPv6", v1_34)
        ]
    );
    assert_eq!(families.gate.introduced_in, "1.28".parse().unwrap());

    // The one map whose values are an enum: listed from 1.34 on, on a
    // field present since 1.28.
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
    let since = |value| (value, "1.34".to_owned(), None);
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
    use vergate::gates::Inferred;
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let field = |ty: &str, field: &str| &index.types[ty].fields[field];
    let v = |minor: &str| Some(minor.parse::<Version>().unwrap());

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
        assert_eq!(
            gate.values[value].inferred,
            [Inferred::DeprecatedIn],
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
