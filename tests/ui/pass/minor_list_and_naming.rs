//! Minors as a list (adjacent means adjacent in the list), a naming rule,
//! renames across minors and a recursive type, under `#![deny(warnings)]`.
#![deny(warnings)]

#[vergate::versioned(minors = ["1.9", "1.10", "1.12"], rename_all = "snake_case")]
pub mod shipyard {
    /// One step of a pipeline; steps nest.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Step {
        pub name: String,
        pub steps: Option<Vec<Step>>,
        #[renamed(from = "shell", in = "1.12")]
        pub run_shell: Option<String>,
        #[introduced_in("1.10")]
        pub timeout_seconds: Option<u32>,
        #[rename("type")]
        pub kind: Option<String>,
    }
}

use shipyard::{v1_10, v1_12, v1_9};

fn main() {
    let old = v1_9::Step {
        name: "build".into(),
        steps: Some(vec![v1_9::Step {
            name: "compile".into(),
            run_shell: Some("cargo build".into()),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let json = serde_json::to_value(&old).unwrap();
    assert_eq!(json["steps"][0]["shell"], "cargo build");
    let middle: v1_10::Step = old.into();
    let new: v1_12::Step = middle.into();
    let json = serde_json::to_value(&new).unwrap();
    assert_eq!(json["steps"][0]["run_shell"], "cargo build");
    let back = v1_10::Step::try_from(v1_12::Step {
        kind: Some("shell".into()),
        ..new
    })
    .unwrap();
    assert_eq!(back.kind.as_deref(), Some("shell"));
}
