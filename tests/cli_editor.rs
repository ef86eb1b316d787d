//! `vergate editor`: the settings that point yaml-language-server at one
//! minor's schema, for each editor (docs/editor.md), on the committed
//! CRD-based demo (`generated/demo-operator`). tests/editor_yaml_ls.rs feeds
//! the printed settings to the real server.

mod support;

use support::cli::{code, stderr, stdout, vergate};

const API: &str = "generated/demo-operator";

/// What `vergate editor <args>` prints, with `--api` the demo unless
/// `--url` is given (the two exclude each other).
fn editor(args: &[&str]) -> String {
    let mut all = vec!["editor"];
    if !args.contains(&"--url") {
        all.extend(["--api", API]);
    }
    all.extend_from_slice(args);
    let run = vergate(&all);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    stdout(&run)
}

#[test]
fn vscode_settings_name_the_strict_all_json_of_the_minor() {
    let text = editor(&["--target", "0.2"]);
    let settings: serde_json::Value = serde_json::from_str(&text).unwrap();
    let schema = format!("{API}/json/v0.2-strict/all.json");
    assert_eq!(
        settings,
        serde_json::json!({ "yaml.schemas": { schema.as_str(): ["*.yaml", "*.yml"] } })
    );
    assert!(support::root().join(&schema).is_file());
    let plain = editor(&["--target", "v0.2.7", "--plain", "--glob", "harbor/*.yaml"]);
    assert!(
        plain.contains(&format!(
            "\"{API}/json/v0.2/all.json\": [\n      \"harbor/*.yaml\"\n    ]"
        )),
        "{plain}"
    );
}

#[test]
fn each_editor_gets_its_own_form() {
    let url = [
        "--target",
        "0.3",
        "--url",
        "https://schemas.example.com/harbor/json/",
    ];
    let schema = "https://schemas.example.com/harbor/json/v0.3-strict/all.json";
    let neovim = editor(&[&url[..], &["--editor", "neovim"]].concat());
    assert!(
        neovim.contains("require(\"lspconfig\").yamlls.setup({"),
        "{neovim}"
    );
    assert!(
        neovim.contains(&format!("[\"{schema}\"] = {{ \"*.yaml\", \"*.yml\" }},")),
        "{neovim}"
    );
    let helix = editor(&[&url[..], &["--editor", "helix"]].concat());
    let table: toml::Table = helix.parse().unwrap();
    assert_eq!(
        table["language-server"]["yaml-language-server"]["config"]["yaml"]["schemas"][schema],
        toml::Value::Array(vec!["*.yaml".into(), "*.yml".into()])
    );
    let modeline = editor(&[&url[..], &["--editor", "modeline"]].concat());
    assert_eq!(
        modeline,
        format!("# yaml-language-server: $schema={schema}\n")
    );
}

#[test]
fn a_minor_the_api_lacks_is_an_input_error_listing_its_minors() {
    let run = vergate(&["editor", "--api", API, "--target", "0.9"]);
    assert_eq!(code(&run), 2);
    assert_eq!(stdout(&run), "");
    assert_eq!(
        stderr(&run),
        format!("error: {API}/json/v0.9-strict/all.json: no such schema; the minors under {API}/json: 0.1, 0.2, 0.3\n")
    );
    let run = vergate(&["editor", "--api", "tests", "--target", "1.34"]);
    assert_eq!(code(&run), 2);
    assert!(
        stderr(&run).contains("tests/json: no JSON Schema trees there"),
        "{}",
        stderr(&run)
    );
}
