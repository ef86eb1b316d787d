//! The smallest single edit that turns one text into another: the bytes
//! between their common beginning and common end, on character
//! boundaries. A fix computed as a whole new text (an upgrade's rewrite)
//! is sent to the editor as this, so it changes only what it must.

/// `(start..end in old, replacement)`; `None` when the texts are equal.
pub fn diff(old: &str, new: &str) -> Option<(std::ops::Range<usize>, String)> {
    if old == new {
        return None;
    }
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    Some((
        prefix..old.len() - suffix,
        new[prefix..new.len() - suffix].to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn only_the_changed_middle() {
        let old = "apiVersion: extensions/v1beta1\nkind: Ingress\n";
        let new = "apiVersion: networking.k8s.io/v1\nkind: Ingress\n";
        let (range, text) = diff(old, new).unwrap();
        let mut applied = old.to_owned();
        applied.replace_range(range.clone(), &text);
        assert_eq!(applied, new);
        assert!(range.len() < "extensions/v1beta1".len());
        assert_eq!(diff("a", "a"), None);
        // Character boundaries: é and è share their first byte.
        let (range, text) = diff("xé", "xè").unwrap();
        assert_eq!((range, text.as_str()), (1..3, "è"));
    }
}
