#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    pub struct ServiceSpec {
        #[introduced_in("1.x")]
        pub traffic_distribution: Option<String>,
    }
}

fn main() {}
