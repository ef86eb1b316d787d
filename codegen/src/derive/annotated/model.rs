//! The annotated module as the gated model: one [`MinorModel`] per declared
//! minor holding exactly what that minor has, merged like the spec loader's
//! models, with stage, feature gate and reference laid on top.

use super::args::Minors;
use super::ast::{Body, Module};
use super::attr::Gates;
use super::check::presence;
use crate::model::{Definition, GatedModel, Lifecycle, MinorModel, ObjectSchema, Property, Schema};
use vergate_core::gates::Inferred;
use vergate_core::{Version, VersionSet};

/// Builds the gated model of a module whose checks passed.
pub fn gated_model(module: &Module, minors: &Minors) -> crate::Result<GatedModel> {
    let all: VersionSet = minors.list.iter().copied().collect();
    let mut models: Vec<MinorModel> = minors.list.iter().map(|v| MinorModel::new(*v)).collect();
    for ty in &module.types {
        let name = ty.ident.to_string();
        let type_presence = presence(&ty.gates, &all);
        for model in &mut models {
            let version = model.version;
            if !type_presence.contains(version) {
                continue;
            }
            let schema = match &ty.body {
                Body::Struct(fields) => {
                    let mut object = ObjectSchema::default();
                    for field in fields {
                        if !presence(&field.gates, &type_presence).contains(version) {
                            continue;
                        }
                        let (wire, renamed_from) = match &field.gates.renamed {
                            Some(renamed) if version < renamed.in_version.value => {
                                (renamed.from.clone(), None)
                            }
                            Some(renamed) => (field.wire.clone(), Some(renamed.from.clone())),
                            None => (field.wire.clone(), None),
                        };
                        let mut property = Property::new(field.analyzed.schema.clone());
                        property.description = field.gates.docs.clone();
                        property.deprecated = deprecated(&field.gates, version);
                        property.renamed_from = renamed_from;
                        property.keywords = field.analyzed.keywords.iter().cloned().collect();
                        if !field.analyzed.optional {
                            object.required.insert(wire.clone());
                        }
                        object.properties.insert(wire, property);
                    }
                    Schema::Object(object)
                }
                Body::Enum(_) => Schema::String { format: None },
            };
            let mut definition = Definition::new(name.clone(), schema);
            definition.description = ty.gates.docs.clone();
            definition.deprecated = deprecated(&ty.gates, version);
            if let Body::Enum(variants) = &ty.body {
                definition.enum_values = variants
                    .iter()
                    .filter(|variant| presence(&variant.gates, &type_presence).contains(version))
                    .map(|variant| variant.wire.clone())
                    .collect();
            }
            model.definitions.insert(name.clone(), definition);
        }
    }
    let mut model = GatedModel::merge(module.item.ident.to_string(), models)?;
    for ty in &module.types {
        let name = ty.ident.to_string();
        let Some(lifecycle) = model.types.get_mut(&name) else {
            continue;
        };
        overlay(&mut lifecycle.lifecycle, &ty.gates);
        match &ty.body {
            Body::Struct(fields) => {
                for field in fields {
                    let mut wires = vec![field.wire.clone()];
                    wires.extend(field.gates.renamed.as_ref().map(|r| r.from.clone()));
                    for wire in wires {
                        if let Some(field_lifecycle) = lifecycle.fields.get_mut(&wire) {
                            overlay(&mut field_lifecycle.lifecycle, &field.gates);
                        }
                    }
                }
            }
            Body::Enum(variants) => {
                for variant in variants {
                    if let Some(value) = lifecycle.values.get_mut(&variant.wire) {
                        overlay(value, &variant.gates);
                        if let Some(since) = &variant.gates.deprecated_in {
                            value.mark_deprecated(since.value, false);
                        }
                    }
                }
            }
        }
    }
    Ok(model)
}

fn deprecated(gates: &Gates, version: Version) -> bool {
    gates
        .deprecated_in
        .as_ref()
        .is_some_and(|since| version >= since.value)
}

/// What annotations add that presence cannot say. In the derive they alone
/// say it: gates the merge read from doc comments' prose are dropped.
fn overlay(lifecycle: &mut Lifecycle, gates: &Gates) {
    lifecycle.stage = gates.stage.iter().copied().collect();
    lifecycle.feature_gate = gates.feature_gate.as_ref().map(|g| g.value.clone());
    lifecycle.reference = gates.reference.as_ref().map(|r| r.value.clone());
    lifecycle.related_feature_gates.clear();
    lifecycle
        .inferred
        .retain(|key| !matches!(key, Inferred::FeatureGate | Inferred::Stage));
}
