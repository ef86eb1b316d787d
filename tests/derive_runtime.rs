//! The derive at run time: wire names, strict decoding, conversions between
//! minors, gate tables and JSON Schemas (judged by the `jsonschema` crate).

use serde_json::json;
use vergate::versioned::{from_str_strict, StrictError, Versioned};
use vergate::Version;

#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    use std::collections::BTreeMap;

    /// The spec of a Service.
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct ServiceSpec {
        /// Route traffic to pods with these labels.
        pub selector: Option<BTreeMap<String, String>>,
        pub ports: Option<Vec<ServicePort>>,
        /// How traffic is spread over the endpoints.
        #[introduced_in("1.30")]
        #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
        #[feature_gate("ServiceTrafficDistribution")]
        #[reference("https://kep.k8s.io/4444")]
        pub traffic_distribution: Option<TrafficDistribution>,
        #[deprecated_in("1.31")]
        #[removed_in("1.34")]
        pub topology_keys: Option<Vec<String>>,
        #[renamed(from = "clusterIp", in = "1.32")]
        #[rename("clusterIP")]
        pub cluster_ip: Option<String>,
    }

    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct ServicePort {
        pub name: Option<String>,
        pub port: i32,
        #[introduced_in("1.29")]
        pub app_protocol: Option<String>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[introduced_in("1.30")]
    pub enum TrafficDistribution {
        PreferClose,
        #[introduced_in("1.33")]
        PreferSameZone,
    }
}

use api::{v1_28, v1_29, v1_30, v1_31, v1_32, v1_33, v1_34};

#[test]
fn wire_names_and_absent_optionals() {
    let spec = v1_32::ServiceSpec {
        selector: Some([("app".to_owned(), "web".to_owned())].into()),
        ports: Some(vec![v1_32::ServicePort {
            name: None,
            port: 80,
            app_protocol: Some("http".into()),
        }]),
        traffic_distribution: Some(v1_32::TrafficDistribution::PreferClose),
        cluster_ip: Some("10.0.0.1".into()),
        ..Default::default()
    };
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        value,
        json!({
            "selector": {"app": "web"},
            "ports": [{"port": 80, "appProtocol": "http"}],
            "trafficDistribution": "PreferClose",
            "clusterIP": "10.0.0.1",
        })
    );
    let back: v1_32::ServiceSpec = serde_json::from_value(value).unwrap();
    assert_eq!(back, spec);
    let old = v1_31::ServiceSpec {
        cluster_ip: Some("10.0.0.1".into()),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&old).unwrap(),
        json!({"clusterIp": "10.0.0.1"})
    );
}

