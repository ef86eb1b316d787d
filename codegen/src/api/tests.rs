use super::*;
use std::path::Path;

fn write_api(dir: &Path, toml: &str) {
    std::fs::write(dir.join(API_TOML), toml).unwrap();
}

const MINIMAL: &str = "name = \"t\"\npkl_package = \"t\"\nversion_field = \"tVersion\"\nspec_files = [\"spec.json\"]\n";

#[test]
fn minors_are_sorted_numerically_and_duplicates_refused() {
    let tmp = tempfile::tempdir().unwrap();
    write_api(tmp.path(), MINIMAL);
    for dir in ["v1.10", "v1.9", "vpcaccess", "annotations"] {
        std::fs::create_dir(tmp.path().join(dir)).unwrap();
    }
    let api = Api::open(tmp.path()).unwrap();
    let minors: Vec<String> = api
        .present_minors()
        .unwrap()
        .iter()
        .map(|m| m.version.to_string())
        .collect();
    assert_eq!(minors, ["1.9", "1.10"]);
    std::fs::create_dir(tmp.path().join("v1.9.0")).unwrap();
    let err = api.present_minors().unwrap_err().to_string();
    assert!(err.contains("are the same minor 1.9"), "{err}");
}

#[test]
fn a_pkl_publish_url_must_be_https() {
    let tmp = tempfile::tempdir().unwrap();
    for (url, ok) in [
        ("https://pkg.example.com/k8s", true),
        ("http://pkg.example.com/k8s", false),
        ("https://", false),
        ("pkg.example.com", false),
    ] {
        write_api(
            tmp.path(),
            &format!("{MINIMAL}pkl_publish_url = \"{url}\"\n"),
        );
        let result = Api::open(tmp.path());
        assert_eq!(result.is_ok(), ok, "{url}");
        if let Err(err) = result {
            assert!(err.to_string().contains("pkl_publish_url"), "{err}");
        }
    }
}

#[test]
fn a_published_crate_needs_license_and_repository() {
    let tmp = tempfile::tempdir().unwrap();
    write_api(tmp.path(), &format!("{MINIMAL}[rust]\npublish = true\n"));
    let err = Api::open(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("needs license and repository"), "{err}");
}

/// `[rust]`'s values are checked where they are written: a version
/// cargo would refuse, a package name crates.io would, a repository
/// that is no URL, an empty license.
#[test]
fn the_rust_table_is_checked() {
    let tmp = tempfile::tempdir().unwrap();
    for (table, wanted) in [
        ("version = \"1.2\"", "[rust] version \"1.2\""),
        ("version = \"1.2.x\"", "[rust] version \"1.2.x\""),
        ("name = \"my crate\"", "[rust] name \"my crate\""),
        ("name = \"9lives\"", "[rust] name \"9lives\""),
        (
            "repository = \"github.com/x\"",
            "[rust] repository \"github.com/x\"",
        ),
        ("license = \" \"", "[rust] license"),
    ] {
        write_api(tmp.path(), &format!("{MINIMAL}[rust]\n{table}\n"));
        let err = Api::open(tmp.path()).unwrap_err().to_string();
        assert!(
            err.contains(wanted) && err.contains("api.toml"),
            "{table}: {err}"
        );
    }
    write_api(
        tmp.path(),
        &format!(
            "{MINIMAL}[rust]\nname = \"t-api_2\"\nversion = \"1.36.0-rc.1+build.5\"\n\
             license = \"Apache-2.0 OR MIT\"\nrepository = \"https://github.com/o/t\"\n"
        ),
    );
    Api::open(tmp.path()).unwrap();
}

#[test]
fn kinds_name_an_api_version() {
    let tmp = tempfile::tempdir().unwrap();
    for (api_version, ok) in [
        ("kubevirt.io/v1", true),
        ("v1", true),
        ("example.com/v2beta1", true),
        ("kubevirt.io", false),
        ("kubevirt.io/latest", false),
        ("/v1", false),
        ("a/b/v1", false),
    ] {
        write_api(
            tmp.path(),
            &format!("{MINIMAL}[kinds]\n\"v1.Widget\" = {api_version:?}\n"),
        );
        let result = Api::open(tmp.path());
        assert_eq!(result.is_ok(), ok, "{api_version}");
        if let Err(err) = result {
            let err = err.to_string();
            assert!(err.contains("api.toml") && err.contains("[kinds]"), "{err}");
        }
    }
}

#[test]
fn a_bad_version_directory_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    write_api(tmp.path(), MINIMAL);
    std::fs::create_dir(tmp.path().join("v1.x")).unwrap();
    let err = Api::open(tmp.path())
        .unwrap()
        .present_minors()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("v1.x") && err.contains("\"x\" is not a number"),
        "{err}"
    );
}

#[test]
fn toml_errors_have_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    write_api(tmp.path(), "name = \"t\"\npkl_package = 3\n");
    let err = Api::open(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("api.toml:2:15"), "{err}");
    write_api(tmp.path(), &format!("{MINIMAL}surprise = 1\n"));
    let err = Api::open(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("unknown field `surprise`"), "{err}");
}

#[test]
fn digests_are_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let digest = sha256_hex(b"{}");
    write_api(
        tmp.path(),
        &format!("{MINIMAL}[minors.\"1.2\".files.\"spec.json\"]\nsha256 = \"{digest}\"\n"),
    );
    let api = Api::open(tmp.path()).unwrap();
    let v = Version::new(1, 2);
    api.verify(v, Path::new("v1.2/spec.json"), b"{}").unwrap();
    let err = api
        .verify(v, Path::new("v1.2/spec.json"), b"{ }")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&digest) && err.contains(&sha256_hex(b"{ }")),
        "{err}"
    );
    let err = api
        .verify(Version::new(1, 3), Path::new("v1.3/spec.json"), b"{}")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("[minors.\"1.3\".files.\"spec.json\"]"),
        "{err}"
    );
}
