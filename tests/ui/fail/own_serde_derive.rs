// vergate derives serde for every minor; a derive of its own is reported
// once, without "conflicting implementations" on top.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    #[derive(Debug, serde::Serialize)]
    pub struct ServiceSpec {
        pub selector: Option<String>,
    }
}

fn main() {}
