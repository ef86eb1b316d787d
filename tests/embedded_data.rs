//! The Kubernetes gates the `vergate` binary embeds: checks need no `--api`
//! and no generated tree, and the committed index is what the regen writes.

mod support;

use std::process::Command;
use support::cli::{code, stderr, stdout};

const MANIFEST: &str = "tests/manifests/kubernetes/service-traffic-distribution.yaml";

/// Runs `vergate ARGS…` in an empty directory holding only a copy of the
/// manifest: there is no `generated/kubernetes` to find there, nor
/// `../shared`.
fn vergate_elsewhere(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        support::root().join(MANIFEST),
        dir.path().join("service.yaml"),
    )
    .unwrap();
    Command::new(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .expect("the vergate binary runs")
}

#[test]
fn check_without_api_uses_the_embedded_kubernetes_gates() {
    for target in ["1.29", "v1.29.4-gke.1043000"] {
        let out = vergate_elsewhere(&["check", "--target", target, "service.yaml"]);
        assert_eq!(code(&out), 1, "{target}: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with(
                "service.yaml:11: Service shop/catalog: spec.trafficDistribution: not available in 1.29 (introduced in 1.30"
            ),
            "{target}: {}",
            stdout(&out)
        );
        assert!(
            stderr(&out).contains("against kubernetes: 1 error"),
            "{}",
            stderr(&out)
        );
    }
    let out = vergate_elsewhere(&["check", "--target", "1.30", "service.yaml"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = vergate_elsewhere(&["check", "--target", "1.37", "service.yaml"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("the newest minor kubernetes knows is 1.36"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn versions_without_a_package_lists_the_embedded_minors() {
    let out = vergate_elsewhere(&["versions"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "embedded in this vergate: kubernetes gates, 9 minors, newest 1.36\n  1.28\n"
        ),
        "{text}"
    );
    let out = vergate_elsewhere(&["versions", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["embedded"]["api"], "kubernetes");
    assert_eq!(json["embedded"]["versions"][0], "1.28");
    assert_eq!(json["embedded"]["versions"][8], "1.36");
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_committed_index_is_what_the_regen_writes() {
    let gates = support::kubernetes_output().join("gates.json");
    let index: vergate::gates::GatesIndex =
        serde_json::from_slice(&std::fs::read(&gates).unwrap()).unwrap();
    let committed =
        std::fs::read_to_string(support::root().join(vergate::embedded::KUBERNETES_PATH)).unwrap();
    assert!(
        vergate::embedded::render(&index) == committed,
        "{} is stale against {}; run `cargo xtask regen --api kubernetes` and commit the result",
        vergate::embedded::KUBERNETES_PATH,
        gates.display()
    );
}
