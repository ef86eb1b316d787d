// A feature gate guards something only while it is alpha or beta.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    pub struct ServiceSpec {
        #[introduced_in("1.30")]
        #[feature_gate("ServiceTrafficDistribution")]
        pub traffic_distribution: Option<String>,
    }
}

fn main() {}
