//! The bad-input suite: hostile specs give one clear error (or warnings with
//! their file and JSON pointer), never a panic, never a partial tree, nothing
//! written outside `generated/<api>/`, and the previous output intact.
//!
//! Fixtures live in `tests/hostile/<case>/` (the minors' spec files only: the
//! harness writes each case's api.toml with the right digests); the nesting
//! and size cases are generated on the fly.

mod pkl;
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vergate_codegen::api::{sha256_hex, Api};
use vergate_codegen::output::Mode;
use vergate_codegen::regen;

/// What a case must give.
enum Expect {
    /// An error whose message contains every fragment.
    Error(&'static [&'static str]),
    /// Success, with warnings whose texts contain these fragments (in order).
    Warnings(&'static [&'static str]),
}

use Expect::{Error, Warnings};

const CASES: &[(&str, Expect)] = &[
    ("truncated-json", Error(&["v1.0/spec.json:", "invalid JSON: EOF while parsing", "^"])),
    ("yaml-anchor-bomb", Error(&["v1.0/spec.yaml:", "invalid YAML", "repetition limit exceeded"])),
    ("definitions-as-array", Error(&["v1.0/spec.json#/definitions: expected an object", "found an array"])),
    ("components-as-string", Error(&["v1.0/spec.yaml", "unexpected document shape"])),
    ("properties-as-string", Error(&["spec.json#/definitions/a.v1.Thing/properties: `properties` must be a JSON object", "found a string"])),
    ("property-as-number", Error(&["spec.json#/definitions/a.v1.Thing/properties/name: a property must be a JSON object"])),
    ("required-as-string", Error(&["spec.json#/definitions/a.v1.Thing/required: required must be an array"])),
    ("items-as-string", Error(&["#/definitions/a.v1.Thing/properties/tags/items: a schema must be a JSON object"])),
    ("enum-as-object", Error(&["#/definitions/a.v1.Thing/properties/mode/enum: enum must be an array"])),
    ("type-as-number", Error(&["#/definitions/a.v1.Thing/type: type must be a string"])),
    ("definition-as-boolean", Error(&["#/definitions/a.v1.Thing: a definition must be a JSON object"])),
    ("dangling-ref", Error(&["#/definitions/a.v1.Thing/properties/owner/$ref", "points to no definition", "a.v1.Nobody"])),
    ("cyclic-ref", Error(&["#/definitions/a.v1.A", "cycle of references"])),
    ("cyclic-pointer-ref", Error(&["cycle of references"])),
    ("remote-ref", Error(&["#/definitions/a.v1.Thing/properties/owner/$ref", "points outside this document", "never fetches"])),
    ("file-ref", Error(&["#/definitions/a.v1.Thing/$ref", "points outside this document"])),
    ("duplicate-minors", Error(&["v1.0", "v1.0.0", "are the same minor 1.0"])),
    ("bad-version-directory", Error(&["v1.x", "\"x\" is not a number"])),
    ("non-version-directories", Warnings(&[])),
    ("empty-corpus", Error(&["no v<X.Y> spec directories"])),
    ("single-minor", Warnings(&[])),
    ("not-openapi", Error(&["v1.0/spec.json", "neither `swagger"])),
    ("name-path-separator", Error(&["\"../../escape\" cannot become a file or module name", "path separator"])),
    ("name-absolute", Error(&["\"/etc/x\" cannot become a file or module name"])),
    ("name-nul", Error(&["cannot become a file or module name", "NUL"])),
    ("name-odd-unicode", Error(&["cannot become a file or module name", "U+202E"])),
    (
        "unmodeled-constructs",
        Warnings(&[
            "spec.yaml#/components/schemas/a.v1.Thing/properties/both/allOf/1/required/0: \"x\" is required but no allOf member defines it",
            "spec.yaml#/components/schemas/a.v1.Thing/properties/kinds/x-kubernetes-group-version-kind: expected a list",
            "spec.yaml#/components/schemas/a.v1.Thing/properties/negated/not: `not` is not modeled",
        ]),
    ),
    ("union-discriminator-missing-target", Error(&["spec.yaml#/components/schemas/a.v1.Pet/discriminator/mapping/dog", "maps to \"#/components/schemas/a.v1.Dog\", which is not a member of the union"])),
    ("union-of-itself", Warnings(&["spec.yaml#/components/schemas/a.v1.Loop/oneOf/0: \"a.v1.Loop\" lists itself as a member"])),
    ("union-cycle", Error(&["spec.yaml#/components/schemas/a.v1.A", "union \"a.v1.A\" is a member of itself (a.v1.A → a.v1.B → a.v1.A)"])),
    (
        "union-of-nothing",
        Warnings(&[
            "spec.yaml#/components/schemas/a.v1.Thing/properties/none/oneOf: a union with no members",
            "spec.yaml#/components/schemas/a.v1.Thing/properties/onlyNull/anyOf: a union with no members",
        ]),
    ),
    ("type-null-only", Warnings(&["spec.yaml#/components/schemas/a.v1.Thing/properties/nothing/type: a type list of only \"null\""])),
    ("union-fifty-members", Warnings(&[])),
    ("union-nested-forty-deep", Warnings(&[])),
    ("colliding-property-names", Warnings(&[])),
    ("conflicting-files", Error(&["\"a.v1.Shared\"", "differs between", "a.json", "b.json"])),
    ("rename-contradicts-specs", Error(&["v1.1/spec.json#/definitions/a.v1.Thing/properties/label", "renamed from \"title\""])),
    ("nasty-descriptions", Warnings(&[])),
    ("empty-enum-value", Warnings(&[])),
    ("colliding-enum-values", Warnings(&[])),
    ("all-of-conflict", Error(&[
        "spec.yaml#/definitions/a.v1.Thing/allOf/1/properties/size: property \"size\" is defined differently by two allOf members",
        "spec.yaml#/definitions/a.v1.Base/properties/size",
    ])),
    ("all-of-cycle", Error(&["spec.yaml#/definitions/a.v1.A/allOf", "allOf members form a cycle (a.v1.A → a.v1.B → a.v1.A)"])),
    ("all-of-missing-ref", Error(&["#/definitions/a.v1.Thing/allOf/0/$ref", "points to no definition", "a.v1.Nobody"])),
    ("all-of-scalars", Warnings(&[])),
    ("all-of-object-and-scalar", Error(&[
        "#/definitions/a.v1.Thing/properties/odd/allOf: allOf mixes an object (/definitions/a.v1.Thing/properties/odd/allOf/1)",
        "with a schema that is no object (/definitions/a.v1.Thing/properties/odd/allOf/0)",
    ])),
    ("non-string-enums", Warnings(&[
        "spec.json#/definitions/a.v1.Thing/properties/ambiguous/enum/0: the string \"1\" of an enum of mixed kinds reads as a number",
    ])),
    ("keyword-names", Warnings(&[])),
    ("empty-property-name", Error(&["spec.json#/definitions/a.v1.Thing: a.v1.Thing: a property has the empty name"])),
    ("case-folded-names", Warnings(&[])),
];

