// Three broken annotations give three errors, each under its own token, and
// code that uses the module gets no follow-on errors.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    #[derive(Default)]
    pub struct ServiceSpec {
        #[introduced_in("1.3O")]
        pub traffic_distribution: Option<String>,
        #[removed_in("1.28")]
        pub topology_keys: Option<Vec<String>>,
        #[deprecatd_in("1.31")]
        pub external_ips: Option<Vec<String>>,
    }
}

fn main() {
    let spec = api::v1_30::ServiceSpec {
        traffic_distribution: Some("PreferClose".into()),
        ..Default::default()
    };
    let _ = spec.topology_keys;
}
