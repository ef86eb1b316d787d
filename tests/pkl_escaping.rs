//! Hostile text through the Pkl emitter, judged by the real pkl CLI:
//! descriptions, enum values, property and type names holding `"`, `\`,
//! `\(`, `"""`, `#`, backticks, keywords and line breaks.

mod pkl;
mod support;

use serde_json::Value;
use std::collections::BTreeMap;
use vergate_codegen::api::ApiConfig;
use vergate_codegen::emit::pkl::{emit, pkl_string};
use vergate_codegen::model::{
    Definition, GatedModel, GroupVersionKind, MinorModel, ObjectSchema, Property, Schema,
};
use vergate_codegen::output::{sync, FileTree, Mode};
use vergate_codegen::Version;

const HOSTILE: &[&str] = &[
    r#"say "hi""#,
    r"back\slash and \(interpolation) and \n",
    r#"triple """ quotes"#,
    "#hash# and ##\"raw\"##",
    "`backticks` and ``two``",
    "line one\nline two \"\"\" \\(x)\n\n  indented\r\nwindows\rmac",
    "*/ /* // ///",
    "tab\tand unicode ✓ and \u{7} bell",
    "",
];

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn pkl_string_round_trips_through_pkl() {
    let pkl = pkl::pkl();
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("values {\n");
    for value in HOSTILE {
        text.push_str(&format!("  {}\n", pkl_string(value)));
    }
    text.push_str("}\n");
    std::fs::write(dir.path().join("strings.pkl"), &text).unwrap();
    std::fs::write(dir.path().join("PklProject"), "amends \"pkl:Project\"\n").unwrap();
    let json: Value = serde_json::from_str(&pkl.eval_json(dir.path(), &["strings.pkl"])).unwrap();
    let expected: Vec<String> = HOSTILE
        .iter()
        .map(|v| v.replace("\r\n", "\n").replace('\r', "\n"))
        .collect();
    let actual: Vec<&str> = json["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(actual, expected, "{text}");
}

fn string() -> Schema {
    Schema::String { format: None }
}

fn property(description: &str) -> Property {
    let mut property = Property::new(string());
    property.description = Some(description.to_owned());
    property
}

/// One minor with a resource whose every name and text is hostile.
fn hostile_model() -> GatedModel {
    let mut properties = BTreeMap::new();
    for (name, description) in [
        ("apiVersion", HOSTILE[0]),
        ("kind", HOSTILE[1]),
        ("$ref", HOSTILE[2]),
        ("x-foo", HOSTILE[3]),
        ("import", HOSTILE[4]),
        ("class", HOSTILE[5]),
        ("two words", HOSTILE[6]),
        ("1st", HOSTILE[7]),
        ("output2", HOSTILE[8]),
    ] {
        properties.insert(name.to_owned(), property(description));
    }
    let mut choice = property("An enum of hostile values.");
    choice.enum_values = HOSTILE[..5].iter().map(|v| (*v).to_owned()).collect();
    properties.insert("choice".into(), choice);
    properties.insert(
        "metadata".into(),
        Property::new(Schema::Map(Box::new(string()))),
    );
    properties.insert(
        "nested".into(),
        Property::new(Schema::Ref("x.hostile.v1.module".into())),
    );
    let mut resource = Definition::new(
        "x.hostile.v1.Thing",
        Schema::Object(ObjectSchema {
            properties,
            ..Default::default()
        }),
    );
    resource.description = Some(HOSTILE.join("\n"));
    resource.kinds = vec![GroupVersionKind {
        group: "hostile.x".into(),
        version: "v1".into(),
        kind: "Thing".into(),
    }];
    let mut keyword_class = Definition::new(
        "x.hostile.v1.module",
        Schema::Object(ObjectSchema {
            properties: [("for".to_owned(), property(HOSTILE[5]))].into(),
            ..Default::default()
        }),
    );
    keyword_class.description = Some(HOSTILE[1].into());
    let mut minor = MinorModel::new(Version::new(1, 0));
    for definition in [resource, keyword_class] {
        minor
            .definitions
            .insert(definition.name.clone(), definition);
    }
    GatedModel::merge("hostile", vec![minor]).unwrap()
}

fn config() -> ApiConfig {
    ApiConfig {
        name: "hostile".into(),
        description: Some(HOSTILE.join(" ")),
        dialect: None,
        facts: Default::default(),
        pkl_package: "hostile".into(),
        version_field: "import".into(),
        annotation_class: Some("HostileVersion".into()),
        document_version_field: None,
        kinds: BTreeMap::new(),
        pkl_publish_url: None,
        pkl_own_modules: Vec::new(),
        rust: Default::default(),
        spec_files: vec!["spec.json".into()],
        minors: BTreeMap::new(),
    }
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn hostile_names_and_texts_evaluate() {
    let pkl = pkl::pkl();
    let mut tree = FileTree::new();
    emit(&hostile_model(), &config(), &mut tree).unwrap_or_else(|err| panic!("{err}"));
    let out = tempfile::tempdir().unwrap();
    sync(&tree, out.path(), Mode::Write).unwrap();
    let package = out.path().join("pkl");
    let project = pkl::user_project(&pkl, "hostile", &package);

    let modules = pkl::modules_below(&package.join("v1.0"));
    assert_eq!(
        modules,
        ["hostile/Thing.pkl", "hostile/v1.pkl", "shared.pkl"]
    );
    std::fs::write(
        project.path().join("all.pkl"),
        pkl::import_all_module("@hostile/v1.0", &modules),
    )
    .unwrap();
    pkl.eval_json(project.path(), &["all.pkl"]);

    let mut user = String::from("amends \"@hostile/v1.0/hostile/Thing.pkl\"\n\n");
    for (index, name) in [
        "$ref",
        "`x-foo`",
        "`import`",
        "`class`",
        "`two words`",
        "`1st`",
    ]
    .iter()
    .enumerate()
    {
        user.push_str(&format!("{name} = {}\n", pkl_string(HOSTILE[index])));
    }
    user.push_str(&format!("choice = {}\n", pkl_string(HOSTILE[4])));
    user.push_str("nested { `for` = \"loop\" }\n");
    std::fs::write(project.path().join("user.pkl"), user).unwrap();
    let json: Value = serde_json::from_str(&pkl.eval_json(project.path(), &["user.pkl"])).unwrap();
    assert_eq!(json["apiVersion"], "hostile.x/v1");
    assert_eq!(json["kind"], "Thing");
    assert_eq!(json["two words"], HOSTILE[4]);
    assert_eq!(json["choice"], HOSTILE[4]);
    assert_eq!(json["nested"]["for"], "loop");

    let examples = package.join("examples");
    let json: Value = serde_json::from_str(&pkl.eval_json(&examples, &["v1.0.pkl"])).unwrap();
    assert_eq!(json["config"]["import"], "1.0");
    assert_eq!(json["resources"][0]["kind"], "Thing");
}
