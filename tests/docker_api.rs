//! A second real API: the Docker Engine API (OpenAPI 2.0, one `swagger.yaml`
//! per minor, v1.41 … v1.55), added the way a new user adds one
//! (`record::add_api`, what `cargo xtask add-api docker --from DIR` runs) and
//! regenerated with nothing but the api.toml that writes. Its central types
//! are `allOf` compositions (`HostConfig` is `allOf: [Resources, {…}]`) and
//! its enums hold `""` (`RestartPolicy.Name`). The regen must not panic,
//! must merge every `allOf`, and its gates must agree with the upstream
//! changelog (`CHANGELOG.md` beside the specs); the Rust crate builds and
//! the Pkl evaluates.
//!
//! The specs are public reference data that is never committed: these tests
//! run where `../shared/upstream-specs/docker` (or `$VERGATE_DOCKER_SPECS`)
//! holds them and are ignored elsewhere, CI included (`support/inputs.rs`).

mod pkl;
mod support;

use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;
use vergate_codegen::api::Api;
use vergate_codegen::output::Mode;

/// The regenerated Docker API, built once for the tests of this file.
struct Docker {
    out: PathBuf,
    warnings: Vec<String>,
    gates: Value,
}

/// Adds the API from the specs into `target/generated/docker-api/` (its own
/// project root) and regenerates it there.
fn docker() -> &'static Docker {
    static DOCKER: OnceLock<Docker> = OnceLock::new();
    DOCKER.get_or_init(|| {
        let specs = support::docker_specs();
        let project = support::root().join("target/generated/docker-api");
        let specs_root = project.join("upstream-specs");
        if specs_root.exists() {
            std::fs::remove_dir_all(&specs_root).unwrap();
        }
        vergate_codegen::record::add_api(&specs_root, "docker", &specs)
            .unwrap_or_else(|err| panic!("add-api: {err}"));
        let api = Api::open(&specs_root.join("docker")).unwrap();
        let out = project.join("generated/docker");
        let (built, _) = vergate_codegen::regen::regen(&api, &out, Mode::Write)
            .unwrap_or_else(|err| panic!("regen: {err}"));
        let gates =
            serde_json::from_slice(&std::fs::read(out.join("gates.json")).unwrap()).unwrap();
        Docker {
            out,
            warnings: built.warnings.iter().map(ToString::to_string).collect(),
            gates,
        }
    })
}

fn field<'g>(gates: &'g Value, ty: &str, name: &str) -> &'g Value {
    &gates["types"][ty]["fields"][name]
}

#[test]
#[cfg_attr(
    not(vergate_docker_specs),
    ignore = "needs the Docker Engine API specs: ../shared/upstream-specs/docker or VERGATE_DOCKER_SPECS"
)]
fn all_of_types_keep_every_field_and_empty_enum_values_survive() {
    let _ = support::docker_specs();
    let docker = docker();
    let all_of: Vec<&String> = docker
        .warnings
        .iter()
        .filter(|warning| warning.contains("allOf"))
        .collect();
    assert!(all_of.is_empty(), "allOf warnings: {all_of:#?}");
    let gates = &docker.gates;
    let host = gates["types"]["HostConfig"]["fields"].as_object().unwrap();
    // Resources' fields and HostConfig's own, in every minor.
    for name in [
        "CpuShares",
        "Memory",
        "Ulimits",
        "Binds",
        "RestartPolicy",
        "PortBindings",
    ] {
        assert_eq!(host[name]["introduced_in"], "1.41", "HostConfig.{name}");
    }
    let restart = field(gates, "RestartPolicy", "Name");
    assert!(restart["values"].get("").is_some(), "{restart}");
    assert!(
        restart["values"].get("unless-stopped").is_some(),
        "{restart}"
    );
    // NetworkInspect (from 1.52) is `allOf: [Network]` beside properties
    // of its own.
    for name in ["Name", "IPAM", "Containers", "Services", "Status"] {
        assert_eq!(
            field(gates, "NetworkInspect", name)["introduced_in"],
            "1.52",
            "{name}"
        );
    }
}

