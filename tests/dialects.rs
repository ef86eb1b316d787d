//! Each API's rules are its own: an operator's CRDs that embed Kubernetes
//! types keep their shape, not Kubernetes' feature gates and stages (the
//! operator's 1.14 is not Kubernetes 1.14), and a value deprecated in the
//! prose operators write (`` `LegacyRC2`: Deprecated. ``) deprecates that
//! value, not the field. The same specs declared `kubernetes` do read the
//! gate prose, so the test shows the declaration is what decides.

use serde_json::Value;
use vergate_codegen::api::Api;
use vergate_codegen::regen;

/// One release of a made-up operator: a pod template field whose
/// description is Kubernetes' (gate prose and all), and a channel enum
/// whose values are described in the operator's style.
fn crd(with_canary: bool) -> String {
    let canary = if with_canary {
        "\n                    - Canary"
    } else {
        ""
    };
    format!(
        r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: fleets.ops.example.com
spec:
  group: ops.example.com
  names: {{kind: Fleet, listKind: FleetList, plural: fleets, singular: fleet}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {{type: string}}
          kind: {{type: string}}
          metadata: {{type: object}}
          spec:
            type: object
            properties:
              affinity:
                type: object
                properties:
                  matchLabelKeys:
                    description: MatchLabelKeys is a set of pod label keys. This is an alpha field and requires enabling the MatchLabelKeysInPodAffinity feature gate.
                    type: array
                    items: {{type: string}}
              channel:
                description: |-
                  Channel of the builds the fleet runs.

                  `Stable`: the supported builds.
                  `LegacyRC2`: Deprecated. Kept for clusters that never moved.
                type: string
                enum:
                    - Stable
                    - LegacyRC2{canary}
"#
    )
}

/// gates.json of the operator's releases 1.13 and 1.14, under `dialect`.
fn gates(dialect: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = format!(
        "name = \"fleet\"\ndialect = \"{dialect}\"\npkl_package = \"fleet\"\nversion_field = \"fleetVersion\"\nspec_files = [\"*.yaml\"]\n"
    );
    for (minor, canary) in [("1.13", false), ("1.14", true)] {
        let text = crd(canary);
        let minor_dir = dir.path().join(format!("v{minor}"));
        std::fs::create_dir_all(&minor_dir).unwrap();
        std::fs::write(minor_dir.join("crds.yaml"), &text).unwrap();
        toml.push_str(&format!(
            "\n[minors.\"{minor}\".files.\"crds.yaml\"]\nsha256 = \"{}\"\n",
            vergate_codegen::api::sha256_hex(text.as_bytes())
        ));
    }
    std::fs::write(dir.path().join("api.toml"), toml).unwrap();
    let api = Api::open(dir.path()).unwrap();
    let built = regen::build(&api).unwrap_or_else(|err| panic!("{err}"));
    serde_json::from_slice(built.tree.get("gates.json").unwrap()).unwrap()
}

fn spec_type(gates: &Value, suffix: &str) -> Value {
    let types = gates["types"].as_object().unwrap();
    let (_, ty) = types
        .iter()
        .find(|(name, _)| name.ends_with(suffix))
        .unwrap_or_else(|| panic!("no type ending {suffix}: {:?}", types.keys()));
    ty.clone()
}

#[test]
fn an_operators_crds_carry_no_kubernetes_gates() {
    let gates = gates("custom-resources");
    let affinity = spec_type(&gates, "Affinity");
    let field = &affinity["fields"]["matchLabelKeys"];
    assert_eq!(field["feature_gate"], Value::Null, "{field}");
    assert_eq!(field["stage"], Value::Null, "{field}");
    assert!(gates.get("feature_gates").is_none());
    // Declared Kubernetes, the same prose is read as a gate and a stage.
    let kubernetes = gates_kubernetes_style();
    let field = &spec_type(&kubernetes, "Affinity")["fields"]["matchLabelKeys"];
    assert_eq!(field["feature_gate"], "MatchLabelKeysInPodAffinity");
    assert_eq!(field["stage"]["1.13"], "alpha");
}

/// The same specs declared `kubernetes` (with no fact tables recorded).
fn gates_kubernetes_style() -> Value {
    gates("kubernetes")
}

#[test]
fn a_deprecated_value_stays_on_the_value() {
    for dialect in ["custom-resources", "openapi", "kubernetes"] {
        let gates = gates(dialect);
        let channel = &spec_type(&gates, "Spec")["fields"]["channel"];
        assert_eq!(
            channel["deprecated_in"],
            Value::Null,
            "{dialect}: {channel}"
        );
        assert_eq!(
            channel["values"]["LegacyRC2"]["deprecated_in"], "1.13",
            "{dialect}: {channel}"
        );
        assert_eq!(
            channel["values"]["Stable"]["deprecated_in"],
            Value::Null,
            "{dialect}"
        );
        assert_eq!(
            channel["values"]["Canary"]["introduced_in"], "1.14",
            "{dialect}"
        );
    }
}

#[test]
fn an_unknown_dialect_or_facts_outside_kubernetes_are_refused_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let base = "name = \"x\"\npkl_package = \"x\"\nversion_field = \"xVersion\"\nspec_files = [\"*.yaml\"]\n";
    for (extra, says) in [
        (
            "dialect = \"k8s\"\n",
            "dialect \"k8s\" is not one of \"kubernetes\", \"custom-resources\", \"openapi\"",
        ),
        (
            "dialect = \"openapi\"\n[facts.feature_gates.files]\n\"A.md\" = \"00\"\n",
            "[facts.feature_gates]: the openapi dialect reads no fact tables",
        ),
        (
            "dialect = \"kubernetes\"\n[facts.feature_gates.files]\n\"../A.md\" = \"00\"\n",
            "give a relative path inside feature-gates/",
        ),
        (
            "dialect = \"kubernetes\"\n[facts.api_lifecycle.files]\n\"v1.2/a/v1/x.go\" = \"00\"\n",
            "sha256 must be 64 hex digits",
        ),
    ] {
        std::fs::write(dir.path().join("api.toml"), format!("{base}{extra}")).unwrap();
        let err = Api::open(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("api.toml") && err.contains(says),
            "{extra}: {err}"
        );
    }
}