/// A throwaway project: `upstream-specs/<case>/` and a previous
/// `generated/<case>/` to prove untouched.
struct Project {
    root: tempfile::TempDir,
    case: String,
}

impl Project {
    fn new(case: &str, populate: impl FnOnce(&Path)) -> Project {
        let root = tempfile::tempdir().unwrap();
        let api_dir = root.path().join("upstream-specs").join(case);
        std::fs::create_dir_all(&api_dir).unwrap();
        populate(&api_dir);
        write_api_toml(&api_dir, case);
        let previous = root.path().join("generated").join(case);
        std::fs::create_dir_all(previous.join("pkl")).unwrap();
        std::fs::write(previous.join("gates.json"), "{\"previous\": true}\n").unwrap();
        std::fs::write(previous.join("pkl/Old.pkl"), "// previous output\n").unwrap();
        Project {
            root,
            case: case.to_owned(),
        }
    }

    fn out_dir(&self) -> PathBuf {
        self.root.path().join("generated").join(&self.case)
    }

    /// Every file below the project root, with its bytes.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let mut pending = vec![self.root.path().to_owned()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    files.insert(
                        path.strip_prefix(self.root.path()).unwrap().to_owned(),
                        bytes,
                    );
                }
            }
        }
        files
    }

    /// Runs a regen; returns its error text or its warnings. Most cases
    /// serve no kinds, being about schemas: the API-wide warning that says
    /// so (`tests/kubevirt_api.rs` tests it) is left out.
    fn regen(&self) -> Result<Vec<String>, String> {
        let api = Api::open(&self.root.path().join("upstream-specs").join(&self.case))
            .map_err(|e| e.to_string())?;
        let no_kinds = format!("{} has no kinds:", api.name());
        regen::regen(&api, &self.out_dir(), Mode::Write)
            .map(|(built, _)| {
                built
                    .warnings
                    .iter()
                    .map(ToString::to_string)
                    .filter(|warning| !warning.contains(&no_kinds))
                    .collect()
            })
            .map_err(|e| e.to_string())
    }
}

