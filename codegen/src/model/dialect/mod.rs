//! Which world an API belongs to, as its api.toml declares it (`dialect`),
//! and so which conventions and rules apply to it. Nothing here is detected
//! from the specs: a rule of one world never runs on another's.
//!
//! Each world's conventions live in a module of their own
//! ([`kubernetes`]); a plain OpenAPI service has none. The load pass marks
//! the definitions that carry one ([`Dialect::mark`]), and emitters and the
//! runtime match on [`Convention`], never on a definition's name. A new
//! dialect is a variant here and, if it has conventions, one module.

pub mod kubernetes;

use crate::model::MinorModel;
use std::fmt;
use std::str::FromStr;

/// A meaning a dialect gives a definition beyond what its schema says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub enum Convention {
    /// A quantity (`"500m"`, `"1Gi"`): the schema says string, the decoder
    /// takes a number too; Pkl's `Quantity`, Rust's quantity readers.
    Quantity,
    /// The object metadata every kind's `metadata` is; what kube-rs's
    /// `Resource` hands out.
    ObjectMeta,
    /// A JSONSchemaProps or another shape (JSONSchemaPropsOrArray, …OrBool,
    /// …OrStringArray): the spec says only "an object", the Go type's JSON
    /// decoding takes either. Marked definitions are an `anyOf` of the two,
    /// the JSONSchemaProps first; Pkl makes it the default member and
    /// writes the union where it is used, as pkl-k8s does.
    SchemaOr,
}

/// The kind of API an api.toml describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// The Kubernetes API server's own API: its minors are Kubernetes
    /// releases, its descriptions name feature gates and stages, and the
    /// project publishes the feature-gate table and the prerelease
    /// lifecycle of its kinds.
    Kubernetes,
    /// An operator's custom resources (CRDs): Kubernetes objects (metadata,
    /// quantities, int-or-string), but its minors are the operator's
    /// releases, so no Kubernetes feature gate or stage applies to them,
    /// even in the Kubernetes types it embeds.
    CustomResources,
    /// A plain OpenAPI service: none of Kubernetes' conventions.
    #[default]
    OpenApi,
}

/// Every dialect with its api.toml name, in the order docs list them.
pub const DIALECTS: [(Dialect, &str); 3] = [
    (Dialect::Kubernetes, "kubernetes"),
    (Dialect::CustomResources, "custom-resources"),
    (Dialect::OpenApi, "openapi"),
];

impl Dialect {
    /// The name api.toml gives it.
    pub fn name(self) -> &'static str {
        DIALECTS
            .iter()
            .find(|(dialect, _)| *dialect == self)
            .map_or("openapi", |(_, name)| name)
    }

    /// True when descriptions are read for the feature gates and stages
    /// that guard a field (`model::prose_gates`): Kubernetes' own minors
    /// only, whose numbers are the releases those gates belong to.
    pub fn reads_feature_gate_prose(self) -> bool {
        self == Dialect::Kubernetes
    }

    /// Marks the definitions of `minor` that carry one of the dialect's
    /// conventions (once per load, before the merge).
    pub fn mark(self, minor: &mut MinorModel) {
        match self {
            Dialect::Kubernetes | Dialect::CustomResources => kubernetes::mark(minor),
            Dialect::OpenApi => {}
        }
    }

    /// True when the API publishes fact tables beside its specs (the
    /// feature-gate table, the prerelease lifecycle of kinds).
    pub fn has_fact_tables(self) -> bool {
        self == Dialect::Kubernetes
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(text: &str) -> Result<Dialect, String> {
        DIALECTS
            .iter()
            .find(|(_, name)| *name == text)
            .map(|(dialect, _)| *dialect)
            .ok_or_else(|| {
                let names: Vec<String> = DIALECTS
                    .iter()
                    .map(|(_, name)| format!("{name:?}"))
                    .collect();
                format!("dialect {text:?} is not one of {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for (dialect, name) in DIALECTS {
            assert_eq!(name.parse::<Dialect>(), Ok(dialect));
            assert_eq!(dialect.to_string(), name);
        }
        let err = "k8s".parse::<Dialect>().unwrap_err();
        assert!(
            err.contains("\"kubernetes\", \"custom-resources\", \"openapi\""),
            "{err}"
        );
        assert!(Dialect::Kubernetes.reads_feature_gate_prose());
        assert!(!Dialect::CustomResources.reads_feature_gate_prose());
        assert!(!Dialect::OpenApi.has_fact_tables());
    }
}
