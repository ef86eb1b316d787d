//! The Pkl package `generated/<api>/pkl/`:
//!
//! ```text
//! PklProject            the package (name from api.toml's `pkl_package`)
//! shared.pkl            MinorVersion, SupportedVersion, Stage, the annotation class
//! target.pkl            Config with api.toml's `version_field`
//! v<X.Y>/PklProject     the minor alone as a package of its own (one line switches minors)
//! v<X.Y>/shared.pkl     the minor's copy of shared.pkl, so the package needs nothing outside
//! v<X.Y>/K8sObject.pkl, K8sResource.pkl   pkl-k8s's bases (Kubernetes-style APIs)
//! v<X.Y>/api/<group>/<version>/<Kind>.pkl pkl-k8s's paths, extending the modules below
//! v<X.Y>/api/<group>/<version>/<Class>.pkl a class pkl-k8s makes a module (PodSpec, ObjectMeta)
//! v<X.Y>/<group>/<version>.pkl        the types of one namespace (classes, typealiases)
//! v<X.Y>/<group>/<Kind>.pkl           a resource, its preferred served version
//! v<X.Y>/<group>/<version>/<Kind>.pkl the other served versions of a kind
//! examples/PklProject   a user project that depends on the package
//! examples/v<X.Y>.pkl   a working user file per minor
//! ```
//!
//! Each subtree holds exactly the definitions of its minor; gated items carry
//! the annotation class of shared.pkl. See docs/pkl.md.

mod absent_kinds;
mod builder;
mod checks;
mod constraints;
pub mod definition_modules;
mod enum_type;
mod escape;
mod example;
mod gate;
mod items;
mod k8s_base;
mod module;
mod owners;
mod paths;
mod rules;
mod subtree;
mod templates;
mod types;
mod union;

pub use escape::{doc_comment, pkl_string};

use crate::api::ApiConfig;
use crate::emit::json_text::to_sorted_pretty;
use crate::error::Result;
use crate::model::GatedModel;
use crate::output::{Contents, FileTree, RenderCache};
use definition_modules::{MinorLayout, NamespacePaths};
use owners::Owners;
use serde::Serialize;
use subtree::{ModuleData, Subtree};
use vergate_core::Version;

/// The directory of the package inside `generated/<api>/`.
pub const PKL_DIR: &str = "pkl";

/// Where the packages say they are published when api.toml's
/// `pkl_publish_url` is unset: a reserved host, fine for local dependencies.
const UNPUBLISHED: &str = "https://pkg.vergate.invalid";

/// Adds `pkl/` to the tree.
pub fn emit(model: &GatedModel, config: &ApiConfig, tree: &mut FileTree) -> Result<()> {
    emit_cached(model, config, &RenderCache::none(), tree)
}

/// [`emit`], with the modules' texts taken from `cache` when their data is
/// the same as when the cache rendered them (only the template runs less;
/// the bytes are the same).
pub fn emit_cached(
    model: &GatedModel,
    config: &ApiConfig,
    cache: &RenderCache,
    tree: &mut FileTree,
) -> Result<()> {
    let settings = Settings::new(model, config);
    for (path, bytes) in root_files(model, &settings)? {
        tree.insert(format!("{PKL_DIR}/{path}"), bytes)?;
    }
    let paths = NamespacePaths::new(model);
    if model.minors.values().any(k8s_base::applies) {
        check_own_modules(model, config)?;
    }
    // The minors in parallel: rendering dominates.
    let results = crate::parallel::map_each(&model.versions, |version| {
        minor_files(model, *version, &paths, &settings, cache)
    });
    for files in results {
        for (path, contents) in files? {
            tree.insert_contents(format!("{PKL_DIR}/{path}"), contents)?;
        }
    }
    Ok(())
}

