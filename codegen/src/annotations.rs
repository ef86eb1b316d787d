//! The annotations overlay: `upstream-specs/<api>/annotations.rs` adds what
//! specs cannot say (stage, feature gate, deprecation, reference, renames) to
//! the spec-derived gates, in the derive's attribute grammar, parsed with syn.
//!
//! ```text
//! #[definition("io.k8s.api.core.v1.ServiceSpec")]
//! struct ServiceSpec {
//!     #[introduced_in("1.30")]
//!     #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
//!     #[feature_gate("ServiceTrafficDistribution")]
//!     #[reference("https://kep.k8s.io/4444")]
//!     traffic_distribution: (),
//! }
//! ```
//!
//! A field's wire name is its identifier in lowerCamelCase, or
//! `#[rename("$ref")]`. Field types are ignored. `introduced_in`, `removed_in`
//! and `renamed` restate what the specs say and are checked against them: an
//! annotation that contradicts the specs is an error naming the annotation's
//! file:line and the spec. Every mistake of the file is reported at once.

use crate::derive::annotated::attr::{parse_gates, At, Gates, Place};
use crate::derive::annotated::ctxt::Ctxt;
use crate::error::{Error, Result, Warning};
use crate::model::{GatedModel, Lifecycle, Rename, Source, Stage};
use heck::ToLowerCamelCase;
use proc_macro2::Span;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use syn::{Attribute, Fields, Item, LitStr};
use vergate_core::gates::Inferred;
use vergate_core::Version;

/// The overlay's file name inside `upstream-specs/<api>/`.
pub const ANNOTATIONS_FILE: &str = "annotations.rs";

/// Applies `api_dir/annotations.rs`, when there is one, to the gated model.
/// Returns a warning for each annotation that overrides a stage the
/// descriptions' prose gave (`model::prose_gates`): the annotation wins,
/// and the warning lets a maintainer confirm it.
pub fn apply(model: &mut GatedModel, api_dir: &Path) -> Result<Vec<Warning>> {
    let path = api_dir.join(ANNOTATIONS_FILE);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|source| Error::io(&path, "reading the annotations", source))?;
    apply_text(model, &path, &text)
}

/// Parses Rust source read from `path`; a syntax error carries its
/// line:column and a snippet.
pub(crate) fn parse_rust(path: &Path, text: &str) -> Result<syn::File> {
    syn::parse_file(text).map_err(|err| {
        let start = err.span().start();
        Error::Syntax {
            path: path.to_owned(),
            line: start.line,
            column: start.column + 1,
            message: format!("not valid Rust: {err}"),
            snippet: crate::error::snippet(text, start.line, start.column + 1),
        }
    })
}

/// Applies the overlay source `text` (read from `path`); see [`apply`].
pub fn apply_text(model: &mut GatedModel, path: &Path, text: &str) -> Result<Vec<Warning>> {
    let file = parse_rust(path, text)?;
    let mut overlay = Overlay {
        path: path.to_owned(),
        messages: Vec::new(),
        overrides: Vec::new(),
    };
    for item in &file.items {
        overlay.item(model, item);
    }
    if overlay.messages.is_empty() {
        Ok(overlay.overrides)
    } else {
        Err(Error::Annotations {
            messages: overlay.messages,
        })
    }
}

struct Overlay {
    path: PathBuf,
    messages: Vec<String>,
    /// Annotations that override what the prose said.
    overrides: Vec<Warning>,
}

