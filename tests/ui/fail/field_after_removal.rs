// `topology_keys` is removed in 1.34: reading it there does not compile.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    #[derive(Default)]
    pub struct ServiceSpec {
        #[removed_in("1.34")]
        pub topology_keys: Option<Vec<String>>,
    }
}

fn main() {
    let old = api::v1_33::ServiceSpec::default();
    let _fine = old.topology_keys;
    let new = api::v1_34::ServiceSpec::default();
    let _gone = new.topology_keys;
}
