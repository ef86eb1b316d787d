//! #16: pkl-k8s users switch by changing one dependency. Files written as
//! for apple/pkl-k8s (`@k8s/K8sResource.pkl`, `@k8s/api/<group>/<version>/
//! <Kind>.pkl`, `Listing<K8sResource>`, `100.mib`, the stream renderer)
//! evaluate, with the real pkl CLI, against the package of one minor
//! (`generated/kubernetes/pkl/v<X.Y>/PklProject`); a field of a later minor
//! fails naming that minor; enums and quantities are refined.

mod pkl;
mod support;

use std::path::Path;

/// A user project depending on the package of `minor` alone, holding the
/// files given.
fn project(
    pkl: &pkl::Pkl,
    output: &Path,
    minor: &str,
    files: &[(&str, &str)],
) -> tempfile::TempDir {
    let package = output.join("pkl").join(minor);
    let project = pkl::user_project(pkl, "k8s", &package);
    for (name, text) in files {
        std::fs::write(project.path().join(name), text).unwrap();
    }
    project
}

/// `pkl eval FILE` (the module's own renderer): success and its output or
/// error.
fn eval(pkl: &pkl::Pkl, project: &Path, args: &[&str]) -> (bool, String) {
    let mut all = vec!["eval", "--project-dir", "."];
    all.extend_from_slice(args);
    let output = pkl.run(project, &all);
    let text = if output.status.success() {
        String::from_utf8(output.stdout).unwrap()
    } else {
        String::from_utf8(output.stderr).unwrap()
    };
    (output.status.success(), text)
}

const FRONTEND: &str = include_str!("pkl/k8s/frontend.pkl");

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn a_pkl_k8s_file_renders_a_yaml_stream_in_two_minors() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    for minor in ["v1.29", "v1.34"] {
        let project = project(&pkl, &output, minor, &[("frontend.pkl", FRONTEND)]);
        let (ok, yaml) = eval(&pkl, project.path(), &["frontend.pkl"]);
        assert!(ok, "{minor}: {yaml}");
        let documents: Vec<serde_yaml_ng::Value> = yaml
            .split("\n---\n")
            .map(|document| serde_yaml_ng::from_str(document).unwrap())
            .collect();
        assert_eq!(documents.len(), 2, "{minor}: a stream of two: {yaml}");
        assert_eq!(documents[0]["kind"].as_str(), Some("Service"));
        assert_eq!(documents[0]["apiVersion"].as_str(), Some("v1"));
        assert_eq!(documents[1]["kind"].as_str(), Some("Deployment"));
        assert_eq!(documents[1]["apiVersion"].as_str(), Some("apps/v1"));
        let container = &documents[1]["spec"]["template"]["spec"]["containers"][0]["resources"];
        // DataSize rendered as Kubernetes writes quantities; numbers stay numbers.
        assert_eq!(
            container["requests"]["memory"].as_str(),
            Some("100Mi"),
            "{minor}"
        );
        assert_eq!(container["requests"]["cpu"].as_str(), Some("100m"));
        assert_eq!(container["limits"]["memory"].as_str(), Some("1Gi"));
        assert_eq!(
            container["limits"]["ephemeral-storage"].as_str(),
            Some("2G")
        );
        assert_eq!(container["limits"]["cpu"].as_f64(), Some(0.5));
        assert!(
            !yaml.contains("null"),
            "null properties are left out: {yaml}"
        );
    }
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn amending_a_pkl_k8s_path_renders_yaml_and_a_later_field_names_its_minor() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let service = r#"amends "@k8s/api/core/v1/Service.pkl"

