//! The engine on a hand-made model and on the demo API's gated model.

use super::{expand, DefaultLayout, Options};
use crate::model::{Definition, GatedModel, MinorModel, ObjectSchema, Property, Schema};
use proc_macro2::TokenStream;
use vergate_core::Version;

fn v(minor: u32) -> Version {
    Version::new(1, minor)
}

fn minor(minor: u32, definitions: Vec<Definition>) -> MinorModel {
    MinorModel {
        version: v(minor),
        definitions: definitions
            .into_iter()
            .map(|d| (d.name.clone(), d))
            .collect(),
    }
}

fn spec(with_mode: bool) -> Definition {
    let mut object = ObjectSchema::default();
    object.properties.insert(
        "name".into(),
        Property::new(Schema::String { format: None }),
    );
    object.required.insert("name".into());
    if with_mode {
        object
            .properties
            .insert("mode".into(), Property::new(Schema::Ref("a.Mode".into())));
    }
    Definition::new("a.Spec", Schema::Object(object))
}

fn mode(values: &[&str]) -> Definition {
    let mut definition = Definition::new("a.Mode", Schema::String { format: None });
    definition.enum_values = values.iter().map(|v| v.to_string()).collect();
    definition
}

fn text(tokens: &TokenStream) -> String {
    tokens.to_string()
}

fn model() -> GatedModel {
    GatedModel::merge(
        "t",
        vec![
            minor(1, vec![spec(false), mode(&["A"])]),
            minor(2, vec![spec(true), mode(&["A", "B"])]),
        ],
    )
    .unwrap()
}

#[test]
fn each_minor_holds_its_own_fields_and_conversions() {
    let expansion = expand(&model(), &DefaultLayout, &Options::default());
    let (one, two) = (&expansion.minors[&v(1)], &expansion.minors[&v(2)]);
    for tokens in [one, two, &expansion.shared] {
        syn::parse2::<syn::File>(tokens.clone()).expect("the expansion is Rust");
    }
    assert!(!text(one).contains("pub mode"));
    assert!(text(two).contains("pub mode : :: core :: option :: Option < Mode >"));
    // Up: nothing is lost. Down: `mode` and the value `B` can be.
    assert!(
        text(one).contains("impl :: core :: convert :: From < Spec > for super :: v1_2 :: Spec")
    );
    assert!(
        text(one).contains("impl :: core :: convert :: From < Mode > for super :: v1_2 :: Mode")
    );
    assert!(
        text(two).contains("impl :: core :: convert :: TryFrom < Spec > for super :: v1_1 :: Spec")
    );
    assert!(text(two).contains("cx . drop_value (\"B\")"));
    assert!(text(&expansion.shared).contains("pub static SPEC"));
}

#[test]
fn the_expansion_is_deterministic() {
    let first = expand(&model(), &DefaultLayout, &Options::default());
    let second = expand(&model(), &DefaultLayout, &Options::default());
    for (version, tokens) in &first.minors {
        assert_eq!(text(tokens), text(&second.minors[version]));
    }
    assert_eq!(text(&first.shared), text(&second.shared));
}

