//! The `uri` format: Go's `url.ParseRequestURI`, which the API server calls
//! (through govalidator's `IsRequestURI`). It is far looser than RFC 3986:
//! an absolute URI (`scheme:` then anything, `//host` checked when present)
//! or an absolute path (`/a/b`); the fragment is not split off, so `#` is
//! part of the path. The `url` crate (WHATWG rules) differs in both
//! directions, so the Go steps are written out here.

/// True when `url.ParseRequestURI(text)` returns no error.
pub(super) fn is_request_uri(text: &str) -> bool {
    // Control bytes anywhere are refused.
    if text.is_empty() || text.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return false;
    }
    if text == "*" {
        return true;
    }
    let Some((scheme, rest)) = scheme(text) else {
        return false;
    };
    // The query is split off at the first `?`.
    let rest = rest.split_once('?').map_or(rest, |(before, _)| before);
    if !rest.starts_with('/') {
        // `mailto:x` is opaque; a relative path is no request URI.
        return !scheme.is_empty();
    }
    let path = match rest.strip_prefix("//").filter(|_| !scheme.is_empty()) {
        Some(after) => {
            let (authority, path) = after.find('/').map_or((after, ""), |i| after.split_at(i));
            if !valid_authority(authority) {
                return false;
            }
            path
        }
        None => rest,
    };
    unescapes(path, Mode::Path)
}

/// Go's `getScheme`: the scheme and what follows its `:`; no scheme when
/// the text does not start with one. `None` when it starts with `:`.
fn scheme(text: &str) -> Option<(&str, &str)> {
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None,
            b':' => return Some((&text[..i], &text[i + 1..])),
            _ => return Some(("", text)),
        }
    }
    Some(("", text))
}

/// Go's `parseAuthority`: `userinfo@host`, the host checked by
/// [`valid_host`], the userinfo by its characters and escapes.
fn valid_authority(authority: &str) -> bool {
    let (user, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    if !valid_host(host) {
        return false;
    }
    let Some(user) = user else {
        return true;
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c);
    user.chars().all(allowed) && unescapes(user, Mode::User)
}

/// Go's `parseHost`: a bracketed IPv6 literal or a name, then an optional
/// `:port` of digits; escapes and characters as for a host.
fn valid_host(host: &str) -> bool {
    let name = if host.starts_with('[') {
        let Some(close) = host.rfind(']') else {
            return false;
        };
        if !valid_port(&host[close + 1..]) {
            return false;
        }
        match host[..close].find("%25") {
            // A zone: the address before it, the zone after, each unescaped.
            Some(zone) => {
                return unescapes(&host[..zone], Mode::Host)
                    && unescapes(&host[zone..close], Mode::Zone)
                    && unescapes(&host[close..], Mode::Host);
            }
            None => host,
        }
    } else {
        if let Some(colon) = host.rfind(':') {
            if !valid_port(&host[colon..]) {
                return false;
            }
        }
        host
    };
    unescapes(name, Mode::Host)
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// What a part of the URL is unescaped as (Go's `encoding` modes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    User,
    Host,
    Zone,
}

/// Go's `unescape` without its result: every `%` followed by two hex
/// digits; in a host, `%` only for bytes from 0x80 (or `%25`), and no
/// ASCII character a host may not hold.
fn unescapes(text: &str, mode: Mode) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                let high = hex(b[i + 1]);
                if mode == Mode::Host && high < 8 && &text[i..i + 3] != "%25" {
                    return false;
                }
                if mode == Mode::Zone {
                    let byte = high << 4 | hex(b[i + 2]);
                    if &text[i..i + 3] != "%25" && byte != b' ' && host_escapes(byte) {
                        return false;
                    }
                }
                i += 3;
            }
            byte => {
                if matches!(mode, Mode::Host | Mode::Zone) && byte < 0x80 && host_escapes(byte) {
                    return false;
                }
                i += 1;
            }
        }
    }
    true
}

fn hex(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

/// Go's `shouldEscape(c, encodeHost)`: true for an ASCII byte a host
/// cannot hold as it is.
fn host_escapes(c: u8) -> bool {
    !(c.is_ascii_alphanumeric() || b"-_.~!$&'()*+,;=:[]<>\"".contains(&c))
}