/// Writes api.toml recording the digest of every spec file present.
fn write_api_toml(api_dir: &Path, case: &str) {
    let mut toml = format!(
        "name = \"{case}\"\npkl_package = \"hostile\"\nversion_field = \"hostileVersion\"\nspec_files = [\"*.json\", \"*.yaml\"]\n"
    );
    let mut minors: Vec<_> = std::fs::read_dir(api_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    minors.sort();
    for minor in minors {
        let dir_name = minor.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(version) = dir_name.parse::<vergate::Version>() else {
            continue;
        };
        let mut files: Vec<_> = std::fs::read_dir(&minor)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let digest = sha256_hex(&std::fs::read(&file).unwrap());
            // v1.0 and v1.0.0 are the same minor: record it once.
            let header = format!("[minors.\"{version}\".files.\"{name}\"]");
            if !toml.contains(&header) {
                toml.push_str(&format!("\n{header}\nsha256 = \"{digest}\"\n"));
            }
        }
    }
    std::fs::write(api_dir.join("api.toml"), toml).unwrap();
}

/// Runs one case and checks the invariants every case shares.
fn check(project: &Project, expect: &Expect) {
    let before = project.snapshot();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| project.regen()));
    let outcome = outcome.unwrap_or_else(|_| panic!("{}: regen panicked", project.case));
    let after = project.snapshot();
    let outside = |files: &BTreeMap<PathBuf, Vec<u8>>| -> BTreeMap<PathBuf, Vec<u8>> {
        let generated = Path::new("generated").join(&project.case);
        files
            .iter()
            .filter(|(path, _)| !path.starts_with(&generated))
            .map(|(p, b)| (p.clone(), b.clone()))
            .collect()
    };
    assert_eq!(
        outside(&before),
        outside(&after),
        "{}: something was written outside generated/<api>/",
        project.case
    );
    match (expect, outcome) {
        (Error(fragments), Err(message)) => {
            for fragment in *fragments {
                assert!(
                    message.contains(fragment),
                    "{}: error lacks {fragment:?}:\n{message}",
                    project.case
                );
            }
            assert_eq!(
                before, after,
                "{}: a failed regen changed the previous output",
                project.case
            );
        }
        (Error(_), Ok(warnings)) => panic!(
            "{}: expected an error, got success with {warnings:?}",
            project.case
        ),
        (Warnings(fragments), Ok(warnings)) => {
            assert_eq!(
                warnings.len(),
                fragments.len(),
                "{}: warnings {warnings:#?}",
                project.case
            );
            for (warning, fragment) in warnings.iter().zip(*fragments) {
                assert!(
                    warning.contains(fragment),
                    "{}: warning {warning:?} lacks {fragment:?}",
                    project.case
                );
            }
            assert!(
                project.out_dir().join("gates.json").is_file(),
                "{}: no gates.json",
                project.case
            );
            assert!(
                !project.out_dir().join("pkl/Old.pkl").exists(),
                "{}: stale output survived",
                project.case
            );
        }
        (Warnings(_), Err(message)) => panic!("{}: expected success, got: {message}", project.case),
    }
}

