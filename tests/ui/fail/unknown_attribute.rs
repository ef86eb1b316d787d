#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    pub struct ServiceSpec {
        #[introduce_in("1.30")]
        pub traffic_distribution: Option<String>,
    }
}

fn main() {}
