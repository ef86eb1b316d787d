use super::*;
use crate::model::{Property, Schema};
use crate::Version;
use vergate_core::gates::ListType;

fn v() -> Version {
    Version::new(1, 2)
}

fn load(name: &str, text: &str) -> Result<LoadedMinor> {
    let path = PathBuf::from(name);
    let document = parse(&path, text.as_bytes())?;
    build_minor(v(), &[(path, document)])
}

fn load_many(files: &[(&str, &str)]) -> Result<LoadedMinor> {
    let documents = files
        .iter()
        .map(|(name, text)| {
            let path = PathBuf::from(name);
            parse(&path, text.as_bytes()).map(|doc| (path, doc))
        })
        .collect::<Result<Vec<_>>>()?;
    build_minor(v(), &documents)
}

fn property<'m>(minor: &'m LoadedMinor, def: &str, prop: &str) -> &'m Property {
    &minor.model.definitions[def].object().unwrap().properties[prop]
}

const V2: &str = r##"{
  "swagger": "2.0",
  "paths": {"/x": {"get": {"responses": {"200": {"description": "ok"}}}}},
  "definitions": {
    "io.example.core.v1.Service": {
      "description": "A service.",
      "type": "object",
      "required": ["spec"],
      "properties": {
        "spec": {"$ref": "#/definitions/io.example.core.v1.ServiceSpec", "description": "The spec."},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "created": {"$ref": "#/definitions/io.example.meta.v1.Time"}
      },
      "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Service"}]
    },
    "io.example.core.v1.ServiceSpec": {
      "type": "object",
      "properties": {
        "type": {"type": "string", "enum": ["ClusterIP", "NodePort"], "description": "Deprecated: use mode."},
        "ports": {"type": "array", "items": {"$ref": "#/definitions/io.example.core.v1.ServicePort"}, "x-kubernetes-list-type": "map"},
        "port": {"$ref": "#/definitions/io.example.util.IntOrString"},
        "ref": {"type": "string", "pattern": "^[a-z]+$"}
      }
    },
    "io.example.core.v1.ServicePort": {"type": "object", "properties": {"port": {"type": "integer", "format": "int32"}}},
    "io.example.meta.v1.Time": {"type": "string", "format": "date-time"},
    "io.example.util.IntOrString": {"type": "string", "format": "int-or-string"},
    "io.example.api.Quantity": {"description": "no type at all"}
  }
}"##;

#[test]
fn openapi2_json() {
    let minor = load("spec.json", V2).unwrap();
    assert!(minor.warnings.is_empty(), "{:?}", minor.warnings);
    let service = &minor.model.definitions["io.example.core.v1.Service"];
    assert_eq!(service.kinds[0].kind, "Service");
    assert_eq!(service.kinds[0].api_version(), "v1");
    let object = service.object().unwrap();
    assert!(object.required.contains("spec"));
    assert_eq!(
        object.properties["spec"].schema,
        Schema::Ref("io.example.core.v1.ServiceSpec".into())
    );
    assert_eq!(
        object.properties["spec"].description.as_deref(),
        Some("The spec.")
    );
    assert_eq!(
        object.properties["labels"].schema.type_expr(),
        "map[string]string"
    );
    let kind = property(&minor, "io.example.core.v1.ServiceSpec", "type");
    assert_eq!(kind.enum_values, ["ClusterIP", "NodePort"]);
    let ports = property(&minor, "io.example.core.v1.ServiceSpec", "ports");
    assert_eq!(ports.schema.type_expr(), "[]io.example.core.v1.ServicePort");
    let reference = property(&minor, "io.example.core.v1.ServiceSpec", "ref");
    assert_eq!(reference.keywords["pattern"], "\"^[a-z]+$\"");
    assert_eq!(
        minor.model.definitions["io.example.util.IntOrString"].schema,
        Schema::IntOrString
    );
    assert_eq!(
        minor.model.definitions["io.example.api.Quantity"].schema,
        Schema::Any
    );
}

const V3: &str = r##"
openapi: 3.0.3
info: {title: demo, version: "1.2"}
paths:
  /widgets:
    get:
      responses:
        200: {description: ok}
components:
  schemas:
    Widget:
      type: object
      description: A widget.
      properties:
        owner:
          description: Who owns it.
          allOf: [{$ref: '#/components/schemas/Person'}]
        size:
          x-kubernetes-int-or-string: true
          anyOf: [{type: integer}, {type: string}]
        shape:
          type: object
          description: An inline object.
          properties:
            sides: {type: integer}
        tags:
          type: array
          items:
            type: object
            properties:
              key: {type: string}
        local: {$ref: '#/components/schemas/Person/properties/name'}
        choice:
          oneOf: [{type: string}, {type: integer}]
        negated:
          not: {type: string}
        newName:
          type: string
          x-vergate-renamed-from: oldName
    Person:
      type: object
      properties:
        name: {type: string}
        friend: {$ref: '#/components/schemas/Person'}