#[test]
fn every_committed_case() {
    let fixtures = support::root().join("tests/hostile");
    let mut on_disk: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CASES.iter().map(|(name, _)| (*name).to_owned()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "every fixture has an expectation and every expectation a fixture"
    );
    for (case, expect) in CASES {
        let project = Project::new(case, |api_dir| {
            support::copy_dir(&fixtures.join(case), api_dir)
        });
        check(&project, expect);
    }
}

#[test]
fn nesting_ten_thousand_deep() {
    let project = Project::new("deep-nesting", |api_dir| {
        let depth = 10_000;
        let mut text = String::from("{\"swagger\": \"2.0\", \"definitions\": {\"a.v1.Deep\": ");
        text.push_str(&"{\"type\": \"array\", \"items\": ".repeat(depth));
        text.push_str("{\"type\": \"string\"}");
        text.push_str(&"}".repeat(depth));
        text.push_str("}}");
        std::fs::create_dir_all(api_dir.join("v1.0")).unwrap();
        std::fs::write(api_dir.join("v1.0/spec.json"), text).unwrap();
    });
    check(
        &project,
        &Error(&["v1.0/spec.json:1:", "recursion limit exceeded"]),
    );
}

#[test]
fn a_fifty_megabyte_spec() {
    let project = Project::new("large", |api_dir| {
        std::fs::create_dir_all(api_dir.join("v1.0")).unwrap();
        let mut definitions = serde_json::Map::new();
        let description = "A long description that repeats. ".repeat(40);
        let mut index = 0;
        let mut size = 0;
        while size < 50 * 1024 * 1024 {
            let mut properties = serde_json::Map::new();
            for field in 0..10 {
                properties.insert(
                    format!("field{field}"),
                    serde_json::json!({"type": "string", "description": description}),
                );
            }
            let definition = serde_json::json!({"type": "object", "properties": properties});
            size += definition.to_string().len();
            definitions.insert(format!("big.v1.Type{index}"), definition);
            index += 1;
        }
        let spec = serde_json::json!({"swagger": "2.0", "definitions": definitions});
        std::fs::write(api_dir.join("v1.0/spec.json"), spec.to_string()).unwrap();
    });
    let api = Api::open(&project.root.path().join("upstream-specs/large")).unwrap();
    // Loading and merging a 50 MB spec; the emitters are covered elsewhere.
    let loaded = vergate_codegen::load::load_api(&api).unwrap();
    assert!(loaded[0].model.definitions.len() > 3_000);
    let model = vergate_codegen::model::GatedModel::merge(
        "large",
        loaded.into_iter().map(|m| m.model).collect(),
    )
    .unwrap();
    assert_eq!(
        model.types.len(),
        model.minors.values().next().unwrap().definitions.len()
    );
}

