//! Arbitrary strings as versions: parsing never panics, a parsed version
//! round-trips through its display, directory and identifier forms, and the
//! error message quotes the input.

use vergate::Version;

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Version>() {
        Ok(version) => {
            assert_eq!(version.to_string().parse::<Version>(), Ok(version));
            assert_eq!(version.dir_name().parse::<Version>(), Ok(version));
            assert_eq!(Version::from_ident(&version.ident()), Ok(version));
            assert!(vergate::is_version_dir(&version.dir_name()));
        }
        Err(err) => assert!(err.to_string().contains(&format!("{text:?}"))),
    }
}