"##;

#[test]
fn openapi3_yaml() {
    let minor = load("spec.yaml", V3).unwrap();
    let owner = property(&minor, "Widget", "owner");
    assert_eq!(owner.schema, Schema::Ref("Person".into()));
    assert_eq!(owner.description.as_deref(), Some("Who owns it."));
    assert_eq!(
        property(&minor, "Widget", "size").schema,
        Schema::IntOrString
    );
    // Inline objects are hoisted into their own definitions.
    assert_eq!(
        property(&minor, "Widget", "shape").schema,
        Schema::Ref("WidgetShape".into())
    );
    let shape = &minor.model.definitions["WidgetShape"];
    // Its source is the inline schema it was hoisted from.
    assert_eq!(
        shape.source.pointer,
        "/components/schemas/Widget/properties/shape"
    );
    assert_eq!(shape.description.as_deref(), Some("An inline object."));
    assert_eq!(
        property(&minor, "Widget", "tags").schema.type_expr(),
        "[]WidgetTagsItem"
    );
    assert!(minor.model.definitions.contains_key("WidgetTagsItem"));
    // A local pointer that is not a definition is resolved and inlined.
    assert_eq!(
        property(&minor, "Widget", "local").schema.type_expr(),
        "string"
    );
    // Recursion through a definition is fine.
    assert_eq!(
        property(&minor, "Person", "friend").schema,
        Schema::Ref("Person".into())
    );
    assert_eq!(
        property(&minor, "Widget", "newName")
            .renamed_from
            .as_deref(),
        Some("oldName")
    );
    // oneOf is a union, hoisted like an inline object.
    assert_eq!(
        property(&minor, "Widget", "choice").schema,
        Schema::Ref("WidgetChoice".into())
    );
    assert!(minor.model.definitions["WidgetChoice"].union().is_some());
    // `not` is not modeled: a warning with its pointer, never a panic.
    assert_eq!(property(&minor, "Widget", "negated").schema, Schema::Any);
    assert_eq!(minor.warnings.len(), 1, "{:?}", minor.warnings);
    assert_eq!(
        minor.warnings[0].pointer,
        "/components/schemas/Widget/properties/negated/not"
    );
    assert!(minor.warnings[0].to_string().starts_with(
        "warning: spec.yaml#/components/schemas/Widget/properties/negated/not: `not`"
    ));
}

fn v2_with(definitions: &str) -> String {
    format!("{{\"swagger\": \"2.0\", \"definitions\": {definitions}}}")
}

fn error_of(text: &str) -> String {
    load("spec.json", text).unwrap_err().to_string()
}

