//! A plugin crate that generates the demo API's Rust types from its
//! `build.rs` (see `build.rs`) instead of depending on `generated/demo/rust`.

/// The demo API (Shipyard): `demo::v1_12::build::v1::Pipeline`, …
pub mod demo {
    include!(concat!(env!("OUT_DIR"), "/demo.rs"));
}

#[cfg(test)]
mod tests {
    use super::demo::{v1_10, v1_12};

    #[test]
    fn a_pipeline_round_trips() {
        let json = r#"{"apiVersion":"1.12","kind":"Pipeline","metadata":{"name":"web"},"spec":{"retries":{"limit":3},"steps":[{"name":"build","type":"container"}]}}"#;
        let pipeline: v1_12::prelude::Pipeline = serde_json::from_str(json).unwrap();
        assert_eq!(pipeline.spec.steps[0].r#type.as_deref(), Some("container"));
        assert_eq!(serde_json::to_string(&pipeline).unwrap(), json);
    }

    #[test]
    fn retries_change_type_in_1_11() {
        let old: v1_10::build::v1::PipelineSpec =
            serde_json::from_str(r#"{"steps":[],"retries":3}"#).unwrap();
        assert_eq!(old.retries, Some(3));
    }
}
