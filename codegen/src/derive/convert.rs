//! Conversions between adjacent minors. A direction in which nothing can be
//! lost is `From`; any other is `TryFrom`, whose error names every field and
//! enum value that would have been dropped. Both go through the runtime's
//! `Migrate` trait so nested versioned values are converted (and their drops
//! recorded, with their paths) too.
//!
//! A pair is convertible when every field only the target has is optional
//! (a required one would have nothing to fill it) and the same holds for
//! every definition the fields refer to; other pairs get no impl. A field
//! whose type changes is left unset in the target (or, when the target
//! requires it, set to a placeholder) and counts as dropped when the source
//! sets it. A field the target requires but the source has optional is
//! carried when set and counts as missing otherwise, failing `TryFrom`
//! (the placeholder the target holds then is its type's `Default`, which
//! every spec-driven type has; the derive's fields keep their optionality).

use super::layout_policy::Layout;
use crate::model::{Definition, GatedModel, ObjectSchema};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;
use vergate_core::Version;

/// A direction: definition name, source minor, target minor.
type Direction = (String, Version, Version);

/// Which directions get a conversion and which of them are lossless.
pub(crate) struct Plan {
    convertible: BTreeSet<Direction>,
    lossless: BTreeSet<Direction>,
}

/// How one field of the target is filled from the source.
enum Fill<'a> {
    /// From the source field of this wire name.
    From(&'a str),
    /// The target's field is new: `None`.
    Absent,
}

impl Plan {
    /// Plans every direction between adjacent minors of `model`.
    pub(crate) fn new(model: &GatedModel) -> Plan {
        let mut local = Vec::new();
        for pair in model.versions.windows(2) {
            for (from, to) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let (source, target) = (&model.minors[&from], &model.minors[&to]);
                for (name, definition) in &source.definitions {
                    let Some(other) = target.definitions.get(name) else {
                        continue;
                    };
                    if let Some(shape) = compare(model, definition, other, from, to) {
                        local.push(((name.clone(), from, to), shape));
                    }
                }
            }
        }
        let convertible = fixed_point(
            local
                .iter()
                .map(|(dir, shape)| (dir.clone(), shape.refs.clone())),
        );
        let lossless = fixed_point(
            local
                .iter()
                .filter(|(dir, shape)| shape.lossless && convertible.contains(dir))
                .map(|(dir, shape)| (dir.clone(), shape.refs.clone())),
        );
        Plan {
            convertible,
            lossless,
        }
    }

    /// The conversion of `definition` from minor `from` to the adjacent
    /// minor `to`, when there is one and the two are different types (the
    /// spec-driven crate's shapes): a `Migrate` impl and `From` or `TryFrom`.
    #[cfg(feature = "emit")]
    pub(crate) fn between(
        &self,
        model: &GatedModel,
        layout: &dyn Layout,
        definition: &Definition,
        from: Version,
        to: Version,
    ) -> TokenStream {
        let direction = (definition.name.clone(), from, to);
        if !self.convertible.contains(&direction) || layout.same_type(&definition.name, from, to) {
            return TokenStream::new();
        }
        let lossless = self.lossless.contains(&direction);
        conversion(model, layout, definition, from, to, lossless)
    }

    /// The conversions from `definition` in `version` to its adjacent minors.
    pub(crate) fn impls(
        &self,
        model: &GatedModel,
        layout: &dyn Layout,
        version: Version,
        definition: &Definition,
    ) -> TokenStream {
        let neighbours = model.versions.windows(2).filter_map(|pair| match pair {
            [a, b] if *a == version => Some(*b),
            [a, b] if *b == version => Some(*a),
            _ => None,
        });
        neighbours
            .filter(|to| {
                self.convertible
                    .contains(&(definition.name.clone(), version, *to))
            })
            .map(|to| {
                let lossless = self
                    .lossless
                    .contains(&(definition.name.clone(), version, to));
                conversion(model, layout, definition, version, to, lossless)
            })
            .collect()
    }
}

/// What one direction needs locally.
struct Shape {
    lossless: bool,
    /// The (definition, from, to) directions its fields need.
    refs: Vec<Direction>,
}

/// Drops every direction whose needed directions are not kept, until stable.
fn fixed_point(
    candidates: impl Iterator<Item = (Direction, Vec<Direction>)>,
) -> BTreeSet<Direction> {
    let candidates: Vec<(Direction, Vec<Direction>)> = candidates.collect();
    let mut kept: BTreeSet<Direction> = candidates.iter().map(|(dir, _)| dir.clone()).collect();
    loop {
        let before = kept.len();
        for (dir, refs) in &candidates {
            if kept.contains(dir) && !refs.iter().all(|r| kept.contains(r)) {
                kept.remove(dir);
            }
        }
        if kept.len() == before {
            return kept;
        }
    }
}

