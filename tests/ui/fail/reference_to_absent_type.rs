// A field may refer to a versioned type only in minors that type has.
#[vergate::versioned(minors = "1.28..=1.36")]
pub mod api {
    pub struct PodSpec {
        pub resize_policy: Option<Vec<ContainerResizePolicy>>,
    }

    #[introduced_in("1.33")]
    pub struct ContainerResizePolicy {
        pub resource_name: String,
    }
}

fn main() {}