impl Overlay {
    fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        let start = span.start();
        self.messages
            .push(format!("{}:{}: {message}", self.path.display(), start.line));
    }

    /// Parses gate attributes with the derive's parser, reporting its errors here.
    fn gates(&mut self, attrs: &[Attribute], place: Place) -> Option<Gates> {
        let cx = Ctxt::new();
        let kept: Vec<Attribute> = attrs
            .iter()
            .filter(|attr| !attr.path().is_ident("definition"))
            .cloned()
            .collect();
        let gates = parse_gates(&cx, &kept, None, place);
        match cx.check() {
            Ok(()) => Some(gates),
            Err(errors) => {
                for err in errors {
                    self.error(err.span(), err);
                }
                None
            }
        }
    }

    fn item(&mut self, model: &mut GatedModel, item: &Item) {
        let (attrs, ident, span) = match item {
            Item::Struct(item) => (&item.attrs, &item.ident, item.ident.span()),
            Item::Enum(item) => (&item.attrs, &item.ident, item.ident.span()),
            Item::Use(_) => return,
            other => {
                let span = syn::spanned::Spanned::span(other);
                self.error(span, "only structs and enums annotate definitions here");
                return;
            }
        };
        let Some(definition) = self.definition_name(attrs, ident, span) else {
            return;
        };
        if !model.types.contains_key(&definition.value) {
            self.error(
                definition.span,
                format!(
                    "no minor's spec has a definition named {:?}",
                    definition.value
                ),
            );
            return;
        }
        if let Some(gates) = self.gates(attrs, Place::Type) {
            let subject = definition.value.clone();
            let source = type_source(model, &definition.value);
            let lifecycle = &mut model
                .types
                .get_mut(&definition.value)
                .expect("checked above")
                .lifecycle;
            self.lay(
                lifecycle,
                &gates,
                &subject,
                &source,
                &model.versions.clone(),
            );
        }
        match item {
            Item::Struct(item) => {
                let Fields::Named(fields) = &item.fields else {
                    self.error(
                        span,
                        "annotate fields as named fields: `struct Spec { field_name: () }`",
                    );
                    return;
                };
                for field in &fields.named {
                    self.field(model, &definition.value, field);
                }
            }
            Item::Enum(item) => {
                for variant in &item.variants {
                    let Some(gates) = self.gates(&variant.attrs, Place::Variant) else {
                        continue;
                    };
                    let wire = gates
                        .rename
                        .as_ref()
                        .map_or_else(|| variant.ident.to_string(), |r| r.value.clone());
                    let versions = model.versions.clone();
                    let source = type_source(model, &definition.value);
                    let ty = model
                        .types
                        .get_mut(&definition.value)
                        .expect("checked above");
                    let Some(value) = ty.values.get_mut(&wire) else {
                        self.error(
                            variant.ident.span(),
                            format!(
                                "{} has no enum value {wire:?} in any minor",
                                definition.value
                            ),
                        );
                        continue;
                    };
                    let subject = format!("{}={wire}", definition.value);
                    self.lay(value, &gates, &subject, &source, &versions);
                }
            }
            _ => unreachable!("filtered above"),
        }
    }

    fn definition_name(
        &mut self,
        attrs: &[Attribute],
        ident: &syn::Ident,
        span: Span,
    ) -> Option<At<String>> {
        let attr = attrs.iter().find(|attr| attr.path().is_ident("definition"));
        let Some(attr) = attr else {
            self.error(span, format!("`{ident}` needs `#[definition(\"<definition name>\")]` naming the spec's definition"));
            return None;
        };
        match attr.parse_args::<LitStr>() {
            Ok(lit) => Some(At {
                value: lit.value(),
                span: lit.span(),
            }),
            Err(_) => {
                self.error(
                    syn::spanned::Spanned::span(attr),
                    "expected `#[definition(\"<definition name>\")]`",
                );
                None
            }
        }
    }

    fn field(&mut self, model: &mut GatedModel, type_name: &str, field: &syn::Field) {
        let Some(gates) = self.gates(&field.attrs, Place::Field) else {
            return;
        };
        let ident = field.ident.as_ref().expect("named fields");
        let wire = gates.rename.as_ref().map_or_else(
            || {
                ident
                    .to_string()
                    .trim_start_matches("r#")
                    .to_lower_camel_case()
            },
            |rename| rename.value.clone(),
        );
        let versions = model.versions.clone();
        let ty = model
            .types
            .get_mut(type_name)
            .expect("checked by the caller");
        if !ty.fields.contains_key(&wire) {
            self.error(ident.span(), format!("{type_name} has no field {wire:?} in any minor's spec (a wire name other than `{ident}` in lowerCamelCase takes `#[rename(\"…\")]`)"));
            return;
        }
        if let Some(renamed) = &gates.renamed {
            self.check_rename(
                ty,
                type_name,
                &wire,
                renamed.from.clone(),
                &renamed.in_version,
                &versions,
            );
        }
        let subject = format!("{type_name}.{wire}");
        let source = field_source(model, type_name, &wire);
        let field_lifecycle = &mut model
            .types
            .get_mut(type_name)
            .and_then(|ty| ty.fields.get_mut(&wire))
            .expect("checked above")
            .lifecycle;
        self.lay(field_lifecycle, &gates, &subject, &source, &versions);
    }

    fn check_rename(
        &mut self,
        ty: &mut crate::model::TypeLifecycle,
        type_name: &str,
        wire: &str,
        from: String,
        in_version: &At<Version>,
        versions: &[Version],
    ) {
        let arrives = ty.fields[wire].lifecycle.introduced_in();
        let old_removed = ty
            .fields
            .get(&from)
            .and_then(|old| old.lifecycle.removed_in(versions));
        if arrives != Some(in_version.value) || old_removed != Some(in_version.value) {
            let old = match ty.fields.get(&from) {
                None => format!("no minor's spec has {type_name}.{from}"),
                Some(old) => format!(
                    "the specs have {type_name}.{from} until {} and {type_name}.{wire} from {}",
                    old.lifecycle
                        .presence
                        .last()
                        .map_or("never".into(), |v| v.to_string()),
                    arrives.map_or("never".into(), |v| v.to_string())
                ),
            };
            self.error(
                in_version.span,
                format!(
                    "{type_name}.{wire} is annotated renamed from {from:?} in {}, but {old}",
                    in_version.value
                ),
            );
            return;
        }
        ty.fields.get_mut(wire).expect("checked above").renamed_from = Some(Rename {
            from,
            in_version: in_version.value,
        });
    }

    /// Checks the restated gates against the specs and lays the rest on.
    fn lay(
        &mut self,
        lifecycle: &mut Lifecycle,
        gates: &Gates,
        subject: &str,
        source: &Source,
        versions: &[Version],
    ) {
        let introduced = lifecycle.introduced_in();
        let removed = lifecycle.removed_in(versions);
        if let Some(annotated) = &gates.introduced_in {
            if Some(annotated.value) != introduced {
                self.error(
                    annotated.span,
                    format!(
                        "{subject} is annotated introduced_in {}, but the specs have it from {} ({source})",
                        annotated.value,
                        introduced.map_or("never".into(), |v| v.to_string()),
                    ),
                );
            }
        }
        if let Some(annotated) = &gates.removed_in {
            if Some(annotated.value) != removed {
                let said = match removed {
                    Some(v) => format!("the specs remove it in {v}"),
                    None => format!(
                        "the {} spec still has it",
                        versions.last().map_or("newest".into(), |v| v.to_string())
                    ),
                };
                self.error(
                    annotated.span,
                    format!(
                        "{subject} is annotated removed_in {}, but {said} ({source})",
                        annotated.value
                    ),
                );
            }
        }
        if let Some(annotated) = &gates.deprecated_in {
            let before =
                introduced.is_some_and(|first| annotated.value < first && first != versions[0]);
            let after = removed.is_some_and(|gone| annotated.value >= gone);
            if before || after {
                self.error(
                    annotated.span,
                    format!("{subject} is annotated deprecated_in {}, a minor in which the specs do not have it ({source})", annotated.value),
                );
            } else {
                lifecycle.mark_deprecated(annotated.value, false);
            }
        }
        for (version, stage) in &gates.stage {
            if removed.is_some_and(|gone| *version >= gone) {
                let span = gates.stage_span.unwrap_or_else(Span::call_site);
                self.error(span, format!("{subject} is annotated {stage:?} in {version}, but the specs remove it before that ({source})"));
            }
        }
        if !gates.stage.is_empty() {
            let annotated: BTreeMap<Version, Stage> = gates.stage.iter().copied().collect();
            let stage_in = |stages: &BTreeMap<Version, Stage>, version: Version| {
                stages
                    .range(..=version)
                    .next_back()
                    .map(|(_, stage)| *stage)
            };
            // Only minors the prose gives a stage for can disagree.
            let disagree = lifecycle.presence.iter().any(|version| {
                stage_in(&lifecycle.stage, version)
                    .is_some_and(|said| stage_in(&annotated, version) != Some(said))
            });
            if lifecycle.inferred.remove(&Inferred::Stage) && disagree {
                self.overrides.push(Warning {
                    path: self.path.clone(),
                    pointer: format!("line {}", gates.stage_span.map_or(0, |span| span.start().line)),
                    message: format!(
                        "{subject}: the annotated stages {} override those its descriptions give, {} ({source})",
                        show_stages(&annotated),
                        show_stages(&lifecycle.stage)
                    ),
                });
            }
            lifecycle.stage = annotated;
        }
        if let Some(gate) = &gates.feature_gate {
            let inferred = lifecycle.inferred.remove(&Inferred::FeatureGate);
            let named = lifecycle
                .feature_gate
                .iter()
                .chain(&lifecycle.related_feature_gates)
                .any(|name| *name == gate.value);
            if inferred && !named {
                self.error(
                    gate.span,
                    format!(
                        "{subject} is annotated feature_gate({:?}), but its descriptions name the gate {} ({source}); correct the name, or drop the annotation to keep the one the specs give",
                        gate.value,
                        lifecycle.feature_gate.as_deref().unwrap_or_default()
                    ),
                );
            }
            if let Some(previous) = lifecycle.feature_gate.take() {
                if previous != gate.value && !lifecycle.related_feature_gates.contains(&previous) {
                    lifecycle.related_feature_gates.push(previous);
                }
            }
            lifecycle
                .related_feature_gates
                .retain(|name| *name != gate.value);
            lifecycle.feature_gate = Some(gate.value.clone());
        }
        if let Some(reference) = &gates.reference {
            lifecycle.reference = Some(reference.value.clone());
        }
    }
}