#[test]
fn strict_decoding_names_the_fields_a_minor_lacks() {
    let manifest =
        r#"{"ports": [{"port": 80, "appProtocol": "h2c"}], "trafficDistribution": "PreferClose"}"#;
    let lenient: v1_28::ServiceSpec = serde_json::from_str(manifest).unwrap();
    assert_eq!(lenient.ports.unwrap()[0].port, 80);
    let err = from_str_strict::<v1_28::ServiceSpec>(manifest).unwrap_err();
    match &err {
        StrictError::UnknownFields(paths) => assert_eq!(
            paths,
            &[
                "ports[0].appProtocol".to_owned(),
                "trafficDistribution".to_owned()
            ]
        ),
        other => panic!("{other}"),
    }
    assert!(from_str_strict::<v1_30::ServiceSpec>(manifest).is_ok());
    let err = from_str_strict::<v1_32::ServiceSpec>(r#"{"trafficDistribution": "PreferSameZone"}"#)
        .unwrap_err();
    assert!(err.to_string().contains("PreferSameZone"), "{err}");
}

#[test]
fn upgrades_are_infallible_when_nothing_is_lost() {
    let old = v1_28::ServicePort {
        name: Some("http".into()),
        port: 80,
    };
    let new: v1_29::ServicePort = old.into();
    assert_eq!(new.app_protocol, None);
    let spec = v1_29::ServiceSpec {
        ports: Some(vec![new]),
        ..Default::default()
    };
    let upgraded: v1_30::ServiceSpec = spec.into();
    assert_eq!(upgraded.ports.unwrap()[0].port, 80);
}

#[test]
#[allow(deprecated)] // sets `topology_keys`, deprecated since 1.31
fn downgrades_name_every_field_they_would_drop() {
    let spec = v1_30::ServiceSpec {
        ports: Some(vec![
            v1_30::ServicePort {
                port: 80,
                ..Default::default()
            },
            v1_30::ServicePort {
                port: 443,
                app_protocol: Some("https".into()),
                ..Default::default()
            },
        ]),
        traffic_distribution: Some(v1_30::TrafficDistribution::PreferClose),
        ..Default::default()
    };
    let err = v1_29::ServiceSpec::try_from(spec.clone()).unwrap_err();
    assert_eq!(err.dropped, ["trafficDistribution"]);
    assert_eq!(
        (err.from, err.to),
        (Version::new(1, 30), Version::new(1, 29))
    );
    let err = v1_28::ServiceSpec::try_from(
        v1_29::ServiceSpec::try_from(v1_30::ServiceSpec {
            traffic_distribution: None,
            ..spec
        })
        .unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.dropped, ["ports[1].appProtocol"]);
    assert!(err.to_string().contains("ports[1].appProtocol"), "{err}");
    // A field removed in 1.34 is dropped only when it holds data.
    let keys = v1_33::ServiceSpec {
        topology_keys: Some(vec!["zone".into()]),
        ..Default::default()
    };
    let err = v1_34::ServiceSpec::try_from(keys).unwrap_err();
    assert_eq!(err.dropped, ["topologyKeys"]);
    assert!(v1_34::ServiceSpec::try_from(v1_33::ServiceSpec::default()).is_ok());
    // An enum value the older minor lacks is named with its path.
    let zone = v1_33::ServiceSpec {
        traffic_distribution: Some(v1_33::TrafficDistribution::PreferSameZone),
        ..Default::default()
    };
    let err = v1_32::ServiceSpec::try_from(zone).unwrap_err();
    assert_eq!(
        err.dropped,
        ["trafficDistribution (value \"PreferSameZone\")"]
    );
}

#[test]
fn renamed_fields_convert_across_the_rename() {
    let old = v1_31::ServiceSpec {
        cluster_ip: Some("10.0.0.1".into()),
        ..Default::default()
    };
    let new: v1_32::ServiceSpec = old.into();
    assert_eq!(new.cluster_ip.as_deref(), Some("10.0.0.1"));
}

#[test]
fn gate_tables() {
    let table = <v1_30::ServiceSpec as Versioned>::GATES;
    assert_eq!(table.name, "ServiceSpec");
    let traffic = table.field("trafficDistribution").unwrap();
    assert_eq!(traffic.rust, "traffic_distribution");
    assert_eq!(traffic.gate.introduced_in, Version::new(1, 30));
    assert_eq!(
        traffic.gate.feature_gate,
        Some("ServiceTrafficDistribution")
    );
    assert_eq!(
        traffic.gate.stage_in(Version::new(1, 32)),
        Some(vergate::gates::Stage::Beta)
    );
    let keys = table.field("topologyKeys").unwrap();
    assert_eq!(keys.gate.removed_in, Some(Version::new(1, 34)));
    assert_eq!(keys.gate.deprecated_in, Some(Version::new(1, 31)));
    let ip = table.field("clusterIP").unwrap();
    assert_eq!(ip.renamed_from, Some(("clusterIp", Version::new(1, 32))));
    assert_eq!(
        table.field("clusterIp").unwrap().gate.removed_in,
        Some(Version::new(1, 32))
    );
    assert_eq!(
        <v1_29::ServiceSpec as Versioned>::VERSION,
        Version::new(1, 29)
    );
    assert!(std::ptr::eq(table, &api::gates::SERVICE_SPEC));
    let values = api::gates::TRAFFIC_DISTRIBUTION.values;
    assert_eq!(values[1].wire, "PreferSameZone");
    assert_eq!(values[1].gate.introduced_in, Version::new(1, 33));
}

fn validator<T: Versioned>() -> jsonschema::Validator {
    let schema = T::json_schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::draft202012::meta::validate(&schema)
        .unwrap_or_else(|err| panic!("{} is not a valid 2020-12 schema: {err}", T::NAME));
    jsonschema::draft202012::new(&schema).unwrap()
}

#[test]
fn json_schemas_hold_exactly_each_minors_fields() {
    let manifest = json!({
        "selector": {"app": "web"},
        "ports": [{"port": 80, "appProtocol": "http"}],
        "trafficDistribution": "PreferClose",
    });
    assert!(validator::<v1_30::ServiceSpec>().is_valid(&manifest));
    let old = validator::<v1_29::ServiceSpec>();
    // Refused at the field, whose schema says why (for editors: docs/editor.md).
    let errors: Vec<String> = old
        .iter_errors(&manifest)
        .map(|err| err.instance_path().to_string())
        .collect();
    assert_eq!(errors, ["/trafficDistribution"]);
    let schema = <v1_29::ServiceSpec as Versioned>::json_schema();
    assert_eq!(
        schema["$defs"]["ServiceSpec"]["properties"]["trafficDistribution"]["errorMessage"],
        "trafficDistribution is not available in 1.29; introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"
    );
    let older = validator::<v1_28::ServiceSpec>();
    assert!(!older.is_valid(&json!({"ports": [{"port": 80, "appProtocol": "http"}]})));
    assert!(older.is_valid(&json!({"ports": [{"port": 80}]})));
    assert!(
        !older.is_valid(&json!({"ports": [{"name": "x"}]})),
        "port is required"
    );
    let v32 = validator::<v1_32::ServiceSpec>();
    assert!(!v32.is_valid(&json!({"trafficDistribution": "PreferSameZone"})));
    assert!(validator::<v1_33::ServiceSpec>()
        .is_valid(&json!({"trafficDistribution": "PreferSameZone"})));
    let schema = <v1_32::ServiceSpec as Versioned>::json_schema();
    let properties = &schema["$defs"]["ServiceSpec"]["properties"];
    assert_eq!(properties["topologyKeys"]["deprecated"], true);
    assert_eq!(
        properties["selector"]["description"],
        "Route traffic to pods with these labels."
    );
    for each in [
        validator::<v1_36::ServicePort> as fn() -> _,
        validator::<v1_36::TrafficDistribution>,
    ] {
        each();
    }
}

#[test]
fn json_schemas_take_null_for_an_option_field_only() {
    // `Option` fields read null as `None`; their schemas accept it.
    let spec = json!({"selector": null, "ports": null, "trafficDistribution": null});
    assert!(validator::<v1_30::ServiceSpec>().is_valid(&spec));
    let value: v1_30::ServiceSpec = serde_json::from_value(spec).unwrap();
    assert!(value.selector.is_none() && value.traffic_distribution.is_none());
    // `port` is required: null is refused, at the field.
    let port = validator::<v1_30::ServicePort>();
    assert!(port.is_valid(&json!({"port": 80, "appProtocol": null})));
    let errors: Vec<String> = port
        .iter_errors(&json!({"port": null}))
        .map(|err| err.instance_path().to_string())
        .collect();
    assert_eq!(errors, ["/port"]);
}

use api::v1_36;

/// An int-or-string field: `vergate::IntOrString`, the same item the
/// spec-driven crate declares, with the same schema.
#[vergate::versioned(minors = "1.28..=1.29")]
pub mod ports {
    #[derive(Clone, Debug, PartialEq)]
    pub struct Backend {
        pub target_port: vergate::IntOrString,
    }
}

#[test]
fn int_or_string_reads_both_forms_and_says_so_in_its_schema() {
    for (text, value) in [
        (r#"{"targetPort":8080}"#, vergate::IntOrString::Int(8080)),
        (
            r#"{"targetPort":"http"}"#,
            vergate::IntOrString::String("http".into()),
        ),
    ] {
        let backend: ports::v1_29::Backend = serde_json::from_str(text).unwrap();
        assert_eq!(backend.target_port, value);
        assert_eq!(serde_json::to_string(&backend).unwrap(), text);
    }
    assert!(serde_json::from_str::<ports::v1_29::Backend>(r#"{"targetPort":1.5}"#).is_err());
    let schema: serde_json::Value =
        serde_json::from_str(ports::v1_29::Backend::JSON_SCHEMA).unwrap();
    let text = schema.to_string();
    assert!(
        text.contains(r#""targetPort":{"type":["integer","string"]}"#),
        "{text}"
    );
}