/// api.toml's `pkl_own_modules` must name classes some minor defines.
fn check_own_modules(model: &GatedModel, config: &ApiConfig) -> Result<()> {
    for name in &config.pkl_own_modules {
        if !model.types.contains_key(name) {
            // The definitions of that short name, or any one as an example
            // of how the specs spell names.
            let short = crate::model::naming::short_name(name);
            let same_short: Vec<&str> = model
                .types
                .keys()
                .filter(|known| crate::model::naming::short_name(known) == short)
                .map(String::as_str)
                .collect();
            let hint = match same_short.as_slice() {
                [] => match model.types.keys().next() {
                    Some(example) => format!("as the specs spell it (e.g. {example})"),
                    None => "as the specs spell it".to_owned(),
                },
                found => format!("did you mean {}?", found.join(" or ")),
            };
            return Err(crate::error::Error::Config {
                path: format!("upstream-specs/{}/api.toml", model.api).into(),
                message: format!(
                    "pkl_own_modules names {name:?}, which no minor defines; \
                     give a definition name {hint}"
                ),
            });
        }
    }
    Ok(())
}

/// Output files by path relative to `pkl/`.
type Files = Vec<(String, Vec<u8>)>;

/// Output files by path relative to `pkl/`, as the tree holds them.
type Documents = Vec<(String, Contents)>;

/// What api.toml says that the Pkl output needs.
struct Settings {
    api: String,
    package: String,
    version_field: String,
    annotation_class: String,
    description: String,
    document_version_field: Option<String>,
    /// api.toml's `pkl_own_modules`.
    own_modules: Vec<String>,
    /// api.toml's `pkl_publish_url` without `https://` or a trailing `/`
    /// (`pkg.example.com/k8s`).
    publish_at: String,
}

impl Settings {
    fn new(model: &GatedModel, config: &ApiConfig) -> Settings {
        Settings {
            api: model.api.clone(),
            package: config.pkl_package.clone(),
            version_field: config.version_field.clone(),
            annotation_class: config
                .annotation_class
                .clone()
                .unwrap_or_else(|| "ApiVersion".to_owned()),
            description: config
                .description
                .clone()
                .unwrap_or_else(|| format!("{} schemas, one subtree per minor.", model.api)),
            document_version_field: config.document_version_field.clone(),
            own_modules: config.pkl_own_modules.clone(),
            publish_at: config
                .pkl_publish_url
                .as_deref()
                .unwrap_or(UNPUBLISHED)
                .trim_start_matches("https://")
                .trim_end_matches('/')
                .to_owned(),
        }
    }

    /// The `package://` base URI of the package named `name` (no version).
    fn base_uri(&self, name: &str) -> String {
        format!("package://{}/{name}", self.publish_at)
    }

    /// The HTTPS URL of the zip of package `name` at `version`.
    fn zip_url(&self, name: &str, version: &str) -> String {
        format!("https://{}/{name}@{version}.zip", self.publish_at)
    }

    /// The package's version: the newest minor, as `X.Y.0`.
    fn package_version(&self, model: &GatedModel) -> String {
        let newest = model.newest().unwrap_or_default();
        format!("{}.{}.0", newest.major(), newest.minor())
    }
}

#[derive(Serialize)]
struct RootData<'a> {
    api: &'a str,
    package: &'a str,
    versions: Vec<String>,
    newest: String,
    oldest: String,
    annotation_class: &'a str,
    version_field: &'a str,
    base_uri: String,
    package_version: String,
    zip_url: String,
    description: &'a str,
    /// The API server's words for a broken cross-field rule (shared.pkl's
    /// rule functions; `vergate_core::gates::cross_field`).
    duplicate: &'static str,
    required: &'static str,
    forbidden: &'static str,
}

/// A minor's own package (`v<X.Y>/PklProject`).
#[derive(Serialize)]
struct MinorPackageData<'a> {
    api: &'a str,
    package: &'a str,
    version: String,
    dir: String,
    base_uri: String,
    package_version: String,
    zip_url: String,
    description: String,
}