metadata { name = "web" }
spec {
  selector { ["app"] = "web" }
  ports { new { port = 80; targetPort = "http" } }
  trafficDistribution = "PreferClose"
}
"#;
    let newer = project(&pkl, &output, "v1.34", &[("service.pkl", service)]);
    let (ok, yaml) = eval(&pkl, newer.path(), &["service.pkl"]);
    assert!(ok, "{yaml}");
    assert!(
        yaml.starts_with("apiVersion: v1\nkind: Service\n"),
        "{yaml}"
    );
    assert!(yaml.contains("trafficDistribution: PreferClose"), "{yaml}");
    // -f json is honoured, as pkl-k8s users expect of `pkl eval -f json`.
    let (ok, json) = eval(&pkl, newer.path(), &["-f", "json", "service.pkl"]);
    assert!(ok && json.trim_start().starts_with('{'), "{json}");

    let older = project(&pkl, &output, "v1.29", &[("service.pkl", service)]);
    let (ok, error) = eval(&pkl, older.path(), &["service.pkl"]);
    assert!(!ok, "1.29 has no trafficDistribution");
    assert!(
        error.contains("trafficDistribution is not available in 1.29; introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"),
        "{error}"
    );
    // Without the field, 1.29 renders it too.
    let plain = service.replace("  trafficDistribution = \"PreferClose\"\n", "");
    let older = project(&pkl, &output, "v1.29", &[("service.pkl", &plain)]);
    let (ok, yaml) = eval(&pkl, older.path(), &["service.pkl"]);
    assert!(ok && !yaml.contains("trafficDistribution"), "{yaml}");
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn enums_and_quantities_are_refined_and_modules_are_open() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let files = [
        (
            "bad_type.pkl",
            "amends \"@k8s/api/core/v1/Service.pkl\"\nspec { type = \"NodePortt\" }\n",
        ),
        (
            "bad_quantity.pkl",
            "amends \"@k8s/api/core/v1/Pod.pkl\"\nspec { containers { new { name = \"c\"; resources { limits { [\"cpu\"] = \"lots\" } } } } }\n",
        ),
        (
            "numbers.pkl",
            "amends \"@k8s/api/core/v1/Pod.pkl\"\nspec { containers { new { name = \"c\"; resources { limits { [\"cpu\"] = 1; [\"memory\"] = 512.mib } } } } }\n",
        ),
        (
            "extended.pkl",
            "extends \"@k8s/api/apps/v1/Deployment.pkl\"\nmetadata { name = \"web\" }\nteam: String = \"shop\"\n",
        ),
    ];
    let project = project(&pkl, &output, "v1.34", &files);
    let (ok, error) = eval(&pkl, project.path(), &["bad_type.pkl"]);
    assert!(
        !ok && error.contains("NodePortt"),
        "an unknown enum value fails: {error}"
    );
    let (ok, error) = eval(&pkl, project.path(), &["bad_quantity.pkl"]);
    assert!(
        !ok && error.contains("lots"),
        "a string that is no quantity fails: {error}"
    );
    let (ok, yaml) = eval(&pkl, project.path(), &["numbers.pkl"]);
    assert!(
        ok && yaml.contains("cpu: 1") && yaml.contains("memory: 512Mi"),
        "{yaml}"
    );
    let (ok, yaml) = eval(&pkl, project.path(), &["extended.pkl"]);
    assert!(
        ok && yaml.contains("kind: Deployment") && yaml.contains("team: shop"),
        "{yaml}"
    );
}

/// #16 item 4: what pkl-k8s refines and the specs say only in prose
/// (upstream-specs/kubernetes/refinements.toml): port numbers, port names,
/// DNS-label container names.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn ports_and_names_are_refined_as_pkl_k8s_does() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let service = |target: &str| {
        format!("amends \"@k8s/api/core/v1/Service.pkl\"\nspec {{ ports {{ new {{ port = 80; targetPort = {target} }} }} }}\n")
    };
    let pod = |name: &str, port: u32| {
        format!("amends \"@k8s/api/core/v1/Pod.pkl\"\nspec {{ containers {{ new {{ name = \"{name}\"; ports {{ new {{ containerPort = {port} }} }} }} }} }}\n")
    };
    let files = [
        ("target_too_big.pkl", service("70000")),
        ("target_name.pkl", service("\"http\"")),
        ("target_bad_name.pkl", service("\"HTTP_1\"")),
        ("port_zero.pkl", pod("web", 0)),
        ("bad_name.pkl", pod("Web_1", 80)),
        ("good.pkl", pod("web-1", 8080)),
    ];
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let project = project(&pkl, &output, "v1.34", &borrowed);
    for (file, accepted) in [
        ("target_too_big.pkl", false),
        ("target_name.pkl", true),
        ("target_bad_name.pkl", false),
        ("port_zero.pkl", false),
        ("bad_name.pkl", false),
        ("good.pkl", true),
    ] {
        let (ok, text) = eval(&pkl, project.path(), &[file]);
        assert_eq!(ok, accepted, "{file}: {text}");
    }
}

