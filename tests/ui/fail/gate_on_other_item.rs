// Gates apply to the module's structs and enums, their fields and variants.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    pub struct ServiceSpec {
        pub selector: Option<String>,
    }

    #[introduced_in("1.30")]
    pub fn helper() {}
}

fn main() {}
