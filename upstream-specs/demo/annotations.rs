//! What Shipyard's specs cannot say, in the derive's attribute grammar (read by
//! `cargo xtask regen`, never compiled). See upstream-specs/demo/README.md.

#[definition("dev.shipyard.deploy.v1.ReleaseSpec")]
struct ReleaseSpec {
    /// Canary releases arrive behind a feature gate.
    #[introduced_in("1.11")]
    #[stage(alpha = "1.11", beta = "1.12")]
    #[feature_gate("CanaryReleases")]
    #[reference("https://shipyard.example/proposals/17")]
    canary: (),

    /// The structural `deprecated: true` of the spec, restated.
    #[deprecated_in("1.10")]
    replicas: (),
}

#[definition("dev.shipyard.deploy.v1.Strategy")]
enum Strategy {
    #[stage(alpha = "1.12")]
    #[feature_gate("BlueGreenReleases")]
    BlueGreen,
}
