//! Hover: what the target minor says of the field or enum value under the
//! cursor: the field's type, whether the target requires it, and its
//! lifecycle (introduced, stages, feature gate, deprecation, removal) in
//! the words of the editor schemas; for a value, the enum value's
//! lifecycle; for `kind`, the kind's.
//!
//! The description of a field or kind comes from [`Descriptions`]: the
//! JSON Schema of the generated tree the tables come from (`api` in
//! `vergate.toml`), read lazily per minor; a custom resource's, from its
//! CRD's `openAPIV3Schema` ([`CrdDescriptions`]). The gates index carries none
//! (it is a compact index, and the specs' prose stays out of git): with
//! the embedded Kubernetes index, hover says where descriptions come from.

use super::crd_descriptions::CrdDescriptions;
use super::descriptions::Descriptions;
use super::lifecycle;
use super::locate::{self, Located, Step};
use super::schema;
use crate::gates::TypeExpr;
use crate::tables::GateTables;
use crate::Version;

/// The hover text (Markdown) at `offset` and the byte range it is about.
pub fn at(
    tables: &GateTables,
    sources: Sources<'_>,
    target: Version,
    text: &str,
    offset: usize,
) -> Option<(String, std::ops::Range<usize>)> {
    let located =
        locate::by_spans(text, offset).unwrap_or_else(|| locate::by_indentation(text, offset));
    let (api_version, kind) = (located.api_version.clone()?, located.kind.clone()?);
    let corpus = tables.versions();
    let root = schema::root_type(tables, &api_version, &kind)?;
    // A custom resource whose CRD the workspace holds: its schema's words.
    let custom = sources.crds.has(&api_version, &kind);
    let describe = |path: &[Step], tree: Option<String>| -> Option<String> {
        if custom {
            return sources.crds.at(&api_version, &kind, path);
        }
        tree.or_else(|| sources.tree.hint().map(|hint| format!("_{hint}_")))
    };
    if located.path == [Step::Key("kind".into())]
        || located.path == [Step::Key("apiVersion".into())]
    {
        let ty = tables.ty(root)?;
        let mut lines = vec![format!("**{api_version} {kind}** in {target}")];
        let tree = (!custom)
            .then(|| sources.tree.definition(target, root))
            .flatten();
        lines.extend(describe(&[], tree));
        lines.extend(lifecycle::line(&ty.gate, target, corpus));
        if let Some(warning) = &ty.deprecation_warning {
            lines.push(format!("The API server warns: {warning}"));
        }
        return Some((lines.join("\n\n"), located.word));
    }
    let resolved = schema::resolve(tables, root, &located.path, target)?;
    let field = resolved.field?;
    if located.on_key {
        let mut head = format!("**{}** `{}`", field.name, resolved.ty);
        if field.gate.is_required_in(target) {
            head.push_str(" · required");
        }
        let mut lines = vec![head];
        // A field that only names its type (`spec`) has the type's words.
        let tree = (!custom)
            .then(|| {
                let tree = sources.tree;
                tree.field(target, field.owner, field.name)
                    .or_else(|| match &resolved.ty {
                        TypeExpr::Definition(name) => tree.definition(target, name),
                        _ => None,
                    })
            })
            .flatten();
        lines.extend(describe(&located.path, tree));
        lines.extend(lifecycle::line(&field.gate.gate, target, corpus));
        lines.push(format!("Field of `{}` in {target}.", short(field.owner)));
        return Some((lines.join("\n\n"), located.word));
    }
    value_hover(tables, target, text, &located, &resolved)
}

/// Where hover finds descriptions.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    /// The generated tree of the tables (or the embedded index's hint).
    pub tree: &'a Descriptions,
    /// The CRDs of the workspace.
    pub crds: &'a CrdDescriptions,
}

fn value_hover(
    tables: &GateTables,
    target: Version,
    text: &str,
    located: &Located,
    resolved: &schema::Resolved<'_>,
) -> Option<(String, std::ops::Range<usize>)> {
    let values = schema::values(tables, resolved)?;
    let value = locate::unquote(&text[located.word.clone()]);
    let gate = values.get(&value)?;
    let mut lines = vec![format!(
        "**{value}**: a value of `{}`",
        resolved.field?.name
    )];
    lines.push(
        lifecycle::line(gate, target, tables.versions())
            .unwrap_or_else(|| "Accepted in every minor.".to_owned()),
    );
    Some((lines.join("\n\n"), located.word.clone()))
}