/// #16 item 6: an alpha field is an error naming its feature gate unless
/// the user's PklProject turns the gate on (as the API server's flag does);
/// a deprecated field set traces a warning at evaluation.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn alpha_fields_are_opt_in_and_deprecated_ones_warn() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let service =
        "amends \"@k8s/api/core/v1/Service.pkl\"\nspec { trafficDistribution = \"PreferClose\" }\n";
    let project = project(&pkl, &output, "v1.30", &[("service.pkl", service)]);
    let (ok, error) = eval(&pkl, project.path(), &["service.pkl"]);
    assert!(!ok, "alpha in 1.30: off by default");
    assert!(
        error.contains("trafficDistribution is alpha in kubernetes 1.30: the API server drops it unless feature gate ServiceTrafficDistribution is on"),
        "{error}"
    );
    // The user's PklProject says the cluster turns it on.
    let manifest = std::fs::read_to_string(project.path().join("PklProject")).unwrap();
    let manifest = format!(
        "{manifest}\nevaluatorSettings {{\n  externalProperties {{\n    [\"vergate.featureGates\"] = \"SomethingElse=false,ServiceTrafficDistribution=true\"\n  }}\n}}\n"
    );
    std::fs::write(project.path().join("PklProject"), manifest).unwrap();
    let (ok, yaml) = eval(&pkl, project.path(), &["service.pkl"]);
    assert!(
        ok && yaml.contains("trafficDistribution: PreferClose"),
        "{yaml}"
    );

    // Pod.spec.serviceAccount is deprecated (use serviceAccountName).
    let pod = "amends \"@k8s/api/core/v1/Pod.pkl\"\nspec { serviceAccount = \"builder\"; containers { new { name = \"c\" } } }\n";
    let project = project_with(&pkl, &output, "v1.34", "pod.pkl", pod);
    let output = pkl.run(project.path(), &["eval", "--project-dir", ".", "pod.pkl"]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning: serviceAccount is deprecated in kubernetes since"),
        "{stderr}"
    );
}

fn project_with(
    pkl: &pkl::Pkl,
    output: &Path,
    minor: &str,
    name: &str,
    text: &str,
) -> tempfile::TempDir {
    project(pkl, output, minor, &[(name, text)])
}

/// #16/#20: a deprecation of one enum value stays on the value:
/// `PodStatus.phase` (whose value `Unknown` is deprecated) carries neither
/// `@Deprecated` nor a deprecation trace in 1.34, while `resize` (deprecated
/// itself since 1.33) carries both.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn value_deprecations_do_not_deprecate_the_field_in_pkl() {
    // PodStatus lives in Pod's module, as pkl-k8s has it.
    let module = support::kubernetes_output().join("pkl/v1.34/api/core/v1/Pod.pkl");
    let text = std::fs::read_to_string(module).unwrap();
    let class = text
        .split("\nclass PodStatus {\n")
        .nth(1)
        .and_then(|rest| rest.split("\n}\n").next())
        .unwrap();
    // A property's annotations are the lines since the previous property.
    let property = |name: &str| -> String {
        let mut lines = Vec::new();
        for line in class.lines() {
            if line.starts_with(&format!("  {name}:")) {
                lines.push(line);
                return lines.join("\n");
            }
            if line.starts_with("  ///") || line.starts_with("  @") {
                lines.push(line);
            } else {
                lines.clear();
            }
        }
        panic!("no {name} in PodStatus")
    };
    let phase = property("phase");
    assert!(
        !phase.contains("@Deprecated") && !phase.contains("trace("),
        "{phase}"
    );
    let resize = property("resize");
    assert!(
        resize.contains("@Deprecated { since = \"1.33\" }") && resize.contains("trace("),
        "{resize}"
    );
}

