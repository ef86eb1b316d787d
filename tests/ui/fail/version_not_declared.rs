#[vergate::versioned(minors = ["1.28", "1.30", "1.32"])]
pub mod api {
    pub struct ServiceSpec {
        #[introduced_in("1.29")]
        pub traffic_distribution: Option<String>,
    }
}

fn main() {}
