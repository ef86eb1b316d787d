//! The front door builds the same gated model (and so the same gates.json
//! entries) the spec loader builds; and it reports every mistake at once.

use super::{expand, gated_model};
use quote::quote;
use vergate_core::gates::{Rename, Stage};
use vergate_core::Version;

fn v(minor: u32) -> Version {
    Version::new(1, minor)
}

fn module() -> syn::ItemMod {
    syn::parse2(quote! {
        mod api {
            /// A Service's spec.
            pub struct ServiceSpec {
                pub selector: Option<String>,
                #[introduced_in("1.30")]
                #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
                #[feature_gate("ServiceTrafficDistribution")]
                #[reference("https://kep.k8s.io/4444")]
                pub traffic_distribution: Option<Mode>,
                #[deprecated_in("1.31")]
                #[removed_in("1.34")]
                pub topology_keys: Option<Vec<String>>,
                #[renamed(from = "clusterIp", in = "1.32")]
                #[rename("clusterIP")]
                pub cluster_ip: Option<String>,
                pub port: u16,
            }

            #[introduced_in("1.30")]
            pub enum Mode {
                PreferClose,
                #[introduced_in("1.33")]
                PreferSameZone,
            }
        }
    })
    .unwrap()
}

#[test]
fn annotations_become_the_gates_the_spec_loader_would_write() {
    let model = gated_model(quote!(minors = "1.28..=1.36"), &module()).unwrap();
    assert_eq!(model.versions.len(), 9);
    let gates = model.gates_index();
    let spec = &gates.types["ServiceSpec"];
    let traffic = &spec.fields["trafficDistribution"];
    assert_eq!(traffic.gate.introduced_in, v(30));
    assert_eq!(traffic.gate.removed_in, None);
    assert_eq!(traffic.ty, "Mode");
    assert_eq!(traffic.gate.stage_in(v(32)), Some(Stage::Beta));
    assert_eq!(
        traffic.gate.feature_gate.as_deref(),
        Some("ServiceTrafficDistribution")
    );
    let keys = &spec.fields["topologyKeys"];
    assert_eq!(
        (keys.gate.deprecated_in, keys.gate.removed_in),
        (Some(v(31)), Some(v(34)))
    );
    assert_eq!(keys.ty, "[]string");
    assert_eq!(
        spec.fields["clusterIP"].renamed_from,
        Some(Rename {
            from: "clusterIp".into(),
            in_version: v(32)
        })
    );
    assert_eq!(spec.fields["clusterIp"].gate.removed_in, Some(v(32)));
    assert_eq!(spec.fields["port"].required_in.len(), 9);
    assert_eq!(spec.fields["port"].ty, "integer(int32)");
    let mode = &gates.types["Mode"];
    assert_eq!(mode.gate.introduced_in, v(30));
    assert_eq!(mode.values["PreferSameZone"].introduced_in, v(33));
    let description = model.minors[&v(30)].definitions["ServiceSpec"]
        .description
        .clone();
    assert_eq!(description.as_deref(), Some("A Service's spec."));
}

#[test]
fn every_mistake_is_reported_at_once() {
    let module: syn::ItemMod = syn::parse2(quote! {
        mod api {
            pub struct ServiceSpec {
                #[introduced_in("1.x")]
                pub a: Option<String>,
                #[removed_in("1.40")]
                pub b: Option<String>,
                #[introduce_in("1.30")]
                pub c: Option<String>,
            }
        }
    })
    .unwrap();
    let error = expand(quote!(minors = "1.28..=1.36"), &module).unwrap_err();
    let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(messages[0].contains(r#"invalid version "1.x""#));
    assert!(messages[1].contains("1.40 is outside this module's minors (1.28..=1.36)"));
    assert!(messages[2].contains("unknown vergate attribute `introduce_in`"));
}
