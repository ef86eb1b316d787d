//! CustomResourceDefinitions as spec input (`codegen::load`, `crd.rs`):
//! the real CRDs of `../shared/crds` load through the one converter into
//! definitions served as their group/version/kind, with `metadata` as
//! ObjectMeta, and every emitter runs over them without a panic.

mod support;

use std::path::PathBuf;
use vergate_codegen::load::{build_minor, parse, OBJECT_META};
use vergate_codegen::model::{GatedModel, Schema};
use vergate_codegen::Version;

fn load_real(dir: &std::path::Path, files: &[&str]) -> vergate_codegen::load::LoadedMinor {
    let documents: Vec<_> = files
        .iter()
        .map(|file| {
            let path: PathBuf = dir.join(file);
            let bytes = std::fs::read(&path).unwrap();
            let document = parse(&path, &bytes).unwrap_or_else(|err| panic!("{err}"));
            (path, document)
        })
        .collect();
    build_minor(Version::new(1, 0), &documents).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
#[cfg_attr(
    not(vergate_crds),
    ignore = "needs the real CRDs: ../shared/crds or VERGATE_CRDS"
)]
fn real_crds_load_as_kinds_with_object_meta() {
    let loaded = load_real(&support::crds(), &support::inputs::REAL_CRDS);
    let definitions = &loaded.model.definitions;
    for (name, group, version, kind) in [
        (
            "com.coreos.monitoring.v1.ServiceMonitor",
            "monitoring.coreos.com",
            "v1",
            "ServiceMonitor",
        ),
        (
            "com.coreos.monitoring.v1.PodMonitor",
            "monitoring.coreos.com",
            "v1",
            "PodMonitor",
        ),
        (
            "io.argoproj.v1alpha1.Application",
            "argoproj.io",
            "v1alpha1",
            "Application",
        ),
        (
            "io.argoproj.v1alpha1.ApplicationSet",
            "argoproj.io",
            "v1alpha1",
            "ApplicationSet",
        ),
    ] {
        let definition = definitions.get(name).unwrap_or_else(|| panic!("no {name}"));
        let gvk = &definition.kinds[0];
        assert_eq!(
            (gvk.group.as_str(), gvk.version.as_str(), gvk.kind.as_str()),
            (group, version, kind)
        );
        let object = definition.object().unwrap();
        assert_eq!(
            object.properties["metadata"].schema,
            Schema::Ref(OBJECT_META.into())
        );
        assert!(
            object.properties.contains_key("spec"),
            "{name} keeps its spec"
        );
    }
    assert!(
        definitions.contains_key(OBJECT_META),
        "the built-in ObjectMeta is added"
    );
    // Nested inline objects are hoisted, named from their path.
    let spec = definitions["com.coreos.monitoring.v1.ServiceMonitorSpec"]
        .object()
        .unwrap();
    assert!(spec.required.contains("selector") || spec.properties.contains_key("selector"));
    let endpoint = definitions["com.coreos.monitoring.v1.ServiceMonitorSpecEndpointsItem"]
        .object()
        .unwrap();
    // `port`/`targetPort`: int-or-string by the anyOf idiom or the extension.
    assert_eq!(
        endpoint.properties["targetPort"].schema,
        Schema::IntOrString
    );
    // Constraints are kept (`scrapeTimeout` has a pattern).
    assert!(endpoint.properties["scrapeTimeout"]
        .keywords
        .contains_key("pattern"));
    // No construct of these CRDs is "treated as accepting any value".
    let lost: Vec<_> = loaded
        .warnings
        .iter()
        .filter(|warning| warning.message.contains("treated as accepting any value"))
        .map(ToString::to_string)
        .collect();
    assert!(lost.is_empty(), "{lost:#?}");
    // The gated model and its gates index are built from them.
    let model = GatedModel::merge("crds", vec![loaded.model]).unwrap();
    let index = model.gates_index();
    let service_monitor = &index.types["com.coreos.monitoring.v1.ServiceMonitor"];
    assert_eq!(
        service_monitor.kinds[0].api_version(),
        "monitoring.coreos.com/v1"
    );
}