#[derive(Serialize)]
struct SubprojectData<'a> {
    api: &'a str,
    package: &'a str,
    purpose: String,
    root: &'a str,
}

/// The data of the root's templates (and of each minor's shared.pkl).
fn root_data<'a>(model: &GatedModel, settings: &'a Settings) -> RootData<'a> {
    let versions: Vec<String> = model.versions.iter().map(ToString::to_string).collect();
    let package_version = settings.package_version(model);
    let base_uri = settings.base_uri(&settings.package);
    RootData {
        api: &settings.api,
        package: &settings.package,
        newest: versions.last().cloned().unwrap_or_default(),
        oldest: versions.first().cloned().unwrap_or_default(),
        versions,
        annotation_class: &settings.annotation_class,
        version_field: &settings.version_field,
        zip_url: settings.zip_url(&settings.package, &package_version),
        base_uri,
        package_version,
        description: &settings.description,
        duplicate: vergate_core::gates::DUPLICATE,
        required: vergate_core::gates::REQUIRED,
        forbidden: vergate_core::gates::FORBIDDEN,
    }
}

fn root_files(model: &GatedModel, settings: &Settings) -> Result<Files> {
    let data = root_data(model, settings);
    let examples = SubprojectData {
        api: &settings.api,
        package: &settings.package,
        purpose: "The project of the examples: one working user file per minor.".into(),
        root: "../PklProject",
    };
    let mut files = vec![
        (
            "PklProject".to_owned(),
            templates::render("PklProject.tera", &data)?,
        ),
        (
            "shared.pkl".to_owned(),
            templates::render("shared.pkl.tera", &data)?,
        ),
        (
            "target.pkl".to_owned(),
            templates::render("target.pkl.tera", &data)?,
        ),
        (
            "examples/PklProject".to_owned(),
            templates::render("subproject.tera", &examples)?,
        ),
        (
            "examples/PklProject.deps.json".to_owned(),
            deps_json(model, settings, ".."),
        ),
    ];
    files.sort();
    Ok(files)
}

/// `PklProject.deps.json` of a project whose only dependency is the package
/// root at `path`: what `pkl project resolve` writes (a test checks that).
fn deps_json(model: &GatedModel, settings: &Settings, path: &str) -> Vec<u8> {
    let version = settings.package_version(model);
    let major = version.split('.').next().unwrap_or("0");
    let base = format!("{}/{}", settings.publish_at, settings.package);
    let value = serde_json::json!({
        "schemaVersion": 1,
        "resolvedDependencies": {
            format!("package://{base}@{major}"): {
                "type": "local",
                "uri": format!("projectpackage://{base}@{version}"),
                "path": path,
            }
        }
    });
    to_sorted_pretty(&value).into_bytes()
}

