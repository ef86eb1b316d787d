//! Kinds as resources, the way k8s-openapi's users know them: every type
//! served as one kind at a known path implements the crate's `Resource`
//! (`API_VERSION`, `GROUP`, `KIND`, `VERSION`, `URL_PATH_SEGMENT`, `Scope`),
//! and, with the crate's `kube` feature, k8s-openapi's `Resource`,
//! `ListableResource` and `Metadata`, so that kube-rs's blanket impl makes
//! it a `kube::Resource`: `kube::Api<v1_34::apps::v1::Deployment>` works.
//!
//! kube's `Resource::meta` returns k8s-openapi's `ObjectMeta`, so under the
//! feature the crate's `ObjectMeta` *is* k8s-openapi's (a re-export in place
//! of the generated struct): every minor's kinds then carry the ObjectMeta
//! of the k8s-openapi version the user's program selects. docs/rust.md says
//! what that trades.

use crate::model::{Convention, Definition, GatedModel};
use proc_macro2::TokenStream;
use quote::quote;

/// The cargo feature that implements k8s-openapi's traits.
pub const KUBE_FEATURE: &str = "kube";

/// The k8s-openapi requirement the feature adds.
pub const K8S_OPENAPI: &str = "0.29";

/// The Kubernetes version the README's `--all-features` build picks for
/// k8s-openapi (`K8S_OPENAPI_ENABLED_VERSION`): one that [`K8S_OPENAPI`]
/// supports.
pub const K8S_OPENAPI_ALL_FEATURES_VERSION: &str = "1.36";

/// True when the API has kinds kube-rs can serve: a served kind, and the
/// ObjectMeta its `metadata` is.
pub fn kube_applies(model: &GatedModel) -> bool {
    model.minors.values().any(|minor| {
        let definitions = minor.definitions.values();
        definitions
            .clone()
            .any(|d| d.convention == Some(Convention::ObjectMeta))
            && definitions.clone().any(|d| served(d).is_some())
    })
}

/// The kind the crate's README shows (`kube::Api<…>`): one of the API's own,
/// never a name taken from another API. Of the newest minor's served kinds,
/// a namespaced one before a cluster one, a stable version (`v1`) before a
/// pre-release (`v1beta1`), then the one whose `spec` has the most fields
/// (Kubernetes' Pod), then by name. Returns its definition name and whether
/// it is namespaced.
pub fn example_kind(model: &GatedModel) -> Option<(&str, bool)> {
    let minor = model.minors.get(&model.newest()?)?;
    let spec_fields = |definition: &Definition| {
        definition
            .object()
            .and_then(|object| object.properties.get("spec"))
            .and_then(|spec| spec.schema.referenced())
            .and_then(|name| minor.definitions.get(name))
            .and_then(Definition::object)
            .map_or(0, |spec| spec.properties.len())
    };
    minor
        .definitions
        .values()
        .filter_map(|definition| {
            let (kind, resource) = served(definition)?;
            let stable = kind
                .version
                .strip_prefix('v')
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()));
            let rank = (
                !resource.namespaced,
                !stable,
                std::cmp::Reverse(spec_fields(definition)),
            );
            Some((rank, definition.name.as_str(), resource.namespaced))
        })
        .min()
        .map(|(_, name, namespaced)| (name, namespaced))
}

/// The kind and where it is served, when `definition` is one kind served at
/// a known path and has a `metadata` field.
fn served(
    definition: &Definition,
) -> Option<(
    &vergate_core::gates::GroupVersionKind,
    &crate::model::ResourcePath,
)> {
    let [kind] = definition.kinds.as_slice() else {
        return None;
    };
    let resource = definition.resource.as_ref()?;
    let object = definition.object()?;
    object
        .properties
        .contains_key("metadata")
        .then_some((kind, resource))
}