/// A definition's last name (`io.k8s.api.apps.v1.DeploymentSpec` →
/// `DeploymentSpec`).
pub fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::super::descriptions::EMBEDDED_HINT;
    use super::*;

    const SERVICE: &str = "apiVersion: v1\nkind: Service\nspec:\n  trafficDistribution: PreferClose\n  type: ClusterIP\n";

    #[test]
    fn a_field_of_a_later_minor_shows_its_lifecycle() {
        let tables = crate::embedded::kubernetes();
        let at = SERVICE.find("trafficDistribution").unwrap() + 3;
        let (text, range) = at_offset(&tables, "1.34", at);
        assert!(text.contains("**trafficDistribution** `string`"), "{text}");
        assert!(
            text.contains("Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"),
            "{text}"
        );
        assert_eq!(&SERVICE[range], "trafficDistribution");
        // The embedded index has no descriptions: hover says where they are.
        assert!(text.contains(EMBEDDED_HINT), "{text}");
        let (text, _) = at_offset(&tables, "1.29", at);
        assert!(text.contains("Not in 1.29: introduced in 1.30"), "{text}");
    }

    #[test]
    fn an_enum_value_shows_its_own_lifecycle() {
        let tables = crate::embedded::kubernetes();
        let at = SERVICE.find("ClusterIP").unwrap() + 1;
        let (text, range) = at_offset(&tables, "1.34", at);
        assert_eq!(&SERVICE[range], "ClusterIP");
        assert!(
            text.starts_with("**ClusterIP**: a value of `type`"),
            "{text}"
        );
    }

    const PIPELINE: &str = "apiVersion: \"1.12\"\nkind: Pipeline\nmetadata:\n  name: p\nspec:\n  artifacts:\n    - path: a\n";

    #[test]
    fn a_generated_tree_gives_descriptions() {
        let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/demo");
        let tables = GateTables::load(&demo).unwrap();
        let tree = Descriptions::tree(&demo);
        let crds = CrdDescriptions::default();
        let sources = Sources {
            tree: &tree,
            crds: &crds,
        };
        let hover = |word: &str| {
            let at = PIPELINE.find(word).unwrap() + 1;
            super::at(&tables, sources, Version::new(1, 12), PIPELINE, at)
                .expect("a hover")
                .0
        };
        let text = hover("artifacts");
        assert!(text.starts_with("**artifacts**"), "{text}");
        assert!(
            text.contains("\n\nWhat the pipeline publishes.\n\n"),
            "{text}"
        );
        assert!(!text.contains(EMBEDDED_HINT), "{text}");
        // A field that only names its type has the type's description.
        assert!(hover("spec").contains("What a pipeline runs."));
        assert!(hover("path").contains("**path**"));
        assert!(hover("Pipeline").contains("Builds artifacts from sources."));
    }

    #[test]
    fn a_custom_resource_has_its_crds_descriptions() {
        use super::super::crd_descriptions::GADGET_CRD;
        let (validator, errors) = crate::engine::Validator::kubernetes()
            .target(Version::new(1, 34))
            .with_crds(&[crate::engine::CrdText {
                file: "crd.yaml",
                text: GADGET_CRD,
            }]);
        assert!(errors.is_empty(), "{errors:?}");
        let tree = Descriptions::embedded();
        let crds = CrdDescriptions::new(vec![GADGET_CRD.to_owned()]);
        let sources = Sources {
            tree: &tree,
            crds: &crds,
        };
        let gadget = "apiVersion: example.com/v1\nkind: Gadget\nspec:\n  parts:\n    - name: a\n";
        let hover = |word: &str| {
            let at = gadget.find(word).unwrap() + 1;
            super::at(validator.tables(), sources, Version::new(1, 34), gadget, at)
                .expect("a hover")
                .0
        };
        let text = hover("parts");
        assert!(text.contains("The parts it is made of."), "{text}");
        assert!(!text.contains(EMBEDDED_HINT), "{text}");
        assert!(hover("name").contains("The part's name."));
        assert!(hover("Gadget").contains("A gadget of the shop."));
    }

    fn at_offset(tables: &GateTables, target: &str, at: usize) -> (String, std::ops::Range<usize>) {
        let tree = Descriptions::embedded();
        let crds = CrdDescriptions::default();
        let sources = Sources {
            tree: &tree,
            crds: &crds,
        };
        super::at(tables, sources, target.parse().unwrap(), SERVICE, at).expect("a hover")
    }
}
