//! Which world an API belongs to, as its api.toml declares it (`dialect`):
//! the code generator marks its conventions by it, gates.json records it,
//! and the runtime chooses what it checks by it, never by the API's name.

use std::fmt;
use std::str::FromStr;

/// The kind of API an api.toml describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Dialect {
    /// The Kubernetes API server's own API: its minors are Kubernetes
    /// releases, its descriptions name feature gates and stages, and the
    /// project publishes the feature-gate table and the prerelease
    /// lifecycle of its kinds.
    #[cfg_attr(feature = "serde", serde(rename = "kubernetes"))]
    Kubernetes,
    /// An operator's custom resources (CRDs): Kubernetes objects (metadata,
    /// quantities, int-or-string), but its minors are the operator's
    /// releases, so no Kubernetes feature gate or stage applies to them,
    /// even in the Kubernetes types it embeds.
    #[cfg_attr(feature = "serde", serde(rename = "custom-resources"))]
    CustomResources,
    /// A plain OpenAPI service: none of Kubernetes' conventions.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "openapi"))]
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

    /// True when the API's minors are Kubernetes releases: descriptions
    /// are read for the feature gates and stages that guard a field
    /// (`model::prose_gates`), and the CEL libraries and the string
    /// formats a CRD may use follow its minors.
    pub fn minors_are_kubernetes_releases(self) -> bool {
        self == Dialect::Kubernetes
    }

    /// True when the API publishes fact tables beside its specs (the
    /// feature-gate table, the prerelease lifecycle of kinds).
    pub fn has_fact_tables(self) -> bool {
        self == Dialect::Kubernetes
    }

    /// True when the API server decodes values by their format (a
    /// `byte` field's base64, an `int-or-string`'s forms) and validates its
    /// built-in kinds' `metadata` (names, labels, annotations): the
    /// Kubernetes API server does, in Go code that another API's minors
    /// say nothing of.
    pub fn is_kubernetes_api_server(self) -> bool {
        self == Dialect::Kubernetes
    }

    /// The dialect of a gates.json that does not name one: indexes are
    /// written without it when it is Kubernetes' (the embedded index among
    /// them), so Kubernetes.
    pub fn unwritten() -> Dialect {
        Dialect::Kubernetes
    }

    /// True for [`Dialect::unwritten`]'s dialect, left out of gates.json.
    pub fn is_unwritten(&self) -> bool {
        *self == Dialect::unwritten()
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
        assert!(Dialect::Kubernetes.minors_are_kubernetes_releases());
        assert!(!Dialect::CustomResources.minors_are_kubernetes_releases());
        assert!(!Dialect::OpenApi.has_fact_tables());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serialized_as_api_toml_names_it() {
        for (dialect, name) in DIALECTS {
            let json = serde_json::to_string(&dialect).unwrap();
            assert_eq!(json, format!("{name:?}"));
            assert_eq!(serde_json::from_str::<Dialect>(&json).unwrap(), dialect);
        }
    }
}
