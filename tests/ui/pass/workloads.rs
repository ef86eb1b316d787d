//! A realistic multi-type module: a PodSpec holding Containers, a
//! ServiceSpec, string enums; used in several minors at once, converted
//! between them and serialized, all under `#![deny(warnings)]`.
#![deny(warnings)]

#[vergate::versioned(minors = "1.28..=1.36")]
pub mod core {
    use std::collections::BTreeMap;

    /// What runs in a pod.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct PodSpec {
        pub containers: Vec<Container>,
        pub init_containers: Option<Vec<Container>>,
        pub restart_policy: Option<RestartPolicy>,
        pub node_selector: Option<BTreeMap<String, String>>,
        #[introduced_in("1.32")]
        #[stage(alpha = "1.32", beta = "1.34")]
        #[feature_gate("PodLevelResources")]
        pub resources: Option<ResourceRequirements>,
        #[introduced_in("1.33")]
        pub host_users: Option<bool>,
    }

    /// One container of a pod.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Container {
        pub name: String,
        pub image: Option<String>,
        pub ports: Option<Vec<ContainerPort>>,
        pub resources: Option<ResourceRequirements>,
        #[introduced_in("1.29")]
        #[stage(alpha = "1.29", beta = "1.33")]
        pub restart_policy: Option<ContainerRestartPolicy>,
        #[introduced_in("1.33")]
        pub resize_policy: Option<Vec<ContainerResizePolicy>>,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ContainerPort {
        pub container_port: i32,
        pub name: Option<String>,
        pub protocol: Option<Protocol>,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    #[introduced_in("1.33")]
    pub struct ContainerResizePolicy {
        pub resource_name: String,
        pub restart_policy: String,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ResourceRequirements {
        pub limits: Option<BTreeMap<String, String>>,
        pub requests: Option<BTreeMap<String, String>>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RestartPolicy {
        Always,
        OnFailure,
        Never,
        /// A value on its way out: `#[deprecated]` from 1.35, gone in 1.36.
        #[deprecated_in("1.35")]
        #[removed_in("1.36")]
        Sometimes,
    }

    /// A whole type on its way out.
    #[derive(Clone, Debug, Default, PartialEq)]
    #[deprecated_in("1.32")]
    #[removed_in("1.35")]
    pub struct LegacyProbe {
        pub command: Option<Vec<String>>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[introduced_in("1.29")]
    pub enum ContainerRestartPolicy {
        Always,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Protocol {
        #[rename("TCP")]
        Tcp,
        #[rename("UDP")]
        Udp,
        #[rename("SCTP")]
        Sctp,
    }

    /// A Service's spec.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ServiceSpec {
        pub selector: Option<BTreeMap<String, String>>,
        pub ports: Option<Vec<ServicePort>>,
        #[introduced_in("1.30")]
        pub traffic_distribution: Option<String>,
        #[deprecated_in("1.31")]
        #[removed_in("1.34")]
        pub topology_keys: Option<Vec<String>>,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ServicePort {
        pub port: i32,
        pub target_port: Option<i32>,
        pub protocol: Option<Protocol>,
    }
}

use self::core::{v1_28, v1_33, v1_34};
use vergate::versioned::Versioned;

fn web(port: i32) -> v1_28::Container {
    v1_28::Container {
        name: "web".into(),
        image: Some("nginx:1.27".into()),
        ports: Some(vec![v1_28::ContainerPort {
            container_port: port,
            name: None,
            protocol: Some(v1_28::Protocol::Tcp),
        }]),
        resources: None,
    }
}

fn main() {
    let pod = v1_28::PodSpec {
        containers: vec![web(8080)],
        init_containers: None,
        restart_policy: Some(v1_28::RestartPolicy::Always),
        node_selector: None,
    };
    let json = serde_json::to_string(&pod).unwrap();
    assert!(json.contains(r#""containerPort":8080"#), "{json}");
    assert!(json.contains(r#""protocol":"TCP""#), "{json}");

    // 1.28 → … → 1.33: nothing is lost, each step is `From`.
    let v29: self::core::v1_29::PodSpec = pod.into();
    let v30: self::core::v1_30::PodSpec = v29.into();
    let v31: self::core::v1_31::PodSpec = v30.into();
    let v32: self::core::v1_32::PodSpec = v31.into();
    let mut v33: v1_33::PodSpec = v32.into();
    v33.containers[0].resize_policy = Some(vec![v1_33::ContainerResizePolicy {
        resource_name: "cpu".into(),
        restart_policy: "NotRequired".into(),
    }]);
    let back = self::core::v1_32::PodSpec::try_from(v33.clone()).unwrap_err();
    assert_eq!(back.dropped, ["containers[0].resizePolicy"]);

    let service = v1_34::ServiceSpec {
        selector: None,
        ports: Some(vec![v1_34::ServicePort {
            port: 443,
            target_port: Some(8443),
            protocol: None,
        }]),
        traffic_distribution: Some("PreferClose".into()),
    };
    assert_eq!(<v1_34::ServiceSpec as Versioned>::VERSION.to_string(), "1.34");
    assert!(<v1_33::PodSpec as Versioned>::JSON_SCHEMA.contains("resizePolicy"));
    // 1.28's strict schema names resizePolicy only to refuse it.
    assert!(<v1_28::PodSpec as Versioned>::JSON_SCHEMA
        .contains("\"errorMessage\":\"resizePolicy is not available in 1.28; introduced in 1.33"));
    let fields: Vec<&str> = <v1_34::ServiceSpec as Versioned>::GATES
        .fields_in(vergate::Version::new(1, 34))
        .collect();
    assert_eq!(fields, ["ports", "selector", "trafficDistribution"]);
    println!("{}", serde_json::to_string(&service).unwrap());
}
