//! The Kubernetes package `generated/kubernetes/pkl/` (git-ignored; CI
//! writes it with `cargo xtask regen --api kubernetes` before the tests),
//! judged by the real pkl CLI.

mod pkl;
mod support;

use serde_json::Value;
use std::path::Path;

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn every_module_of_every_minor_evaluates() {
    let (pkl, package) = (pkl::pkl(), support::kubernetes_output().join("pkl"));
    let project = pkl::user_project(&pkl, "k8s", &package);
    let mut files = Vec::new();
    for minor in support::KUBERNETES_MINORS {
        let modules = pkl::modules_below(&package.join(minor));
        for expected in [
            "apps/Deployment.pkl",
            "core/Service.pkl",
            "core/Namespace.pkl",
            "autoscaling/HorizontalPodAutoscaler.pkl",
            "autoscaling/v1/HorizontalPodAutoscaler.pkl",
        ] {
            assert!(
                modules.iter().any(|m| m == expected),
                "{minor} has no {expected}"
            );
        }
        let file = format!("all_{minor}.pkl");
        std::fs::write(
            project.path().join(&file),
            pkl::import_all_module(&format!("@k8s/{minor}"), &modules),
        )
        .unwrap();
        files.push(file);
    }
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let output = pkl.eval_json(project.path(), &names);
    assert!(
        output.contains(r#""introducedIn": "1.30""#),
        "annotations are rendered"
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn examples_of_every_minor_evaluate() {
    let (pkl, package) = (pkl::pkl(), support::kubernetes_output().join("pkl"));
    let files: Vec<String> = support::KUBERNETES_MINORS
        .iter()
        .map(|minor| format!("{minor}.pkl"))
        .collect();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let output = pkl.eval_json(&package.join("examples"), &names);
    for kind in [r#""kind": "Deployment""#, r#""kind": "Service""#] {
        assert_eq!(output.matches(kind).count(), 9, "{kind} once per minor");
    }
}

/// Evaluates a user file amending `@k8s/<minor>/<module>.pkl` with `body`.
fn amend(pkl: &pkl::Pkl, project: &Path, minor: &str, module: &str, body: &str) -> (bool, String) {
    let file = format!(
        "user_{}_{}.pkl",
        minor.replace('.', "_"),
        module.replace('/', "_")
    );
    std::fs::write(
        project.join(&file),
        format!("amends \"@k8s/{minor}/{module}.pkl\"\n\n{body}\n"),
    )
    .unwrap();
    let output = pkl.eval(project, &[&file]);
    let stream = if output.status.success() {
        output.stdout
    } else {
        output.stderr
    };
    (output.status.success(), String::from_utf8(stream).unwrap())
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn fields_exist_only_in_the_minors_that_accept_them() {
    let (pkl, package) = (pkl::pkl(), support::kubernetes_output().join("pkl"));
    let project = pkl::user_project(&pkl, "k8s", &package);
    let project = project.path();

    // trafficDistribution arrives in 1.30.
    let service = r#"metadata { name = "web" }
spec {
  trafficDistribution = "PreferClose"
  ports { new { port = 80; targetPort = "http" } }
}"#;
    // Alpha in 1.30: an error unless the user turns the gate on (pkl_k8s.rs).
    let (ok, text) = amend(&pkl, project, "v1.30", "core/Service", service);
    assert!(
        !ok && text.contains("trafficDistribution is alpha in kubernetes 1.30"),
        "{text}"
    );
    let (ok, text) = amend(&pkl, project, "v1.31", "core/Service", service);
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["apiVersion"], "v1");
    assert_eq!(json["kind"], "Service");
    assert_eq!(json["spec"]["trafficDistribution"], "PreferClose");
    assert_eq!(json["spec"]["ports"][0]["targetPort"], "http");
    let (ok, text) = amend(&pkl, project, "v1.29", "core/Service", service);
    assert!(
        !ok && text.contains("trafficDistribution is not available in 1.29; introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"),
        "{text}"
    );

    // PodResourceClaim.source is gone from 1.31. resourceClaims is alpha
    // (DynamicResourceAllocation) in both: a project whose cluster turns
    // every alpha gate on.
    let alpha_on = pkl::user_project(&pkl, "k8s", &package);
    let manifest = std::fs::read_to_string(alpha_on.path().join("PklProject")).unwrap();
    std::fs::write(
        alpha_on.path().join("PklProject"),
        format!("{manifest}\nevaluatorSettings {{ externalProperties {{ [\"vergate.featureGates\"] = \"AllAlpha=true\" }} }}\n"),
    )
    .unwrap();
    let project = alpha_on.path();
    let pod = r#"metadata { name = "p" }
spec {
  containers { new { name = "c"; image = "nginx"; resources { limits { ["cpu"] = "500m" } } } }
  resourceClaims { new { name = "gpu"; source { resourceClaimName = "gpu" } } }
}"#;
    let (ok, text) = amend(&pkl, project, "v1.30", "core/Pod", pod);
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["spec"]["resourceClaims"][0]["source"]["resourceClaimName"],
        "gpu"
    );
    let (ok, text) = amend(&pkl, project, "v1.31", "core/Pod", pod);
    assert!(
        !ok && text.contains("source is not available in 1.31; removed in 1.31"),
        "{text}"
    );

    // The other served version of a kind.
    let hpa = r#"metadata { name = "h" }
spec { scaleTargetRef { kind = "Deployment"; name = "web" }; maxReplicas = 3; targetCPUUtilizationPercentage = 80 }"#;
    let (ok, text) = amend(
        &pkl,
        project,
        "v1.34",
        "autoscaling/v1/HorizontalPodAutoscaler",
        hpa,
    );
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["apiVersion"], "autoscaling/v1");
    let (ok, text) = amend(
        &pkl,
        project,
        "v1.34",
        "autoscaling/HorizontalPodAutoscaler",
        hpa,
    );
    assert!(
        !ok && text.contains("Cannot find property `targetCPUUtilizationPercentage`"),
        "autoscaling/v2 is preferred: {text}"
    );
}

/// The user files of docs/pkl.md (its ```pkl blocks that amend or import
/// `@k8s/…`) evaluate as shown.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn the_user_files_of_the_docs_evaluate() {
    let (pkl, package) = (pkl::pkl(), support::kubernetes_output().join("pkl"));
    let docs = std::fs::read_to_string(pkl::root().join("docs/pkl.md")).unwrap();
    let blocks: Vec<&str> = docs
        .split("```pkl\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .filter(|block| block.contains("\"@k8s/v1.34/"))
        .collect();
    assert!(blocks.len() >= 2, "docs/pkl.md shows user files");
    let project = pkl::user_project(&pkl, "k8s", &package);
    for (index, block) in blocks.iter().enumerate() {
        let file = format!("doc_{index}.pkl");
        std::fs::write(project.path().join(&file), block).unwrap();
        let json: Value = serde_json::from_str(&pkl.eval_json(project.path(), &[&file])).unwrap();
        let kind = json
            .get("kind")
            .or_else(|| json["resources"][0].get("kind"));
        assert!(
            kind.is_some(),
            "docs/pkl.md block {index} renders a manifest: {json}"
        );
    }
    let broken = blocks[0].replace("@k8s/v1.34/", "@k8s/v1.29/");
    std::fs::write(project.path().join("doc_v1_29.pkl"), broken).unwrap();
    let output = pkl.eval(project.path(), &["doc_v1_29.pkl"]);
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("trafficDistribution is not available in 1.29; introduced in 1.30"),
        "the docs say v1.29 rejects trafficDistribution"
    );
}