/// Every file of one minor: its subtree and its example.
fn minor_files(
    model: &GatedModel,
    version: Version,
    paths: &NamespacePaths,
    settings: &Settings,
    cache: &RenderCache,
) -> Result<Documents> {
    let minor = &model.minors[&version];
    let k8s = k8s_base::applies(minor);
    let owners = if k8s {
        Owners::up_to(model, version, &settings.own_modules)
    } else {
        Owners::default()
    };
    let layout = MinorLayout::new(minor, paths, &owners, k8s)?;
    let dir = version.dir_name();
    let subtree = Subtree {
        model,
        version,
        layout: &layout,
        paths,
        package: &settings.package,
        annotation_class: &settings.annotation_class,
        document_version_field: settings.document_version_field.as_deref(),
        k8s_base: k8s,
        owners: &owners,
    };
    let mut files = Vec::new();
    let project = MinorPackageData {
        api: &settings.api,
        package: &settings.package,
        version: version.to_string(),
        dir: dir.clone(),
        base_uri: settings.base_uri(&format!("{}-{dir}", settings.package)),
        package_version: format!("{}.{}.0", version.major(), version.minor()),
        zip_url: settings.zip_url(
            &format!("{}-{dir}", settings.package),
            &format!("{}.{}.0", version.major(), version.minor()),
        ),
        description: format!(
            "{} {version}: only what that minor accepts.",
            settings.description.trim_end_matches('.')
        ),
    };
    files.push((
        format!("{dir}/PklProject"),
        templates::render("minor_package.tera", &project)?.into(),
    ));
    // What `pkl project resolve` writes for a package without dependencies.
    let no_dependencies = serde_json::json!({"schemaVersion": 1, "resolvedDependencies": {}});
    files.push((
        format!("{dir}/PklProject.deps.json"),
        to_sorted_pretty(&no_dependencies).into_bytes().into(),
    ));
    files.push((
        format!("{dir}/shared.pkl"),
        templates::render("shared.pkl.tera", &root_data(model, settings))?.into(),
    ));
    if subtree.k8s_base {
        for (path, bytes) in
            k8s_base::files(&settings.api, &settings.package, model, minor, &layout)?
        {
            files.push((format!("{dir}/{path}"), bytes.into()));
        }
    }
    let module_text = |data: &ModuleData| {
        const TEMPLATE: &str = "module.pkl.tera";
        cache.render(&(TEMPLATE, data), || templates::render(TEMPLATE, data))
    };
    for (module, definitions) in &layout.type_modules {
        let data = subtree.types_module(module, definitions)?;
        files.push((format!("{dir}/{module}.pkl"), module_text(&data)?));
    }
    for (module, resource) in &layout.resources {
        let data = subtree.resource_module(module, resource.definition)?;
        files.push((format!("{dir}/{module}.pkl"), module_text(&data)?));
    }
    for (module, definition) in &layout.object_modules {
        let data = subtree.object_module(module, definition)?;
        files.push((format!("{dir}/{module}.pkl"), module_text(&data)?));
    }
    let example = example::example(
        &settings.api,
        &settings.package,
        &settings.version_field,
        minor,
        &layout,
    );
    files.push((
        format!("examples/{dir}.pkl"),
        templates::render("example.pkl.tera", &example)?.into(),
    ));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MinorModel;
    use crate::output::{sync, Mode};

    /// api.toml's `pkl_publish_url` names where the root package and each
    /// minor's package say they are published.
    #[test]
    fn packages_name_the_publish_url() {
        let model = GatedModel::merge(
            "t",
            vec![
                MinorModel::new(Version::new(1, 0)),
                MinorModel::new(Version::new(1, 1)),
            ],
        )
        .unwrap();
        let config: ApiConfig = toml::from_str(
            "name = \"t\"\npkl_package = \"t\"\nversion_field = \"v\"\nspec_files = []\n\
             pkl_publish_url = \"https://pkg.example.com/apis/\"",
        )
        .unwrap();
        let mut tree = FileTree::new();
        emit(&model, &config, &mut tree).unwrap();
        let out = tempfile::tempdir().unwrap();
        sync(&tree, out.path(), Mode::Write).unwrap();
        let read = |path: &str| std::fs::read_to_string(out.path().join(path)).unwrap();
        let root = read("pkl/PklProject");
        assert!(
            root.contains("baseUri = \"package://pkg.example.com/apis/t\""),
            "{root}"
        );
        assert!(root.contains("packageZipUrl = \"https://pkg.example.com/apis/t@1.1.0.zip\""));
        let minor = read("pkl/v1.0/PklProject");
        assert!(
            minor.contains("baseUri = \"package://pkg.example.com/apis/t-v1.0\""),
            "{minor}"
        );
        assert!(minor.contains("version = \"1.0.0\""));
        assert!(minor.contains("packageZipUrl = \"https://pkg.example.com/apis/t-v1.0@1.0.0.zip\""));
    }
}
