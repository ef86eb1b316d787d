// `traffic_distribution` arrives in 1.30: setting it on 1.29 does not compile,
// while the same code on 1.30 does.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    #[derive(Default)]
    pub struct ServiceSpec {
        pub selector: Option<std::collections::BTreeMap<String, String>>,
        #[introduced_in("1.30")]
        pub traffic_distribution: Option<String>,
    }
}

fn main() {
    let _ok = api::v1_30::ServiceSpec {
        traffic_distribution: Some("PreferClose".into()),
        ..Default::default()
    };
    let _too_early = api::v1_29::ServiceSpec {
        traffic_distribution: Some("PreferClose".into()),
        ..Default::default()
    };
}
