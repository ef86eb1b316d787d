//! #34: the API server's cross-field rules (the refinements overlay's
//! `[[rules]]`) are refused by the Pkl packages and by `vergate check`
//! with one message: a Service with two unnamed ports, two container ports
//! of one name, a probe with two handlers, an Endpoints subset with two
//! ports and one unnamed, a NetworkPolicy peer with an ipBlock and a
//! podSelector. Each case is written twice, as
//! Pkl and as YAML, and both must name the same place and words.

mod pkl;
mod support;

use support::cli::{code, stdout, vergate};

/// (Pkl file, the same object as YAML, the message both give). Pkl names
/// the place below the property holding the rule (`ports[0].name`);
/// `check` gives the whole path, which ends the same.
const CASES: &[(&str, &str, &str)] = &[
    (
        "amends \"@k8s/api/core/v1/Service.pkl\"\nmetadata { name = \"web\" }\nspec { ports { new { port = 80 } new { port = 443 } } }\n",
        "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports:\n  - port: 80\n  - port: 443\n",
        "ports[0].name: Required value",
    ),
    (
        "amends \"@k8s/api/core/v1/Pod.pkl\"\nmetadata { name = \"web\" }\nspec { containers { new { name = \"app\"; image = \"nginx\"; ports { new { name = \"http\"; containerPort = 80 } new { name = \"http\"; containerPort = 8080 } } } } }\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: app\n    image: nginx\n    ports:\n    - {name: http, containerPort: 80}\n    - {name: http, containerPort: 8080}\n",
        "ports[1].name: Duplicate value: \"http\"",
    ),
    (
        "amends \"@k8s/api/core/v1/Pod.pkl\"\nmetadata { name = \"web\" }\nspec { containers { new { name = \"app\"; image = \"nginx\"; livenessProbe { httpGet { port = 80 }; exec { command { \"true\" } } } } } }\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: app\n    image: nginx\n    livenessProbe:\n      httpGet: {port: 80}\n      exec: {command: [\"true\"]}\n",
        "httpGet: Forbidden: may not specify more than 1 handler type",
    ),
    (
        "amends \"@k8s/api/core/v1/Endpoints.pkl\"\nmetadata { name = \"web\" }\nsubsets { new { addresses { new { ip = \"10.0.0.1\" } }; ports { new { name = \"http\"; port = 80 } new { port = 443 } } } }\n",
        "apiVersion: v1\nkind: Endpoints\nmetadata: {name: web}\nsubsets:\n- addresses: [{ip: 10.0.0.1}]\n  ports:\n  - {name: http, port: 80}\n  - {port: 443}\n",
        "ports[1].name: Required value",
    ),
    (
        "amends \"@k8s/api/networking/v1/NetworkPolicy.pkl\"\nmetadata { name = \"db\" }\nspec { podSelector {}; ingress { new { from { new { ipBlock { cidr = \"10.0.0.0/8\" }; podSelector { matchLabels { [\"app\"] = \"api\" } } } } } } }\n",
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: db}\nspec:\n  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock: {cidr: 10.0.0.0/8}\n      podSelector: {matchLabels: {app: api}}\n",
        "Forbidden: may not specify both ipBlock and another peer",
    ),
];

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn pkl_and_check_refuse_with_one_message() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let project = pkl::user_project(&pkl, "k8s", &output.join("pkl/v1.34"));
    let files = tempfile::tempdir().unwrap();
    for (index, (source, yaml, message)) in CASES.iter().enumerate() {
        let name = format!("case{index}.pkl");
        std::fs::write(project.path().join(&name), source).unwrap();
        let evaluated = pkl.run(project.path(), &["eval", "--project-dir", ".", &name]);
        let error = String::from_utf8_lossy(&evaluated.stderr);
        assert!(!evaluated.status.success(), "{name} evaluated");
        assert!(error.contains(message), "{name}: {error}");

        let file = files.path().join(format!("case{index}.yaml"));
        std::fs::write(&file, yaml).unwrap();
        let api = output.to_str().unwrap();
        let checked = vergate(&[
            "check",
            "--api",
            api,
            "--target",
            "1.34",
            file.to_str().unwrap(),
        ]);
        let printed = stdout(&checked);
        assert_eq!(code(&checked), 1, "{printed}");
        assert!(
            printed.lines().any(|line| line.ends_with(message)),
            "check of case {index} does not end a line with {message:?}:\n{printed}"
        );
    }
    // Without the broken rule, both accept.
    let fine = "amends \"@k8s/api/core/v1/Pod.pkl\"\nmetadata { name = \"web\" }\nspec { containers { new { name = \"app\"; image = \"nginx\"; ports { new { name = \"http\"; containerPort = 80 } new { containerPort = 81 } }; livenessProbe { httpGet { port = 80 } }; lifecycle { preStop { sleep { seconds = 1 } } } } } }\n";
    std::fs::write(project.path().join("fine.pkl"), fine).unwrap();
    let evaluated = pkl.run(project.path(), &["eval", "--project-dir", ".", "fine.pkl"]);
    assert!(
        evaluated.status.success(),
        "{}",
        String::from_utf8_lossy(&evaluated.stderr)
    );
}