/// Descriptions, defaults and enum values full of Pkl, Rust, JSON and
/// template escapes come out as valid output: every JSON file parses, and the
/// real pkl CLI evaluates every module of the Pkl subtree and renders the
/// texts back unchanged.
#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn nasty_texts_stay_valid_in_every_output() {
    let fixtures = support::root().join("tests/hostile");
    let project = Project::new("nasty-descriptions", |api_dir| {
        support::copy_dir(&fixtures.join("nasty-descriptions"), api_dir)
    });
    project.regen().unwrap();
    let out = project.out_dir();
    let mut json_files = 0;
    for (path, bytes) in project.snapshot() {
        if path.extension().is_some_and(|e| e == "json") && path.starts_with("generated") {
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|err| panic!("{} is not JSON: {err}", path.display()));
            json_files += 1;
        }
    }
    assert!(json_files > 5, "{json_files}");
    let spec: serde_json::Value = serde_json::from_slice(
        &std::fs::read(fixtures.join("nasty-descriptions/v1.0/spec.json")).unwrap(),
    )
    .unwrap();
    let nasty = spec["definitions"]["a.v1.Thing"]["description"]
        .as_str()
        .unwrap();
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("json/v1.0/thing-a-v1.json")).unwrap())
            .unwrap();
    assert_eq!(
        schema["$defs"]["a.v1.Thing"]["description"], nasty,
        "JSON keeps the text exactly"
    );

    let pkl = pkl::pkl();
    let user = pkl::user_project(&pkl, "hostile", &out.join("pkl"));
    let modules = pkl::modules_below(&out.join("pkl/v1.0"));
    std::fs::write(
        user.path().join("all.pkl"),
        pkl::import_all_module("@hostile/v1.0", &modules),
    )
    .unwrap();
    pkl.eval_json(user.path(), &["all.pkl"]);
    // The default value renders back as written.
    std::fs::write(
        user.path().join("thing.pkl"),
        "amends \"@hostile/v1.0/a/Thing.pkl\"\n",
    )
    .unwrap();
    let rendered: serde_json::Value =
        serde_json::from_str(&pkl.eval_json(user.path(), &["thing.pkl"])).unwrap();
    assert_eq!(rendered["kind"], "Thing");
    if let Some(default) = rendered.get("pattern") {
        assert_eq!(default, nasty, "the default renders back unchanged");
    }
}

/// The cases whose regen succeeds with shapes the Rust and Pkl emitters
/// must name carefully: enum values that are empty, collide or are not
/// strings, `allOf` compositions, keywords and names that collide after
/// case folding.
const BUILT_CASES: [&str; 7] = [
    "empty-enum-value",
    "colliding-enum-values",
    "all-of-scalars",
    "non-string-enums",
    "keyword-names",
    "case-folded-names",
    "unmodeled-constructs",
];

/// Regenerates a committed case into `target/generated/hostile/<case>/`
/// (kept, so that the crates built from it are incremental).
fn regen_case_kept(case: &str) -> PathBuf {
    let root = support::root().join("target/generated/hostile").join(case);
    let api_dir = root.join("upstream-specs").join(case);
    if api_dir.exists() {
        std::fs::remove_dir_all(&api_dir).unwrap();
    }
    support::copy_dir(&support::root().join("tests/hostile").join(case), &api_dir);
    write_api_toml(&api_dir, case);
    let api = Api::open(&api_dir).unwrap();
    let out = root.join("generated").join(case);
    regen::regen(&api, &out, Mode::Write).unwrap_or_else(|err| panic!("{case}: {err}"));
    out
}