#[test]
fn remote_refs_are_refused() {
    let text = v2_with(
        r#"{"A": {"type": "object", "properties": {"b": {"$ref": "https://example.com/b.json"}}}}"#,
    );
    let err = error_of(&text);
    assert!(err.starts_with("spec.json#/definitions/A/properties/b/$ref: $ref \"https://example.com/b.json\" points outside"), "{err}");
    assert!(err.contains("never fetches"), "{err}");
    let text = v2_with(r#"{"A": {"$ref": "other.json#/definitions/B"}}"#);
    assert!(error_of(&text).contains("points outside this document"));
}

#[test]
fn dangling_and_cyclic_refs() {
    let err = error_of(&v2_with(
        r##"{"A": {"type": "object", "properties": {"b": {"$ref": "#/definitions/Missing"}}}}"##,
    ));
    assert!(
        err.contains("points to no definition") && err.contains("Missing"),
        "{err}"
    );
    let err = error_of(&v2_with(
        r##"{"A": {"$ref": "#/definitions/B"}, "B": {"$ref": "#/definitions/A"}}"##,
    ));
    assert!(err.contains("cycle of references"), "{err}");
    let err = error_of(&v2_with(
        r##"{"A": {"type": "object", "properties": {"x": {"$ref": "#/definitions/A/properties/x"}}}}"##,
    ));
    assert!(err.contains("cycle of references"), "{err}");
}

#[test]
fn wrong_types_are_errors_with_pointers() {
    let err = error_of(&v2_with("[]"));
    assert!(
        err.starts_with("spec.json#/definitions: expected an object"),
        "{err}"
    );
    let err = error_of(&v2_with(
        r#"{"A": {"type": "object", "properties": "nope"}}"#,
    ));
    assert!(
        err.starts_with("spec.json#/definitions/A/properties: `properties` must be a JSON object"),
        "{err}"
    );
    let err = error_of(&v2_with(
        r#"{"A": {"type": "object", "properties": {"x": 3}}}"#,
    ));
    assert!(
        err.contains("#/definitions/A/properties/x: a property must be a JSON object"),
        "{err}"
    );
    let err = error_of(&v2_with(
        r#"{"A": {"type": "object", "required": "x", "properties": {"x": {}}}}"#,
    ));
    assert!(err.contains("required must be an array"), "{err}");
}

#[test]
fn unsafe_definition_names_are_errors() {
    for name in [
        "../../x",
        "/etc/x",
        "a\\u0000b",
        "..",
        "",
        "a..b",
        ".hidden",
        "Ünïcode",
        "evil\\u202etxt",
        "a b",
    ] {
        let err = error_of(&v2_with(&format!(r#"{{"{name}": {{"type": "string"}}}}"#)));
        assert!(
            err.contains("cannot become a file or module name"),
            "{name}: {err}"
        );
    }
}

#[test]
fn several_files_of_one_minor() {
    let a = v2_with(r#"{"Shared": {"type": "string"}, "A": {"type": "integer"}}"#);
    let b = v2_with(r#"{"Shared": {"type": "string"}, "B": {"type": "boolean"}}"#);
    let minor = load_many(&[("a.json", &a), ("b.json", &b)]).unwrap();
    assert_eq!(minor.model.definitions.len(), 3);
    let c = v2_with(r#"{"Shared": {"type": "integer"}}"#);
    let err = load_many(&[("a.json", &a), ("c.json", &c)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"Shared\"") && err.contains("a.json") && err.contains("c.json"),
        "{err}"
    );
}

#[test]
fn item_enums_of_array_properties() {
    let text = v2_with(
        r##"{"Spec": {"type": "object", "properties": {
            "modes": {"type": "array", "items": {"type": "string", "enum": ["A", "B", null]}},
            "bare": {"items": {"type": "integer", "enum": [1, 2]}},
            "whole": {"type": "array", "items": {"type": "string"}, "enum": [["x"]]},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "string", "enum": ["n"]}}},
            "byName": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string", "enum": ["m"]}}},
            "refs": {"type": "array", "items": {"$ref": "#/definitions/List", "enum": ["r"]}}
        }},
        "List": {"type": "array", "items": {"type": "string", "enum": ["d"]}}}"##,
    );
    let minor = load("spec.json", &text).unwrap();
    let modes = property(&minor, "Spec", "modes");
    assert_eq!(modes.element_enum_values, ["A", "B"]);
    assert!(modes.enum_values.is_empty());
    assert_eq!(
        property(&minor, "Spec", "bare").element_enum_values,
        ["1", "2"]
    );
    // `enum` beside `type: array` constrains whole arrays, not items.
    let whole = property(&minor, "Spec", "whole");
    assert_eq!(whole.enum_values, [r#"["x"]"#]);
    assert!(whole.element_enum_values.is_empty());
    // What the model cannot hold is a warning with its pointer.
    let pointers: Vec<&str> = minor.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/definitions/List/items/enum",
            "/definitions/Spec/properties/byName/additionalProperties/items/enum",
            "/definitions/Spec/properties/grid/items/items/enum",
            "/definitions/Spec/properties/refs/items/enum",
        ]
    );
    assert!(minor.warnings[3].message.contains("items of type List"));
    assert!(property(&minor, "Spec", "grid")
        .element_enum_values
        .is_empty());
}

#[test]
fn element_enums_of_map_properties() {
    let text = v2_with(
        r##"{"Spec": {"type": "object", "properties": {
            "phases": {"type": "object", "additionalProperties": {"type": "string", "enum": ["Ready", "Failed", null]}},
            "nested": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "string", "enum": ["n"]}}},
            "refs": {"type": "object", "additionalProperties": {"$ref": "#/definitions/Labels", "enum": ["r"]}},
            "mixed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string", "enum": ["m"]}}
        }},
        "Labels": {"type": "object", "additionalProperties": {"type": "string", "enum": ["d"]}}}"##,
    );
    let minor = load("spec.json", &text).unwrap();
    let phases = property(&minor, "Spec", "phases");
    assert_eq!(phases.element_enum_values, ["Ready", "Failed"]);
    assert!(phases.enum_values.is_empty());
    for name in ["nested", "refs", "mixed"] {
        assert!(property(&minor, "Spec", name)
            .element_enum_values
            .is_empty());
    }
    // What the model cannot hold is a warning with its pointer.
    let mut pointers: Vec<&str> = minor.warnings.iter().map(|w| w.pointer.as_str()).collect();
    pointers.sort_unstable();
    assert_eq!(
        pointers,
        [
            "/definitions/Labels/additionalProperties/enum",
            "/definitions/Spec/properties/mixed/additionalProperties/enum",
            "/definitions/Spec/properties/nested/additionalProperties/additionalProperties/enum",
            "/definitions/Spec/properties/refs/additionalProperties/enum",
        ]
    );
}