/// Entries of the upstream changelog that add or remove a field of a
/// definition: (minor, words of its changelog section, type, field, what
/// happened in that minor).
const CHANGELOG: &[(&str, &str, &str, &str, Change)] = &[
    (
        "1.53",
        "`GET /info` now includes an `NRI` field",
        "SystemInfo",
        "NRI",
        Added,
    ),
    (
        "1.53",
        "`GET /images/{name}/json` now includes an `Identity` field",
        "ImageInspect",
        "Identity",
        Added,
    ),
    (
        "1.52",
        "`GET /networks/{id}` now includes a `Status` field",
        "NetworkInspect",
        "Status",
        Added,
    ),
    (
        "1.52",
        "Removed the `KernelMemoryTCP` field from the `POST /containers/{id}/update`",
        "Resources",
        "KernelMemoryTCP",
        Removed,
    ),
    (
        "1.52",
        "Removed the `KernelMemoryTCP` field from the `POST /containers/{id}/update`",
        "HostConfig",
        "KernelMemoryTCP",
        Removed,
    ),
    (
        "1.52",
        "Removed the `KernelMemoryTCP` field from the `GET /info` endpoint",
        "SystemInfo",
        "KernelMemoryTCP",
        Removed,
    ),
    (
        "1.52",
        "`GET /containers/{id}/stats` now returns an `os_type` field",
        "ContainerStatsResponse",
        "os_type",
        Added,
    ),
    (
        "1.52",
        "via the container's `Config.MacAddress` field",
        "ContainerConfig",
        "MacAddress",
        Removed,
    ),
    (
        "1.50",
        "`GET /info` now includes a `DiscoveredDevices` field",
        "SystemInfo",
        "DiscoveredDevices",
        Added,
    ),
    (
        "1.50",
        "The `BridgeNfIptables` and `BridgeNfIp6tables` fields",
        "SystemInfo",
        "BridgeNfIptables",
        Removed,
    ),
    (
        "1.49",
        "`GET /info` now returns a `FirewallBackend`",
        "SystemInfo",
        "FirewallBackend",
        Added,
    ),
    (
        "1.49",
        "fields in the `RegistryConfig` struct in the `GET /info` response are omitted",
        "RegistryServiceConfig",
        "AllowNondistributableArtifactsCIDRs",
        Removed,
    ),
    (
        "1.48",
        "now accept a\n  `GwPriority` field in `EndpointsConfig`",
        "EndpointSettings",
        "GwPriority",
        Added,
    ),
    (
        "1.48",
        "`GET /containers/{name}/json` now returns an `ImageManifestDescriptor` field",
        "ContainerInspectResponse",
        "ImageManifestDescriptor",
        Added,
    ),
    (
        "1.47",
        "`GET /images/json` response now includes `Manifests` field",
        "ImageSummary",
        "Manifests",
        Added,
    ),
    (
        "1.46",
        "`GET /info` now includes a `Containerd` field",
        "SystemInfo",
        "Containerd",
        Added,
    ),
    (
        "1.46",
        "takes `Options` as part of `HostConfig.Mounts.TmpfsOptions`",
        "MountTmpfsOptions",
        "Options",
        Added,
    ),
];

#[derive(Clone, Copy, Debug)]
enum Change {
    Added,
    Removed,
}

use Change::{Added, Removed};

/// The text of the changelog's section `## v<minor> API changes`.
fn section<'c>(changelog: &'c str, minor: &str) -> &'c str {
    let header = format!("## v{minor} API changes\n");
    let start = changelog
        .find(&header)
        .unwrap_or_else(|| panic!("CHANGELOG.md has no section for v{minor}"));
    let rest = &changelog[start + header.len()..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
#[cfg_attr(
    not(vergate_docker_specs),
    ignore = "needs the Docker Engine API specs: ../shared/upstream-specs/docker or VERGATE_DOCKER_SPECS"
)]
fn gates_agree_with_the_upstream_changelog() {
    let changelog = std::fs::read_to_string(support::docker_specs().join("CHANGELOG.md")).unwrap();
    let gates = &docker().gates;
    for (minor, words, ty, name, change) in CHANGELOG {
        assert!(
            section(&changelog, minor).contains(words),
            "v{minor}'s changelog does not say {words:?}"
        );
        let gate = field(gates, ty, name);
        let key = match change {
            Added => "introduced_in",
            Removed => "removed_in",
        };
        assert_eq!(
            gate[key], *minor,
            "{ty}.{name} ({change:?} in {minor}): {gate}"
        );
    }
    // A type the changelog introduces with its field.
    assert_eq!(gates["types"]["DeviceInfo"]["introduced_in"], "1.50");
}

