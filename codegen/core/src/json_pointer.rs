//! JSON Pointer (RFC 6901) reference tokens: the one escaper every crate
//! uses for the pointers in its messages and `$ref`s.

use std::borrow::Cow;

/// `token` as a JSON Pointer reference token: `~` written `~0`, `/` written
/// `~1`.
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// The text a JSON Pointer reference token stands for (the inverse of
/// [`escape`]).
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(escape("~1"), "~01");
        for token in ["plain", "a/b~c", "~1", "~0/", ""] {
            assert_eq!(unescape(&escape(token)), token);
        }
    }
}
