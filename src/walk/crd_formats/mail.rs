//! The `email` format: Go's `net/mail.ParseAddress` succeeds with a
//! non-empty address. That is RFC 5322's `address` with Go's leniencies:
//! a bare `addr-spec` (`a@b`), a display name and an angle address
//! (`Name <a@b>`), a comment after a bare address (`a@b (Name)`), a group
//! of exactly one address (`team: a@b;`), a quoted local part, a domain
//! literal holding an IP address (`a@[10.0.0.1]`), and any non-ASCII
//! character in atoms. Written out step for step; what differs from Go is
//! said where it is (RFC 2047 encoded words).

/// True when `net/mail.ParseAddress(text)` returns an address.
pub(super) fn is_email(text: &str) -> bool {
    let mut parser = Parser { s: text };
    let Some(count) = parser.address(true) else {
        return false;
    };
    parser.skip_cfws() && parser.s.is_empty() && count == 1
}

/// What is left to read.
struct Parser<'a> {
    s: &'a str,
}

/// Go's `isVchar`: a visible ASCII character or any non-ASCII one.
fn is_vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || !c.is_ascii()
}

/// Go's `isAtext`: a visible character but the specials (`.` as `dot` says).
fn is_atext(c: char, dot: bool) -> bool {
    match c {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(c),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }

    fn consume(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    /// Go's `skipCFWS`: spaces and comments; false for an unclosed comment.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if !self.comment() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// Go's `consumeComment` after its `(`: nested parentheses, `\`
    /// escaping the next byte; true when closed.
    fn comment(&mut self) -> bool {
        let bytes = self.s.as_bytes();
        let (mut depth, mut i) = (1u32, 0);
        while i < bytes.len() && depth > 0 {
            match bytes[i] {
                b'\\' if i + 1 < bytes.len() => i += 1,
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        // `\` may skip into a multi-byte character; find the next boundary.
        while !self.s.is_char_boundary(i) {
            i += 1;
        }
        self.s = &self.s[i..];
        depth == 0
    }

    /// Go's `parseAddress`: how many addresses (a group may hold several).
    fn address(&mut self, handle_group: bool) -> Option<usize> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        if self.addr_spec() {
            self.skip_space();
            if self.peek() == Some('(') {
                self.consume('(');
                if !self.comment() {
                    return None;
                }
            }
            return Some(1);
        }
        if self.peek() != Some('<') {
            self.phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.group_list();
        }
        if !self.consume('<') || !self.addr_spec() || !self.consume('>') {
            return None;
        }
        Some(1)
    }

    /// Go's `consumeGroupList` after its `:`.
    fn group_list(&mut self) -> Option<usize> {
        self.skip_space();
        if self.consume(';') {
            return self.skip_cfws().then_some(0);
        }
        let mut count = 0;
        loop {
            self.skip_space();
            count += self.address(false)?;
            if !self.skip_cfws() {
                return None;
            }
            if self.consume(';') {
                return self.skip_cfws().then_some(count);
            }
            if !self.consume(',') {
                return None;
            }
        }
    }

    /// Go's `consumeAddrSpec`: a local part (dot-atom or quoted string),
    /// `@`, a domain (dot-atom or domain literal). Nothing is consumed when
    /// it fails.
    fn addr_spec(&mut self) -> bool {
        let start = self.s;
        let read = self.addr_spec_parts();
        if !read {
            self.s = start;
        }
        read
    }

    fn addr_spec_parts(&mut self) -> bool {
        self.skip_space();
        let local = match self.peek() {
            None => return false,
            Some('"') => self.quoted_string().is_some_and(|empty| !empty),
            Some(_) => self.atom(true, false),
        };
        if !local || !self.consume('@') {
            return false;
        }
        self.skip_space();
        match self.peek() {
            None => false,
            Some('[') => self.domain_literal(),
            Some(_) => self.atom(true, false),
        }
    }

    /// Go's `consumeAtom`: atext characters; unless `permissive`, a dot
    /// neither first, last nor doubled.
    fn atom(&mut self, dot: bool, permissive: bool) -> bool {
        let end = self
            .s
            .char_indices()
            .find(|(_, c)| !is_atext(*c, dot))
            .map_or(self.s.len(), |(i, _)| i);
        if end == 0 {
            return false;
        }
        let atom = &self.s[..end];
        if !permissive && (atom.starts_with('.') || atom.contains("..") || atom.ends_with('.')) {
            return false;
        }
        self.s = &self.s[end..];
        true
    }

    /// Go's `consumeQuotedString`: `Some(true)` when it was empty.
    fn quoted_string(&mut self) -> Option<bool> {
        let mut chars = self.s.char_indices().skip(1);
        let (mut escaped, mut empty) = (false, true);
        loop {
            let (i, c) = chars.next()?;
            if escaped {
                if !is_vchar(c) && c != ' ' && c != '\t' {
                    return None;
                }
                escaped = false;
                empty = false;
            } else if c == '"' {
                self.s = &self.s[i + 1..];
                return Some(empty);
            } else if c == '\\' {
                escaped = true;
            } else if is_vchar(c) || c == ' ' || c == '\t' {
                empty = false;
            } else {
                return None;
            }
        }
    }

    /// Go's `consumeDomainLiteral`: `[`, dtext, `]`, the text an IP
    /// address as `net.ParseIP` reads it.
    fn domain_literal(&mut self) -> bool {
        let Some(inner) = self.s.strip_prefix('[') else {
            return false;
        };
        let Some(close) = inner.find(']') else {
            return false;
        };
        let text = &inner[..close];
        if text.chars().any(|c| c == '[' || c == '\\' || !is_vchar(c)) {
            return false;
        }
        let ip = super::net::is_ipv6(text) || super::net::is_strict_ipv4(text);
        self.s = &inner[close + 1..];
        ip
    }

    /// Go's `consumePhrase`: words (dot-atoms read permissively, or quoted
    /// strings), comments between them; at least one word. Go decodes an
    /// RFC 2047 word (`=?utf-8?q?…?=`) and refuses one of an unknown
    /// charset; here every such word is a plain atom.
    fn phrase(&mut self) -> Option<()> {
        let mut words = 0;
        loop {
            if words > 0 && !self.skip_cfws() {
                return None;
            }
            self.skip_space();
            let read = match self.peek() {
                None => break,
                Some('"') => self.quoted_string().is_some(),
                Some(_) => self.atom(true, true),
            };
            if !read {
                break;
            }
            words += 1;
        }
        (words > 0).then_some(())
    }
}