#[test]
#[cfg_attr(
    not(vergate_docker_specs),
    ignore = "needs the Docker Engine API specs: ../shared/upstream-specs/docker or VERGATE_DOCKER_SPECS"
)]
fn the_rust_crate_builds_and_reads_host_configs() {
    let _ = support::docker_specs();
    let krate = docker().out.join("rust");
    let work = support::root().join("target/generated/docker-api/harness");
    std::fs::create_dir_all(work.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nvergate-docker = {{ path = \"{}\", features = [\"v1_41\", \"v1_51\", \"v1_55\"] }}\nserde_json = \"1\"\n",
        krate.display()
    );
    std::fs::write(work.join("Cargo.toml"), manifest).unwrap();
    // HostConfig has Resources' fields (Memory) and its own (Binds); the
    // restart policy "" is kept; KernelMemoryTCP is gone from 1.52.
    let main = r###"
fn main() {
    let json = r#"{"Binds":["/a:/b"],"Memory":1024,"RestartPolicy":{"Name":""}}"#;
    let host: vergate_docker::v1_55::HostConfig = serde_json::from_str(json).unwrap();
    assert_eq!(host.memory, Some(1024));
    assert_eq!(host.restart_policy.as_ref().unwrap().name.as_deref(), Some(""));
    assert_eq!(serde_json::to_string(&host).unwrap(), json);
    let old: vergate_docker::v1_51::HostConfig =
        serde_json::from_str(r#"{"KernelMemoryTCP":5}"#).unwrap();
    // Deprecated in 1.51, as the changelog says.
    #[allow(deprecated)]
    let kernel_memory_tcp = old.kernel_memory_tcp;
    assert_eq!(kernel_memory_tcp, Some(5));
    let _: vergate_docker::v1_41::Resources = serde_json::from_str("{}").unwrap();
    println!("ok");
}
"###;
    std::fs::write(work.join("src/main.rs"), main).unwrap();
    let output = support::harness_cargo()
        .args(["run", "--quiet", "--manifest-path"])
        .arg(work.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(support::root().join("target/generated/docker-api/target"))
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo run failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "ok");
}

#[test]
#[cfg_attr(
    not(all(vergate_pkl, vergate_docker_specs)),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL; needs the Docker Engine API specs: ../shared/upstream-specs/docker or VERGATE_DOCKER_SPECS"
)]
fn every_pkl_module_evaluates_in_the_oldest_and_newest_minor() {
    let _ = support::docker_specs();
    let pkl = pkl::pkl();
    let out = &docker().out;
    let user = pkl::user_project(&pkl, "docker", &out.join("pkl"));
    for minor in ["v1.41", "v1.55"] {
        let modules = pkl::modules_below(&out.join("pkl").join(minor));
        assert_eq!(
            modules,
            ["types.pkl"],
            "{minor}: names without dots share one module"
        );
        let file = format!("all-{minor}.pkl");
        std::fs::write(
            user.path().join(&file),
            pkl::import_all_module(&format!("@docker/{minor}"), &modules),
        )
        .unwrap();
        pkl.eval_json(user.path(), &[&file]);
    }
    // A restart policy of "" is a value the Pkl types accept.
    std::fs::write(
        user.path().join("restart.pkl"),
        "import \"@docker/v1.55/types.pkl\"\nr: types.RestartPolicy = new { Name = \"\" }\n",
    )
    .unwrap();
    let rendered = pkl.eval_json(user.path(), &["restart.pkl"]);
    assert!(rendered.contains("\"Name\": \"\""), "{rendered}");
}
