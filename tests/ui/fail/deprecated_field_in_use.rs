// `topology_keys` is deprecated from 1.31: using it there warns (an error
// under `deny(deprecated)`), using it before does not.
#![deny(deprecated)]

#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    #[derive(Default)]
    pub struct ServiceSpec {
        #[deprecated_in("1.31")]
        pub topology_keys: Option<Vec<String>>,
    }
}

fn main() {
    let _fine = api::v1_30::ServiceSpec::default().topology_keys;
    let _deprecated = api::v1_31::ServiceSpec::default().topology_keys;
}