/// `cargo run` of a harness crate that depends on the generated crate at
/// `krate`, with warnings denied; returns stdout.
fn run_harness(case: &str, krate: &Path, main: &str) -> String {
    let dir = support::root()
        .join("target/generated/hostile/harness")
        .join(case);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\ngenerated = {{ package = \"vergate-{case}\", path = \"{}\", features = [\"v1_0\"] }}\nserde_json = \"1\"\n",
        krate.display()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let output = support::harness_cargo()
        .args(["run", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(support::root().join("target/generated/hostile/target"))
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{case}: cargo run failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Every case of [`BUILT_CASES`] gives a Rust crate that builds with every
/// minor and no warning; enum values that collide after naming keep distinct
/// variants whose wire values round-trip exactly, `""` included, and enums
/// of integers, numbers and booleans keep their JSON kind.
#[test]
fn hostile_shapes_build_as_rust_crates() {
    for case in BUILT_CASES {
        let out = regen_case_kept(case);
        let main = match case {
            "colliding-enum-values" => {
                let values = [
                    "a-b",
                    "a_b",
                    "A_B",
                    "",
                    "Empty",
                    "type",
                    "self",
                    "1x",
                    "é",
                    "ü",
                    " ",
                    "two words",
                    "Ab",
                    "crate",
                    "_",
                ];
                let mut main = String::from("use generated::v1_1::a::v1::Mode;\nfn main() {\n");
                for value in values {
                    let json = serde_json::to_string(value).unwrap();
                    main.push_str(&format!(
                        "    let mode: Mode = serde_json::from_str({json:?}).unwrap();\n    \
                         assert_eq!(serde_json::to_string(&mode).unwrap(), {json:?});\n"
                    ));
                }
                main.push_str("    println!(\"ok\");\n}\n");
                main
            }
            "non-string-enums" => "use generated::v1_0::a::v1::{Level, Thing};\n\
                fn main() {\n    \
                let json = r#\"{\"level\":30,\"mixed\":true,\"priority\":-5}\"#;\n    \
                let thing: Thing = serde_json::from_str(json).unwrap();\n    \
                assert_eq!(thing.level, Level(30));\n    \
                assert_eq!(serde_json::to_string(&thing).unwrap(), json);\n    \
                println!(\"ok\");\n}\n"
                .to_owned(),
            _ => "fn main() {\n    println!(\"ok\");\n}\n".to_owned(),
        };
        let stdout = run_harness(case, &out.join("rust"), &main);
        assert_eq!(stdout.trim(), "ok", "{case}");
    }
}

/// Every case of [`BUILT_CASES`] gives Pkl that the real pkl CLI evaluates
/// (every module, every type resolved); the enums keep their exact values:
/// `""` and the colliding strings as literal types, integers as integers.
#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn hostile_shapes_evaluate_in_pkl() {
    let pkl = pkl::pkl();
    for case in BUILT_CASES {
        let out = regen_case_kept(case);
        let user = pkl::user_project(&pkl, "hostile", &out.join("pkl"));
        let mut minors: Vec<String> = std::fs::read_dir(out.join("pkl"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("v1."))
            .collect();
        minors.sort();
        for minor in &minors {
            let modules = pkl::modules_below(&out.join("pkl").join(minor));
            let file = format!("all-{minor}.pkl");
            std::fs::write(
                user.path().join(&file),
                pkl::import_all_module(&format!("@hostile/{minor}"), &modules),
            )
            .unwrap();
            pkl.eval_json(user.path(), &[&file]);
        }
    }
    // Values of every kind are accepted as they are, and others refused.
    let out = regen_case_kept("non-string-enums");
    let user = pkl::user_project(&pkl, "hostile", &out.join("pkl"));
    let good = "import \"@hostile/v1.0/a/v1.pkl\"\n\
                t: v1.Thing = new { level = 30; mixed = true; priority = -5; ratio = 1.5e3; codes { 404 } }\n";
    std::fs::write(user.path().join("good.pkl"), good).unwrap();
    let rendered = pkl.eval_json(user.path(), &["good.pkl"]);
    assert!(rendered.contains("\"level\": 30"), "{rendered}");
    for bad in [
        "level = 3",
        "mixed = \"0\"",
        "priority = 1",
        "codes { 500 }",
    ] {
        let text = format!(
            "import \"@hostile/v1.0/a/v1.pkl\"\nt: v1.Thing = new {{ level = 1; mixed = 0; {bad} }}\n"
        );
        std::fs::write(user.path().join("bad.pkl"), text).unwrap();
        let output = pkl.eval(user.path(), &["bad.pkl"]);
        assert!(!output.status.success(), "{bad} was accepted");
    }
    let out = regen_case_kept("empty-enum-value");
    let user = pkl::user_project(&pkl, "hostile", &out.join("pkl"));
    let text = "import \"@hostile/v1.0/a/v1.pkl\"\n\
                r: v1.RestartPolicy = new { name = \"\"; modes { \"\" } }\nn: v1.Name = \"\"\n";
    std::fs::write(user.path().join("empty.pkl"), text).unwrap();
    let rendered = pkl.eval_json(user.path(), &["empty.pkl"]);
    assert!(rendered.contains("\"n\": \"\""), "{rendered}");
}

/// `allOf`s nested in one another far past any real spec: a clear error,
/// no stack overflow.
#[test]
fn all_of_nested_thousands_deep() {
    let project = Project::new("deep-all-of", |api_dir| {
        let depth = 5_000;
        let mut text = String::from("{\"swagger\": \"2.0\", \"definitions\": {\"a.v1.Deep\": ");
        text.push_str(&"{\"allOf\": [".repeat(depth));
        text.push_str("{\"properties\": {\"a\": {\"type\": \"string\"}}}");
        text.push_str(&"]}".repeat(depth));
        text.push_str("}}");
        std::fs::create_dir_all(api_dir.join("v1.0")).unwrap();
        std::fs::write(api_dir.join("v1.0/spec.json"), text).unwrap();
    });
    check(
        &project,
        &Error(&["v1.0/spec.json:1:", "recursion limit exceeded"]),
    );
    // Shallow JSON, deep `allOf`s: each member a `$ref` to the next
    // property's schema.
    let project = Project::new("deep-all-of", |api_dir| {
        let depth = 100;
        let mut properties = serde_json::Map::new();
        for level in 0..depth {
            let next = format!("#/definitions/a.v1.Chain/properties/p{}", level + 1);
            properties.insert(
                format!("p{level}"),
                serde_json::json!({"allOf": [{"$ref": next}]}),
            );
        }
        properties.insert(
            format!("p{depth}"),
            serde_json::json!({"properties": {"a": {"type": "string"}}}),
        );
        let spec = serde_json::json!({"swagger": "2.0", "definitions": {
            "a.v1.Chain": {"type": "object", "properties": properties}
        }});
        std::fs::create_dir_all(api_dir.join("v1.0")).unwrap();
        std::fs::write(api_dir.join("v1.0/spec.json"), spec.to_string()).unwrap();
    });
    check(
        &project,
        &Error(&[
            "#/definitions/a.v1.Chain/properties/p",
            "allOf nests more than 64 levels deep; flatten it",
        ]),
    );
}

/// Names far longer than a file name may be: an error naming the file it
/// could not write, or output, never a panic.
#[test]
fn huge_names() {
    let long = "x".repeat(5_000);
    let project = Project::new("huge-names", |api_dir| {
        let spec = serde_json::json!({
            "swagger": "2.0",
            "definitions": {
                format!("a.v1.{long}"): {"type": "object", "properties": {
                    long.clone(): {"type": "string", "enum": [long.clone(), ""]}
                }},
                "a.v1.Thing": {"type": "object", "properties": {
                    "big": {"$ref": format!("#/definitions/a.v1.{long}")}
                }},
            }
        });
        std::fs::create_dir_all(api_dir.join("v1.0")).unwrap();
        std::fs::write(api_dir.join("v1.0/spec.json"), spec.to_string()).unwrap();
    });
    let before = project.snapshot();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| project.regen()))
        .unwrap_or_else(|_| panic!("huge-names: regen panicked"));
    match outcome {
        Ok(_) => assert!(project.out_dir().join("gates.json").is_file()),
        Err(message) => {
            assert!(
                message.contains("xxxxxxxx"),
                "the error names the file: {message}"
            );
            assert_eq!(
                before,
                project.snapshot(),
                "a failed regen changed the output"
            );
        }
    }
}

/// Every real API at hand goes through every emitter (`regen` in check
/// mode: built in memory, nothing written) without a panic or an error:
/// the committed demo API here, Kubernetes below; the Docker Engine API in
/// `docker_api.rs`.
#[test]
fn the_demo_api_goes_through_every_emitter() {
    let api = Api::open(&support::root().join("upstream-specs/demo")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (built, _) = regen::regen(&api, &tmp.path().join("out"), Mode::Check).unwrap();
    assert!(built.tree.len() > 50);
}

/// [`the_demo_api_goes_through_every_emitter`] for the Kubernetes corpus.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn the_kubernetes_api_goes_through_every_emitter() {
    let specs = support::kubernetes_specs();
    let dir = support::api_dir_with_specs("kubernetes", &specs, &support::KUBERNETES_MINORS);
    let api = Api::open(dir.path()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (built, _) = regen::regen(&api, &tmp.path().join("out"), Mode::Check).unwrap();
    assert!(built.tree.len() > 1_000);
}
