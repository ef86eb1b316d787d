#[vergate::versioned(minors = "1.36..=1.28")]
pub mod api {
    pub struct ServiceSpec {
        pub selector: Option<String>,
    }
}

fn main() {}