/// The crate root's items: the `Resource` trait and its scopes, and, under
/// the `kube` feature, the empty ObjectMeta `Metadata::metadata` lends.
pub fn root_items(kube: bool) -> TokenStream {
    let mut items = quote! {
        /// A kind: where the API server serves it. The same constants as
        /// k8s-openapi's `Resource`, without depending on it.
        pub trait Resource {
            /// `apps/v1`, or `v1` for the core group.
            const API_VERSION: &'static str;
            /// `apps`; empty for the core group.
            const GROUP: &'static str;
            /// `Deployment`.
            const KIND: &'static str;
            /// `v1`.
            const VERSION: &'static str;
            /// The plural in its URL path: `deployments`.
            const URL_PATH_SEGMENT: &'static str;
            /// [`NamespaceResourceScope`] or [`ClusterResourceScope`].
            type Scope: ResourceScope;
        }

        /// Where objects of a kind live.
        pub trait ResourceScope {}

        /// Objects live in a namespace (`/namespaces/{namespace}/…`).
        pub struct NamespaceResourceScope {}
        impl ResourceScope for NamespaceResourceScope {}

        /// Objects live in the cluster, outside any namespace.
        pub struct ClusterResourceScope {}
        impl ResourceScope for ClusterResourceScope {}
    };
    if kube {
        items.extend(quote! {
            /// What the `kube` feature's impls call.
            #[cfg(feature = "kube")]
            #[doc(hidden)]
            pub mod __kube {
                pub use ::k8s_openapi;
                use ::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

                /// The object's metadata, or an empty one when it has none.
                pub fn meta(metadata: &::core::option::Option<ObjectMeta>) -> &ObjectMeta {
                    static EMPTY: ::std::sync::LazyLock<ObjectMeta> =
                        ::std::sync::LazyLock::new(::core::default::Default::default);
                    metadata.as_ref().unwrap_or(&EMPTY)
                }
            }
        });
    }
    items
}

/// The impls of a served kind `ident` (`cfg` its minors' features), or
/// nothing for another type.
pub fn impls(
    definition: &Definition,
    ident: &syn::Ident,
    root: &TokenStream,
    cfg: &TokenStream,
    kube: bool,
) -> TokenStream {
    let Some((kind, resource)) = served(definition) else {
        return TokenStream::new();
    };
    let api_version = kind.api_version();
    let (group, version, kind_name) = (&kind.group, &kind.version, &kind.kind);
    let plural = &resource.plural;
    let list_kind = format!("{kind_name}List");
    let (scope, kube_scope) = if resource.namespaced {
        (
            quote!(#root::NamespaceResourceScope),
            quote!(#root::__kube::k8s_openapi::NamespaceResourceScope),
        )
    } else {
        (
            quote!(#root::ClusterResourceScope),
            quote!(#root::__kube::k8s_openapi::ClusterResourceScope),
        )
    };
    let mut out = quote! {
        #cfg
        impl #root::Resource for #ident {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind_name;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }
    };
    if kube {
        let meta =
            quote!(#root::__kube::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
        // A kind whose spec requires `metadata` holds it directly.
        let required = definition
            .object()
            .is_some_and(|object| object.required.contains("metadata"));
        let (read, write) = if required {
            (quote!(&self.metadata), quote!(&mut self.metadata))
        } else {
            (
                quote!(#root::__kube::meta(&self.metadata)),
                quote!(self
                    .metadata
                    .get_or_insert_with(::core::default::Default::default)),
            )
        };
        out.extend(quote! {
            #cfg
            #[cfg(feature = "kube")]
            const _: () = {
                impl #root::__kube::k8s_openapi::Resource for #ident {
                    const API_VERSION: &'static str = <#ident as #root::Resource>::API_VERSION;
                    const GROUP: &'static str = <#ident as #root::Resource>::GROUP;
                    const KIND: &'static str = <#ident as #root::Resource>::KIND;
                    const VERSION: &'static str = <#ident as #root::Resource>::VERSION;
                    const URL_PATH_SEGMENT: &'static str = <#ident as #root::Resource>::URL_PATH_SEGMENT;
                    type Scope = #kube_scope;
                }
                impl #root::__kube::k8s_openapi::ListableResource for #ident {
                    const LIST_KIND: &'static str = #list_kind;
                }
                impl #root::__kube::k8s_openapi::Metadata for #ident {
                    type Ty = #meta;
                    fn metadata(&self) -> &#meta {
                        #read
                    }
                    fn metadata_mut(&mut self) -> &mut #meta {
                        #write
                    }
                }
            };
        });
    }
    out
}

/// The ObjectMeta shape's item under the `kube` feature: k8s-openapi's
/// type in place of the generated one, which stays for builds without it.
pub fn object_meta(
    definition: &Definition,
    ident: &syn::Ident,
    item: TokenStream,
    kube: bool,
) -> TokenStream {
    if !kube || definition.convention != Some(Convention::ObjectMeta) {
        return item;
    }
    let Ok(file) = syn::parse2::<syn::File>(item.clone()) else {
        return item;
    };
    let mut out = TokenStream::new();
    for item in file.items {
        out.extend(quote!(#[cfg(not(feature = "kube"))] #item));
    }
    out.extend(quote! {
        /// k8s-openapi's ObjectMeta (the `kube` feature): what kube-rs's
        /// `Resource::meta` returns.
        #[cfg(feature = "kube")]
        pub use ::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta as #ident;
    });
    out
}