fn compare(
    model: &GatedModel,
    source: &Definition,
    target: &Definition,
    from: Version,
    to: Version,
) -> Option<Shape> {
    let name = target.name.as_str();
    let directions =
        |refs: Vec<String>| -> Vec<Direction> { refs.into_iter().map(|r| (r, from, to)).collect() };
    match (source.object(), target.object()) {
        (Some(source_object), Some(target_object)) => {
            let mut refs = Vec::new();
            let mut used = BTreeSet::new();
            let mut lossless_here = true;
            for (wire, property) in &target_object.properties {
                match fill(model, name, wire, source_object) {
                    Fill::From(source_wire) => {
                        let source_property = &source_object.properties[source_wire];
                        let target_required = target_object.required.contains(wire);
                        // A field whose type changes cannot be carried: the
                        // target is left unset (a placeholder when it is
                        // required) and the source's value counts as dropped
                        // (it stays out of `used`, so the pair is lossy).
                        if source_property.schema != property.schema {
                            continue;
                        }
                        // Optional here, required there: missing when unset.
                        if target_required && !source_object.required.contains(source_wire) {
                            lossless_here = false;
                        }
                        used.insert(source_wire);
                        if let Some(referenced) = property.schema.referenced() {
                            refs.push(referenced.to_owned());
                        }
                    }
                    Fill::Absent if target_object.required.contains(wire) => return None,
                    Fill::Absent => {}
                }
            }
            let lossless = lossless_here
                && source_object
                    .properties
                    .keys()
                    .all(|wire| used.contains(wire.as_str()));
            Some(Shape {
                lossless,
                refs: directions(refs),
            })
        }
        (None, None) if !source.enum_values.is_empty() && !target.enum_values.is_empty() => {
            let lossless = source
                .enum_values
                .iter()
                .all(|value| target.enum_values.contains(value));
            Some(Shape {
                lossless,
                refs: Vec::new(),
            })
        }
        // A union gets no conversion (nor does anything holding one): its
        // members would each need theirs.
        (None, None)
            if source.schema == target.schema
                && source.enum_values.is_empty()
                && source.union().is_none() =>
        {
            let refs = source
                .schema
                .referenced()
                .map(str::to_owned)
                .into_iter()
                .collect();
            Some(Shape {
                lossless: target.enum_values.is_empty(),
                refs: directions(refs),
            })
        }
        _ => None,
    }
}

/// Where target field `wire` of `type_name` comes from in the source object:
/// the same wire name, or the other end of a rename.
fn fill<'a>(
    model: &'a GatedModel,
    type_name: &str,
    wire: &'a str,
    source: &'a ObjectSchema,
) -> Fill<'a> {
    if source.properties.contains_key(wire) {
        return Fill::From(wire);
    }
    let fields = &model.types[type_name].fields;
    if let Some(rename) = &fields[wire].renamed_from {
        if let Some((source_wire, _)) = source.properties.get_key_value(&rename.from) {
            return Fill::From(source_wire);
        }
    }
    for source_wire in source.properties.keys() {
        let renamed_to_us = fields[source_wire]
            .renamed_from
            .as_ref()
            .is_some_and(|rename| rename.from == wire);
        if renamed_to_us {
            return Fill::From(source_wire);
        }
    }
    Fill::Absent
}

fn conversion(
    model: &GatedModel,
    layout: &dyn Layout,
    definition: &Definition,
    from: Version,
    to: Version,
    lossless: bool,
) -> TokenStream {
    let rt = layout.runtime();
    let name = &definition.name;
    let ident = layout.type_ident(name);
    let target = layout.other_minor_path(name, from, to);
    let target_definition = &model.minors[&to].definitions[name];
    let body = match (definition.object(), target_definition.object()) {
        (Some(source), Some(target_object)) => migrate_object(
            model,
            layout,
            name,
            source,
            target_object,
            &target,
            (from, to),
        ),
        _ if !definition.enum_values.is_empty() => {
            migrate_enum(layout, name, definition, target_definition, &target)
        }
        _ => {
            let moved = definition
                .schema
                .referenced()
                .is_some_and(|inner| layout.same_type(inner, from, to));
            let inner = if definition.schema.referenced().is_some() && !moved {
                quote!(#rt::versioned::Migrate::migrate(self.0, cx))
            } else {
                quote!(self.0)
            };
            quote!(#target(#inner))
        }
    };
    let (from_major, from_minor, to_major, to_minor) =
        (from.major(), from.minor(), to.major(), to.minor());
    let public = if lossless {
        quote! {
            #[allow(deprecated)]
            impl ::core::convert::From<#ident> for #target {
                fn from(value: #ident) -> Self {
                    #rt::versioned::Migrate::migrate(value, &mut #rt::versioned::Migration::default())
                }
            }
        }
    } else {
        quote! {
            #[allow(deprecated)]
            impl ::core::convert::TryFrom<#ident> for #target {
                type Error = #rt::versioned::ConversionError;
                fn try_from(value: #ident) -> ::core::result::Result<Self, Self::Error> {
                    let mut cx = #rt::versioned::Migration::default();
                    let converted = #rt::versioned::Migrate::migrate(value, &mut cx);
                    cx.finish(
                        converted,
                        #name,
                        #rt::Version::new(#from_major, #from_minor),
                        #rt::Version::new(#to_major, #to_minor),
                    )
                }
            }
        }
    };
    quote! {
        #[allow(deprecated)]
        impl #rt::versioned::Migrate<#target> for #ident {
            fn migrate(self, cx: &mut #rt::versioned::Migration) -> #target {
                let _ = &cx;
                #body
            }
        }
        #public
    }
}

