//! The derive's compile-time contract, judged by rustc: `pass/` compiles
//! realistic modules with `#![deny(warnings)]` (and runs them); each file in
//! `fail/` holds one user mistake and the error it must give, at its token.
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test -p vergate-ui-tests`
//! and review the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.compile_fail("fail/*.rs");
}