/// #16 item 2: the classes pkl-k8s defines inside a resource's module are
/// reachable by the same names (`Service.ServicePort`,
/// `Deployment.DeploymentSpec`), as types and with `new`.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn classes_inside_resource_modules_keep_pkl_k8s_names() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let file = r#"import "@k8s/K8sResource.pkl"
import "@k8s/api/apps/v1/Deployment.pkl"
import "@k8s/api/core/v1/Service.pkl"

local function http(number: Int): Service.ServicePort = new { name = "http"; port = number; targetPort = "http" }
local webSpec: Deployment.DeploymentSpec = new Deployment.DeploymentSpec {
  selector { matchLabels { ["app"] = "web" } }
  template { spec { containers { new { name = "web"; image = "nginx:1.27" } } } }
}

resources: Listing<K8sResource> = new {
  new Service { metadata { name = "web" }; spec { ports { http(80) } } }
  new Deployment { metadata { name = "web" }; spec = webSpec }
}
output { value = resources; renderer = (K8sResource.output.renderer as YamlRenderer) { isStream = true } }
"#;
    let project = project(&pkl, &output, "v1.34", &[("typed.pkl", file)]);
    let (ok, yaml) = eval(&pkl, project.path(), &["typed.pkl"]);
    assert!(ok, "{yaml}");
    assert!(
        yaml.contains("targetPort: http") && yaml.contains("image: nginx:1.27"),
        "{yaml}"
    );
}

/// pkl-k8s's modules for classes several resources share
/// (`apimachinery/pkg/apis/meta/v1/ObjectMeta.pkl`, `api/core/v1/PodSpec.pkl`,
/// `api/core/v1/EnvVar.pkl`) resolve in every minor, as types, with `new`
/// and with the classes pkl-k8s keeps inside them (`PodSpec.Container`);
/// vergate's own names for the same classes (`core/v1.pkl`'s `PodSpec`)
/// are the same types. A later field still names its minor inside them.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn shared_classes_are_modules_at_pkl_k8s_paths() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let file = r#"import "@k8s/K8sResource.pkl"
import "@k8s/api/apps/v1/Deployment.pkl"
import "@k8s/api/core/v1/EnvVar.pkl"
import "@k8s/api/core/v1/PodSpec.pkl"
import "@k8s/api/core/v1/PodTemplateSpec.pkl"
import "@k8s/apimachinery/pkg/apis/meta/v1/ObjectMeta.pkl"
import "@k8s/apimachinery/pkg/apis/meta/v1/LabelSelector.pkl"
import "@k8s/core/v1.pkl" as core

local function meta(app: String): ObjectMeta = new { name = app; labels { ["app"] = app } }
local function env(key: String, text: String): EnvVar = new EnvVar { name = key; value = text }
local function web(ref: String): PodSpec.Container = new {
  name = "web"
  image = ref
  env { env("MODE", "prod") }
}
local pod: PodSpec = new PodSpec { containers { web("nginx:1.27") } }
local sameType: core.PodSpec = pod
local webSelector: LabelSelector = new { matchLabels { ["app"] = "web" } }