#[test]
fn json_schema_of_one_minor() {
    let model = model();
    let schema = super::json_schema(&model, v(1), "a.Spec", true);
    assert_eq!(
        schema,
        // `mode` is 1.2's: refused here, with vergate's words for editors.
        r##"{"$defs":{"a.Spec":{"additionalProperties":false,"properties":{"mode":{"doNotSuggest":true,"enum":[],"errorMessage":"mode is not available in 1.1; introduced in 1.2","markdownDescription":"Not in 1.1: introduced in 1.2."},"name":{"type":"string"}},"required":["name"],"type":"object"}},"$ref":"#/$defs/a.Spec","$schema":"https://json-schema.org/draft/2020-12/schema"}"##
    );
    let newer = super::json_schema(&model, v(2), "a.Spec", true);
    assert!(
        newer.contains(r##""mode":{"anyOf":[{"$ref":"#/$defs/a.Mode"},{"type":"null"}],"markdownDescription":"Introduced in 1.2","x-vergate":{"introduced_in":"1.2","removed_in":null}}"##),
        "{newer}"
    );
    assert!(
        newer.contains(r#""a.Mode":{"enum":["A","B"],"type":"string","x-vergate":{"introduced_in":"1.1","removed_in":null,"values":{"A":{"introduced_in":"1.1","removed_in":null},"B":{"introduced_in":"1.2","removed_in":null}}}}"#),
        "{newer}"
    );
}

#[test]
fn json_schema_holds_item_enums_in_items() {
    let mut tags = Property::new(Schema::Array(Box::new(Schema::String { format: None })));
    tags.element_enum_values = vec!["x".into(), "y".into()];
    let mut object = ObjectSchema::default();
    object.properties.insert("tags".into(), tags);
    let definition = Definition::new("a.Tags", Schema::Object(object));
    let model = GatedModel::merge("t", vec![minor(1, vec![definition])]).unwrap();
    let schema = super::json_schema(&model, v(1), "a.Tags", false);
    assert!(
        schema.contains(
            r#""tags":{"items":{"enum":["x","y"],"type":"string"},"type":["array","null"]}"#
        ),
        "{schema}"
    );
}

#[test]
fn json_schema_holds_map_value_enums_in_additional_properties() {
    let mut phases = Property::new(Schema::Map(Box::new(Schema::String { format: None })));
    phases.element_enum_values = vec!["x".into(), "y".into()];
    let mut object = ObjectSchema::default();
    object.properties.insert("phases".into(), phases);
    let definition = Definition::new("a.Phases", Schema::Object(object));
    let model = GatedModel::merge("t", vec![minor(1, vec![definition])]).unwrap();
    let schema = super::json_schema(&model, v(1), "a.Phases", false);
    assert!(
        schema.contains(
            r#""phases":{"additionalProperties":{"enum":["x","y"],"type":"string"},"type":["object","null"]}"#
        ),
        "{schema}"
    );
}

/// Names every type by its whole definition name, so that the demo's two
/// `Target`s do not collide in one flat module.
#[cfg(feature = "load")]
struct FullNames;

#[cfg(feature = "load")]
impl super::Layout for FullNames {
    fn type_ident(&self, name: &str) -> proc_macro2::Ident {
        use heck::ToUpperCamelCase;
        super::ident(&name.replace('.', "_").to_upper_camel_case())
    }
}

#[cfg(feature = "load")]
#[test]
fn the_demo_api_expands_to_rust() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../upstream-specs/demo");
    let api = crate::api::Api::open(&root).unwrap();
    let minors = crate::load::load_api(&api)
        .unwrap()
        .into_iter()
        .map(|loaded| loaded.model)
        .collect();
    let model = GatedModel::merge("demo", minors).unwrap();
    use super::Layout;
    let expansion = expand(&model, &FullNames, &Options::default());
    assert_eq!(expansion.minors.len(), 4);
    for tokens in expansion.minors.values() {
        syn::parse2::<syn::File>(tokens.clone()).expect("the expansion is Rust");
    }
    let pipeline = FullNames.type_ident(
        model
            .types
            .keys()
            .find(|name| name.ends_with("build.v1.PipelineSpec"))
            .unwrap(),
    );
    let v1_10 = text(&expansion.minors[&v(10)]);
    let v1_11 = text(&expansion.minors[&v(11)]);
    // `retries` changes type in 1.11: across that change it cannot be
    // carried, so both ways are `TryFrom`, failing when it is set.
    assert!(
        v1_10.contains(&format!(
            "From < {pipeline} > for super :: v1_9 :: {pipeline}"
        )),
        "1.10 → 1.9 keeps its conversion"
    );
    for (text, to) in [(&v1_10, "v1_11"), (&v1_11, "v1_10")] {
        assert!(
            text.contains(&format!(
                "TryFrom < {pipeline} > for super :: {to} :: {pipeline}"
            )),
            "{to}"
        );
    }
    assert!(v1_10.contains("drop_field (\"retries\")"), "{v1_10}");
    // Keywords and names that are no identifier are escaped.
    assert!(
        v1_11.contains("pub r#type"),
        "`Step.type` is a raw identifier"
    );
}