/// Stages as an annotation writes them: `alpha 1.30, beta 1.31`.
fn show_stages(stages: &BTreeMap<Version, Stage>) -> String {
    let shown: Vec<String> = stages
        .iter()
        .map(|(since, stage)| format!("{} {since}", format!("{stage:?}").to_lowercase()))
        .collect();
    if shown.is_empty() {
        "none".to_owned()
    } else {
        shown.join(", ")
    }
}

fn type_source(model: &GatedModel, type_name: &str) -> Source {
    model
        .minors
        .values()
        .find_map(|minor| minor.definitions.get(type_name))
        .map(|definition| definition.source.clone())
        .unwrap_or_default()
}

fn field_source(model: &GatedModel, type_name: &str, field: &str) -> Source {
    model
        .minors
        .values()
        .filter_map(|minor| minor.definitions.get(type_name))
        .find_map(|definition| definition.object()?.properties.get(field))
        .map(|property| property.source.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Api;

    fn demo() -> GatedModel {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../upstream-specs/demo");
        let api = Api::open(&dir).unwrap();
        let minors = crate::load::load_api(&api)
            .unwrap()
            .into_iter()
            .map(|m| m.model)
            .collect();
        GatedModel::merge("demo", minors).unwrap()
    }

    fn apply(text: &str) -> Result<GatedModel> {
        let mut model = demo();
        apply_text(
            &mut model,
            Path::new("upstream-specs/demo/annotations.rs"),
            text,
        )?;
        Ok(model)
    }

    fn errors(text: &str) -> String {
        apply(text).unwrap_err().to_string()
    }

    #[test]
    fn adds_stage_feature_gate_reference_and_deprecation() {
        let model = apply(
            r#"
            #[definition("dev.shipyard.deploy.v1.ReleaseSpec")]
            struct ReleaseSpec {
                #[stage(alpha = "1.11", beta = "1.12")]
                #[feature_gate("CanaryReleases")]
                #[reference("https://example.com/17")]
                canary: (),
                #[deprecated_in("1.11")]
                max_unavailable: (),
            }
            "#,
        )
        .unwrap();
        let fields = &model.types["dev.shipyard.deploy.v1.ReleaseSpec"].fields;
        let canary = &fields["canary"].lifecycle;
        assert_eq!(canary.stage.len(), 2);
        assert_eq!(canary.feature_gate.as_deref(), Some("CanaryReleases"));
        assert_eq!(canary.reference.as_deref(), Some("https://example.com/17"));
        let max = &fields["maxUnavailable"].lifecycle;
        assert_eq!(max.deprecated_in, Some(Version::new(1, 11)));
        assert!(max.inferred.is_empty());
    }

    #[test]
    fn a_contradiction_names_the_annotation_and_the_spec() {
        let message = errors(
            r#"
#[definition("dev.shipyard.build.v1.PipelineSpec")]
struct PipelineSpec {
    #[introduced_in("1.11")]
    timeout: (),
}
"#,
        );
        assert!(
            message.starts_with("upstream-specs/demo/annotations.rs:4: "),
            "{message}"
        );
        assert!(message.contains("dev.shipyard.build.v1.PipelineSpec.timeout is annotated introduced_in 1.11, but the specs have it from 1.10"), "{message}");
        assert!(message.contains("v1.10/openapi.yaml#/components/schemas/dev.shipyard.build.v1.PipelineSpec/properties/timeout"), "{message}");
    }

    #[test]
    fn every_mistake_at_once() {
        let message = errors(
            r#"
#[definition("dev.shipyard.build.v1.Nope")]
struct Nope {}
#[definition("dev.shipyard.build.v1.PipelineSpec")]
struct PipelineSpec {
    #[removed_in("1.12")]
    legacy_cache: (),
    #[introduce_in("1.10")]
    timeout: (),
    no_such_field: (),
    #[stage(alpha = "1.10", beta = "1.11")]
    #[renamed(from = "cache", in = "1.11")]
    retries: (),
}
struct Unnamed {}
"#,
        );
        let lines: Vec<&str> = message.lines().collect();
        assert_eq!(lines.len(), 6, "{message}");
        assert!(
            lines[0].contains(
                ":2: no minor's spec has a definition named \"dev.shipyard.build.v1.Nope\""
            ),
            "{message}"
        );
        assert!(
            lines[1].contains(":6: ")
                && lines[1].contains("annotated removed_in 1.12, but the specs remove it in 1.11"),
            "{message}"
        );
        assert!(
            lines[2].contains(":8: unknown vergate attribute `introduce_in`"),
            "{message}"
        );
        assert!(
            lines[3].contains(":10: ") && lines[3].contains("has no field \"noSuchField\""),
            "{message}"
        );
        assert!(
            lines[4].contains(":12: ")
                && lines[4].contains("renamed from \"cache\" in 1.11, but no minor's spec has"),
            "{message}"
        );
        assert!(
            lines[5].contains(":15: `Unnamed` needs `#[definition"),
            "{message}"
        );
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let message = errors("#[definition(\"x\")]\nstruct A {\n    b: 3,\n}\n");
        assert!(
            message.starts_with("upstream-specs/demo/annotations.rs:3:"),
            "{message}"
        );
        assert!(message.contains("not valid Rust"), "{message}");
    }
}