resources: Listing<K8sResource> = new {
  new Deployment {
    metadata = meta("web")
    spec {
      selector = webSelector
      template = new PodTemplateSpec { metadata = meta("web"); spec = sameType }
    }
  }
}
output { value = resources; renderer = (K8sResource.output.renderer as YamlRenderer) { isStream = true } }
"#;
    for minor in ["v1.28", "v1.34", "v1.36"] {
        let project = project(&pkl, &output, minor, &[("shared.pkl", file)]);
        let (ok, yaml) = eval(&pkl, project.path(), &["shared.pkl"]);
        assert!(ok, "{minor}: {yaml}");
        let deployment: serde_yaml_ng::Value = serde_yaml_ng::from_str(&yaml).unwrap();
        assert_eq!(
            deployment["metadata"]["labels"]["app"].as_str(),
            Some("web")
        );
        let container = &deployment["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(container["image"].as_str(), Some("nginx:1.27"), "{yaml}");
        assert_eq!(container["env"][0]["value"].as_str(), Some("prod"));
        assert!(
            !yaml.contains("null"),
            "unset properties render nothing: {yaml}"
        );
    }
    // PodSpec.resources (pod-level resources) is from 1.32 on: the object
    // module names the minor as resource modules do.
    let later = r#"import "@k8s/api/core/v1/PodSpec.pkl"
spec: PodSpec = new { containers { new { name = "a" } }; resources { limits { ["cpu"] = 1 } } }
"#;
    let project = project(&pkl, &output, "v1.31", &[("later.pkl", later)]);
    let (ok, error) = eval(&pkl, project.path(), &["later.pkl"]);
    assert!(!ok, "{error}");
    assert!(
        error.contains("resources is not available in 1.31; introduced in 1.32"),
        "{error}"
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn a_kind_the_minor_does_not_serve_explains_itself() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let removed = "amends \"@k8s/api/flowcontrol/v1beta2/FlowSchema.pkl\"\n\nmetadata { name = \"fs\" }\nspec { priorityLevelConfiguration { name = \"p\" } }\n";
    let later = "import \"@k8s/K8sResource.pkl\"\nimport \"@k8s/api/certificates/v1beta1/ClusterTrustBundle.pkl\"\nresources: Listing<K8sResource> = new { new ClusterTrustBundle { metadata { name = \"b\" } } }\noutput { value = resources; renderer = (K8sResource.output.renderer as YamlRenderer) { isStream = true } }\n";
    let retired =
        "amends \"@k8s/api/extensions/v1beta1/Ingress.pkl\"\n\nmetadata { name = \"i\" }\n";
    let project = project(
        &pkl,
        &output,
        "v1.30",
        &[
            ("removed.pkl", removed),
            ("later.pkl", later),
            ("retired.pkl", retired),
        ],
    );
    for (file, message) in [
        (
            "removed.pkl",
            "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is not served in 1.30 (removed in 1.29); use flowcontrol.apiserver.k8s.io/v1 FlowSchema",
        ),
        (
            "later.pkl",
            "certificates.k8s.io/v1beta1 ClusterTrustBundle is not served in 1.30 (introduced in 1.33)",
        ),
        (
            "retired.pkl",
            "extensions/v1beta1 Ingress is not served in 1.30 (removed in 1.22); use networking.k8s.io/v1 Ingress",
        ),
    ] {
        let (ok, error) = eval(&pkl, project.path(), &[file]);
        assert!(!ok, "{file} evaluated:\n{error}");
        assert!(error.contains(message), "{file}:\n{error}");
    }
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn gate_errors_show_the_users_line_and_the_generated_one_once() {
    let pkl = pkl::pkl();
    let output = support::kubernetes_output();
    let service = "amends \"@k8s/api/core/v1/Service.pkl\"\nmetadata { name = \"web\" }\nspec {\n  ports { new { port = 80 } }\n  trafficDistribution = \"PreferClose\"\n}\n";
    for (minor, message, call) in [
        (
            "v1.30",
            "trafficDistribution is alpha in kubernetes 1.30",
            "featureGateOn(",
        ),
        (
            "v1.29",
            "trafficDistribution is not available in 1.29",
            "notAvailable(",
        ),
    ] {
        let project = project(&pkl, &output, minor, &[("service.pkl", service)]);
        let (ok, error) = eval(&pkl, project.path(), &["service.pkl"]);
        assert!(!ok && error.contains(message), "{minor}: {error}");
        assert!(
            error.contains("5 | trafficDistribution = \"PreferClose\""),
            "{minor}: the user's line is not shown:\n{error}"
        );
        assert_eq!(
            error.matches(&format!("shared.{call}")).count(),
            1,
            "{minor}: the generated line is shown other than once:\n{error}"
        );
    }
}