fn migrate_object(
    model: &GatedModel,
    layout: &dyn Layout,
    name: &str,
    source: &ObjectSchema,
    target_object: &ObjectSchema,
    target: &TokenStream,
    (from, to): (Version, Version),
) -> TokenStream {
    let rt = layout.runtime();
    let mut used = BTreeSet::new();
    let mut inits = Vec::new();
    for (wire, property) in &target_object.properties {
        let field = layout.field_ident(name, wire);
        let target_required = target_object.required.contains(wire);
        // A required target field the source leaves unset: named as missing
        // (the conversion fails), the target holding a placeholder.
        let missing = quote! {{
            cx.require_field(#wire);
            ::core::default::Default::default()
        }};
        match fill(model, name, wire, source) {
            // Its type changes: unset here (a placeholder if required, and
            // then missing), the source's value dropped.
            Fill::From(source_wire) if source.properties[source_wire].schema != property.schema => {
                if target_required {
                    inits.push(quote!(#field: #missing));
                } else {
                    inits.push(quote!(#field: ::core::option::Option::None));
                }
            }
            Fill::From(source_wire) => {
                used.insert(source_wire.to_owned());
                let source_field = layout.field_ident(name, source_wire);
                // A value of one type in both minors moves as it is.
                let converted = property
                    .schema
                    .referenced()
                    .is_some_and(|inner| !layout.same_type(inner, from, to));
                let carry = |value: TokenStream| {
                    if converted {
                        quote! {
                            cx.field(#source_wire, |cx| #rt::versioned::Migrate::migrate(#value, cx))
                        }
                    } else {
                        value
                    }
                };
                let source_required = source.required.contains(source_wire);
                let value = match (source_required, target_required) {
                    (true, false) => {
                        let value = carry(quote!(self.#source_field));
                        quote!(::core::option::Option::Some(#value))
                    }
                    (false, true) => {
                        let value = carry(quote!(value));
                        quote! {
                            match self.#source_field {
                                ::core::option::Option::Some(value) => #value,
                                ::core::option::Option::None => #missing,
                            }
                        }
                    }
                    _ => carry(quote!(self.#source_field)),
                };
                inits.push(quote!(#field: #value));
            }
            Fill::Absent => inits.push(quote!(#field: ::core::option::Option::None)),
        }
    }
    let drops = source
        .properties
        .keys()
        .filter(|wire| !used.contains(*wire))
        .map(|wire| {
            let field = layout.field_ident(name, wire);
            if source.required.contains(wire) {
                quote!(cx.drop_field(#wire);)
            } else {
                quote! {
                    if self.#field.is_some() {
                        cx.drop_field(#wire);
                    }
                }
            }
        });
    quote! {
        #(#drops)*
        #target { #(#inits),* }
    }
}

fn migrate_enum(
    layout: &dyn Layout,
    name: &str,
    source: &Definition,
    target_definition: &Definition,
    target: &TokenStream,
) -> TokenStream {
    let ident = layout.type_ident(name);
    let placeholder = layout.variant_ident(name, &target_definition.enum_values[0]);
    let arms = source.enum_values.iter().map(|value| {
        let variant = layout.variant_ident(name, value);
        if target_definition.enum_values.contains(value) {
            quote!(#ident::#variant => #target::#variant,)
        } else {
            // The conversion fails (`Migration::finish`), so the placeholder
            // never reaches the caller.
            quote! {
                #ident::#variant => {
                    cx.drop_value(#value);
                    #target::#placeholder
                }
            }
        }
    });
    quote! {
        match self {
            #(#arms)*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MinorModel, Property, Schema};

    fn minor(version: Version, spec_required: bool) -> MinorModel {
        let mut object = ObjectSchema::default();
        object.properties.insert(
            "spec".into(),
            Property::new(Schema::String { format: None }),
        );
        object
            .properties
            .insert("note".into(), Property::new(Schema::Boolean));
        if spec_required {
            object.required.insert("spec".into());
        }
        let mut minor = MinorModel::new(version);
        minor.definitions.insert(
            "t.Job".into(),
            Definition::new("t.Job", Schema::Object(object)),
        );
        minor
    }

    /// A field that turns required converts: fallibly towards the minor that
    /// requires it (unset counts as missing), losslessly back.
    #[test]
    fn fields_that_turn_required_convert() {
        let (old, new) = (Version::new(1, 35), Version::new(1, 36));
        let model = GatedModel::merge("t", vec![minor(old, false), minor(new, true)]).unwrap();
        let plan = Plan::new(&model);
        let up = ("t.Job".to_owned(), old, new);
        let down = ("t.Job".to_owned(), new, old);
        assert!(plan.convertible.contains(&up) && plan.convertible.contains(&down));
        assert!(
            !plan.lossless.contains(&up),
            "unset spec cannot become required"
        );
        assert!(plan.lossless.contains(&down));
    }
}