#[test]
fn enums_behind_all_of_or_a_local_ref_are_warned_about() {
    let text = v2_with(
        r##"{"Spec": {"type": "object", "properties": {
            "mode": {"type": "string", "enum": ["a", "b"]},
            "wrapped": {"allOf": [{"type": "string", "enum": ["w"]}]},
            "same": {"$ref": "#/definitions/Spec/properties/mode"}
        }}}"##,
    );
    let minor = load("spec.json", &text).unwrap();
    assert_eq!(property(&minor, "Spec", "mode").enum_values, ["a", "b"]);
    assert!(property(&minor, "Spec", "same").enum_values.is_empty());
    let mut pointers: Vec<&str> = minor.warnings.iter().map(|w| w.pointer.as_str()).collect();
    pointers.sort_unstable();
    assert_eq!(
        pointers,
        [
            "/definitions/Spec/properties/same/$ref",
            "/definitions/Spec/properties/wrapped/allOf/0/enum",
        ]
    );
}

#[test]
fn additional_properties_false_true_and_schema_are_kept_apart() {
    let minor = load(
        "spec.json",
        r##"{"swagger": "2.0", "definitions": {
        "Closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        "Open": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true},
        "Typed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
        "Silent": {"type": "object", "properties": {"a": {"type": "string"}}}}}"##,
    )
    .unwrap();
    let object = |name: &str| minor.model.definitions[name].object().unwrap().clone();
    assert!(object("Closed").closed && object("Closed").additional.is_none());
    assert_eq!(object("Open").additional.as_deref(), Some(&Schema::Any));
    assert!(!object("Open").closed);
    assert_eq!(
        object("Typed").additional.as_deref(),
        Some(&Schema::Integer { format: None })
    );
    assert!(!object("Silent").closed && object("Silent").additional.is_none());
    // Every JSON Schema closes what the spec closes; only the strict one
    // closes what the spec leaves silent.
    let gates = crate::to_json_schema::GateKeywords::default();
    let style = |strict| crate::to_json_schema::Style {
        minor: v(),
        strict,
        ref_base: "#/$defs/",
        document_version_field: None,
        gates: &gates,
    };
    let additional = |name: &str, strict| {
        let schema =
            crate::to_json_schema::definition(&minor.model.definitions[name], &style(strict));
        let vergate_core::json::Value::Object(members) = schema else {
            panic!("{name} is an object schema")
        };
        members
            .get("additionalProperties")
            .map(|value| value.to_string())
    };
    assert_eq!(additional("Closed", false).as_deref(), Some("false"));
    assert_eq!(additional("Closed", true).as_deref(), Some("false"));
    assert_eq!(additional("Silent", false), None);
    assert_eq!(additional("Silent", true).as_deref(), Some("false"));
    assert_eq!(
        additional("Typed", false).as_deref(),
        Some(r#"{"type":"integer"}"#)
    );
    assert_eq!(additional("Open", true), None);
}

#[test]
fn element_constraints_and_list_types_of_properties() {
    let text = v2_with(
        r##"{"Spec": {"type": "object", "properties": {
            "hostnames": {"type": "array", "maxItems": 16, "x-kubernetes-list-type": "set",
                "items": {"type": "string", "maxLength": 253, "pattern": "^[a-z.]+$", "title": "host"}},
            "limits": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", 7, "protocol"],
                "items": {"$ref": "#/definitions/Port"}},
            "plain": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}}
        }},
        "Port": {"type": "object", "properties": {"port": {"type": "integer"}}}}"##,
    );
    let minor = load("spec.json", &text).unwrap();
    let hostnames = property(&minor, "Spec", "hostnames");
    assert_eq!(
        hostnames.element_keywords.keys().collect::<Vec<_>>(),
        ["maxLength", "pattern"],
        "the element's constraints only, not its annotations"
    );
    assert_eq!(hostnames.list_type, Some(ListType::Set));
    assert_eq!(hostnames.keywords["maxItems"], "16");
    assert_eq!(
        property(&minor, "Spec", "limits").element_keywords["minimum"],
        "0"
    );
    let ports = property(&minor, "Spec", "ports");
    assert!(
        ports.element_keywords.is_empty(),
        "a definition's own constraints apply to it"
    );
    assert_eq!(ports.list_type, Some(ListType::Map));
    assert_eq!(ports.list_map_keys, ["port", "protocol"]);
    assert_eq!(property(&minor, "Spec", "plain").list_type, None);
    let constraints = crate::model::constraints::of_property(hostnames);
    assert_eq!(constraints.max_items, Some(16));
    assert_eq!(constraints.element.unwrap().max_length, Some(253));
}
