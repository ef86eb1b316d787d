//! The caches of `regen_unless_fresh` (loaded minors, rendered Pkl modules)
//! change no byte: after a regen that took the unchanged minors from them (a
//! minor was added), the output equals a regen without them; a regen that
//! renders nothing new leaves the render cache alone; a removed minor's
//! entry goes; damaged caches are ignored.

mod support;

use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::output::{sync, Mode, CACHE_DIR};
use vergate_codegen::regen::{self, regen_unless_fresh, Outcome};

fn run(api_dir: &Path, out: &Path) {
    let api = Api::open(api_dir).unwrap();
    let outcome = regen_unless_fresh(&api, out).unwrap();
    assert!(matches!(outcome, Outcome::Ran(..)));
}

/// The output equals what a regen without any cache builds.
fn assert_fresh(api_dir: &Path, out: &Path) {
    let api = Api::open(api_dir).unwrap();
    let built = regen::build(&api).unwrap();
    let report = sync(&built.tree, out, Mode::Check).unwrap();
    assert!(report.is_clean(), "the cached regen differs: {report}");
}

#[test]
fn cached_texts_are_the_rendered_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let api_dir = tmp.path().join("demo");
    support::copy_dir(&support::root().join("upstream-specs/demo"), &api_dir);
    // The overlay names values of the newest minor, which goes away below.
    std::fs::remove_file(api_dir.join("annotations.rs")).unwrap();
    let out = tmp.path().join("out");
    let cache = out.join(CACHE_DIR).join("pkl");

    // Without the newest minor, then with it: the old minors' modules come
    // from the cache.
    let newest = tmp.path().join("v1.12");
    std::fs::rename(api_dir.join("v1.12"), &newest).unwrap();
    run(&api_dir, &out);
    assert!(cache.is_file(), "the regen wrote its render cache");
    let loaded = |minor: &str| out.join(CACHE_DIR).join(format!("load-{minor}"));
    assert!(loaded("v1.11").is_file() && !loaded("v1.12").exists());
    std::fs::rename(&newest, api_dir.join("v1.12")).unwrap();
    run(&api_dir, &out);
    assert_fresh(&api_dir, &out);
    assert!(loaded("v1.12").is_file());

    // Nothing new rendered: the cache is not rewritten.
    let before = std::fs::metadata(&cache).unwrap().modified().unwrap();
    let gates = out.join("gates.json");
    std::fs::write(&gates, b"{}").unwrap();
    run(&api_dir, &out);
    assert_eq!(
        std::fs::metadata(&cache).unwrap().modified().unwrap(),
        before
    );
    assert_fresh(&api_dir, &out);

    // Damaged caches are ignored, and replaced.
    for damaged in [cache.clone(), loaded("v1.10")] {
        let mut bytes = std::fs::read(&damaged).unwrap();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&damaged, bytes).unwrap();
    }
    std::fs::write(&gates, b"{}").unwrap();
    run(&api_dir, &out);
    assert_fresh(&api_dir, &out);

    // A minor removed: its entry goes.
    std::fs::remove_dir_all(api_dir.join("v1.9")).unwrap();
    run(&api_dir, &out);
    assert!(!loaded("v1.9").exists());
    assert_fresh(&api_dir, &out);
}
