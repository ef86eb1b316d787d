//! `vergate editor`: each editor's set-up of `vergate lsp` beside
//! yaml-language-server pointed at one minor's schema (docs/editor.md), on
//! the committed CRD-based demo (`generated/demo-operator`).
//! tests/editor_yaml_ls.rs feeds the printed settings to the real server.

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
        serde_json::json!({
            "vergate.path": "vergate",
            "vergate.args": ["lsp"],
            "yaml.schemas": { schema.as_str(): ["*.yaml", "*.yml"] },
        })
    );
    assert!(support::root().join(&schema).is_file());
    // The positional form is the same; --yaml-only leaves vergate lsp out.
    assert_eq!(editor(&["vscode", "--target", "0.2"]), text);
    let yaml_only: serde_json::Value =
        serde_json::from_str(&editor(&["--target", "0.2", "--yaml-only"])).unwrap();
    assert_eq!(
        yaml_only,
        serde_json::json!({ "yaml.schemas": { schema.as_str(): ["*.yaml", "*.yml"] } })
    );
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
        neovim.contains("cmd = { \"vergate\", \"lsp\" },")
            && neovim.contains("vim.lsp.start({")
            && neovim.contains("root_dir = vim.fs.root(args.buf, { \"vergate.toml\", \".git\" }),"),
        "{neovim}"
    );
    assert_eq!(editor(&[&url[..], &["neovim"]].concat()), neovim);
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
    assert_eq!(
        table["language-server"]["vergate"]["command"].as_str(),
        Some("vergate")
    );
    assert_eq!(
        table["language-server"]["vergate"]["args"],
        toml::Value::Array(vec!["lsp".into()])
    );
    let yaml = &table["language"].as_array().unwrap()[0];
    assert_eq!(yaml["name"].as_str(), Some("yaml"));
    assert_eq!(
        yaml["language-servers"],
        toml::Value::Array(vec!["vergate".into(), "yaml-language-server".into()])
    );
    let zed: serde_json::Value =
        serde_json::from_str(&editor(&[&url[..], &["zed"]].concat())).unwrap();
    assert_eq!(
        zed,
        serde_json::json!({
            "lsp": {
                "vergate": { "binary": { "path": "vergate", "arguments": ["lsp"] } },
                "yaml-language-server": {
                    "settings": { "yaml": { "schemas": { schema: ["*.yaml", "*.yml"] } } }
                }
            },
            "languages": {
                "YAML": { "language_servers": ["vergate", "yaml-language-server", "..."] }
            }
        })
    );
    // Zed reads a relative schema path from the worktree root when it starts with ./
    let zed_local = editor(&["zed", "--target", "0.3", "--yaml-only"]);
    assert!(
        zed_local.contains(&format!("\"./{API}/json/v0.3-strict/all.json\"")),
        "{zed_local}"
    );
    let modeline = editor(&[&url[..], &["--editor", "modeline"]].concat());
    assert_eq!(
        modeline,
        format!("# yaml-language-server: $schema={schema}\n# vergate: target=0.3\n")
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

/// The VS Code extension under docs/editors/vscode declares the settings
/// `vergate editor vscode` writes, with the defaults printed.
#[test]
fn the_vscode_extension_declares_the_printed_settings() {
    let package =
        std::fs::read_to_string(support::root().join("docs/editors/vscode/package.json")).unwrap();
    let package: serde_json::Value = serde_json::from_str(&package).unwrap();
    let properties = &package["contributes"]["configuration"]["properties"];
    let printed: serde_json::Value = serde_json::from_str(&editor(&["--target", "0.2"])).unwrap();
    for key in ["vergate.path", "vergate.args"] {
        assert_eq!(properties[key]["default"], printed[key], "{key}");
    }
    assert_eq!(package["main"], "./extension.js");
    let zed =
        std::fs::read_to_string(support::root().join("docs/editors/zed/extension.toml")).unwrap();
    let zed: toml::Table = zed.parse().unwrap();
    assert_eq!(
        zed["language_servers"]["vergate"]["languages"],
        toml::Value::Array(vec!["YAML".into(), "JSON".into()])
    );
}

/// Without --target, the target of the nearest vergate.toml.
#[test]
fn the_target_comes_from_vergate_toml() {
    let dir = tempfile::tempdir().unwrap();
    let api = support::root().join(API);
    let run_in = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_vergate"))
            .arg("editor")
            .arg("--api")
            .arg(&api)
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let none = run_in(&["modeline"]);
    assert_eq!(code(&none), 2);
    assert!(stderr(&none).contains("pass --target"), "{}", stderr(&none));
    std::fs::write(dir.path().join("vergate.toml"), "target = \"0.2\"\n").unwrap();
    let found = run_in(&["modeline"]);
    assert_eq!(code(&found), 0, "{}", stderr(&found));
    assert!(
        stdout(&found).ends_with("v0.2-strict/all.json\n# vergate: target=0.2\n"),
        "{}",
        stdout(&found)
    );
    std::fs::write(dir.path().join("vergate.toml"), "target = 0.2\n").unwrap();
    let broken = run_in(&["modeline"]);
    assert_eq!(code(&broken), 2);
    assert!(
        stderr(&broken).contains("vergate.toml:1:10: target is a number"),
        "{}",
        stderr(&broken)
    );
}
