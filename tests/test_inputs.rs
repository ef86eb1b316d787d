//! The tests that need an outside input (`support::inputs`) say so the same
//! way everywhere: every `#[cfg_attr(not(…), ignore = "…")]` in `tests/*.rs`
//! names the cfgs of known inputs and gives exactly their reasons, and every
//! test that asks for an input carries the attribute of that input.

mod support;

use support::inputs::Input;

/// What a test asks for, by the input it needs.
const CALLS: [(&str, &str); 13] = [
    ("support::yaml_test_suite(", "vergate_yaml_test_suite"),
    ("support::crds(", "vergate_crds"),
    ("support::kubernetes_specs(", "vergate_kubernetes_specs"),
    // json_schema_kubernetes.rs: the trees of the specs, built once.
    ("kubernetes_trees(", "vergate_kubernetes_specs"),
    ("support::kubernetes_output(", "vergate_kubernetes_output"),
    ("pkl::pkl(", "vergate_pkl"),
    (
        "support::openapi_spec_validator()",
        "vergate_openapi_spec_validator",
    ),
    // Optional under CI (CI lacks it too): see support/inputs.rs.
    ("support::docker_specs(", "vergate_docker_specs"),
    (
        "support::yaml_language_server(",
        "vergate_yaml_language_server",
    ),
    ("support::pytest_lsp(", "vergate_pytest_lsp"),
    ("support::pkl_k8s_checkout(", "vergate_pkl_k8s"),
    ("support::pkl_pantry_checkout(", "vergate_pkl_pantry"),
    (
        "support::kubectl_validate_testcases(",
        "vergate_kubectl_validate_testcases",
    ),
];

#[test]
fn every_test_that_needs_an_input_is_ignored_without_it_with_its_reason() {
    let inputs = Input::all(support::root());
    let mut checked = 0;
    for entry in std::fs::read_dir(support::root().join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for test in text.split("#[test]\n").skip(1) {
            let test = format!("\n{test}");
            let name = path.file_name().unwrap().to_string_lossy();
            let head = test.split_once("\nfn ").map_or("", |(head, _)| head);
            let body = test.split("\n}\n").next().unwrap_or_default();
            let needed: Vec<&Input> = inputs
                .iter()
                .filter(|input| {
                    CALLS
                        .iter()
                        .any(|(call, cfg)| *cfg == input.cfg && body.contains(call))
                })
                .collect();
            let expected = match needed.as_slice() {
                [] => String::new(),
                [one] => format!("#[cfg_attr(not({}), ignore = \"{}\")]", one.cfg, one.reason),
                several => {
                    let cfgs: Vec<&str> = several.iter().map(|input| input.cfg).collect();
                    let reasons: Vec<&str> = several.iter().map(|input| input.reason).collect();
                    format!(
                        "#[cfg_attr(not(all({})), ignore = \"{}\")]",
                        cfgs.join(", "),
                        reasons.join("; ")
                    )
                }
            };
            // On one line, however rustfmt wrapped it.
            let head = head
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
                .replace("( ", "(")
                .replace(" )", ")");
            let found = head
                .find("#[cfg_attr(not(")
                .map_or("", |start| &head[start..]);
            let function = test.split_once("\nfn ").map_or("", |(_, rest)| rest);
            let function = function.split('(').next().unwrap_or_default();
            assert_eq!(found, expected, "{name}: {function}");
            checked += usize::from(!expected.is_empty());
        }
    }
    assert!(checked >= 40, "only {checked} tests need an input");
}
