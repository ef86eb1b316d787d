// Conversions between minors: what converting code needs at run time, the
// same in vergate's runtime (vergate-core's `support::migrate`, which
// includes this file) and in every generated crate (copied as
// `src/versioned.rs` there). Paths are written in full and `Version` is the
// including module's, so the file reads alike in both.

/// A conversion between two minors of a type that would have dropped data,
/// or that the target minor refuses for want of a field it requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    /// The type converted (`PodSpec`).
    pub type_name: &'static str,
    pub from: Version,
    pub to: Version,
    /// Every field or enum value that the target minor cannot hold, by path
    /// (`containers[0].resizePolicy`).
    pub dropped: ::std::vec::Vec<::std::string::String>,
    /// Every field the target minor requires that the value leaves unset
    /// (optional in the source minor), by path (`spec`).
    pub missing: ::std::vec::Vec<::std::string::String>,
}

impl ::std::fmt::Display for ConversionError {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        write!(
            f,
            "cannot convert {} from {} to {}",
            self.type_name, self.from, self.to
        )?;
        if !self.dropped.is_empty() {
            write!(
                f,
                " without dropping: {}; clear them first",
                self.dropped.join(", ")
            )?;
        }
        if !self.missing.is_empty() {
            let and = if self.dropped.is_empty() {
                ":"
            } else {
                "; and"
            };
            write!(
                f,
                "{and} {} requires {}, unset here; set them first",
                self.to,
                self.missing.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for ConversionError {}

/// Generated code only: carries a value of one minor to another,
/// recording in [`Migration`] whatever the target cannot hold.
#[doc(hidden)]
pub trait Migrate<T> {
    fn migrate(self, cx: &mut Migration) -> T;
}

/// Generated code only: the path being converted and what was dropped.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Migration {
    path: ::std::vec::Vec<::std::string::String>,
    dropped: ::std::vec::Vec<::std::string::String>,
    missing: ::std::vec::Vec<::std::string::String>,
}

impl Migration {
    /// Converts the field `wire` of the value being converted.
    pub fn field<T>(&mut self, wire: &str, convert: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(wire.to_owned());
        let out = convert(self);
        self.path.pop();
        out
    }

    /// Records that the field `wire`, which holds data, has no place in the target.
    pub fn drop_field(&mut self, wire: &str) {
        self.dropped.push(self.join(Some(wire)));
    }

    /// Records that the target requires the field `wire`, which the source
    /// leaves unset.
    pub fn require_field(&mut self, wire: &str) {
        self.missing.push(self.join(Some(wire)));
    }

    /// Records that the enum value `wire` has no place in the target.
    pub fn drop_value(&mut self, wire: &str) {
        let at = self.join(None);
        self.dropped.push(if at.is_empty() {
            format!("value {wire:?}")
        } else {
            format!("{at} (value {wire:?})")
        });
    }

    /// The converted value when nothing was dropped or missing; the caller
    /// must discard `value` otherwise (it may hold placeholders there).
    pub fn finish<T>(
        self,
        value: T,
        type_name: &'static str,
        from: Version,
        to: Version,
    ) -> ::core::result::Result<T, ConversionError> {
        if self.dropped.is_empty() && self.missing.is_empty() {
            Ok(value)
        } else {
            Err(ConversionError {
                type_name,
                from,
                to,
                dropped: self.dropped,
                missing: self.missing,
            })
        }
    }

    fn join(&self, last: ::core::option::Option<&str>) -> ::std::string::String {
        let mut out = ::std::string::String::new();
        for segment in self
            .path
            .iter()
            .map(::std::string::String::as_str)
            .chain(last)
        {
            if !out.is_empty() && !segment.starts_with('[') {
                out.push('.');
            }
            out.push_str(segment);
        }
        out
    }
}

impl<A: Migrate<B>, B> Migrate<::core::option::Option<B>> for ::core::option::Option<A> {
    fn migrate(self, cx: &mut Migration) -> ::core::option::Option<B> {
        self.map(|value| value.migrate(cx))
    }
}

impl<A: Migrate<B>, B> Migrate<::std::boxed::Box<B>> for ::std::boxed::Box<A> {
    fn migrate(self, cx: &mut Migration) -> ::std::boxed::Box<B> {
        ::std::boxed::Box::new((*self).migrate(cx))
    }
}

impl<A: Migrate<B>, B> Migrate<::std::vec::Vec<B>> for ::std::vec::Vec<A> {
    fn migrate(self, cx: &mut Migration) -> ::std::vec::Vec<B> {
        self.into_iter()
            .enumerate()
            .map(|(index, item)| cx.field(&format!("[{index}]"), |cx| item.migrate(cx)))
            .collect()
    }
}

impl<K: Ord + ::std::fmt::Display, A: Migrate<B>, B> Migrate<::std::collections::BTreeMap<K, B>>
    for ::std::collections::BTreeMap<K, A>
{
    fn migrate(self, cx: &mut Migration) -> ::std::collections::BTreeMap<K, B> {
        self.into_iter()
            .map(|(key, item)| {
                let value = cx.field(&key.to_string(), |cx| item.migrate(cx));
                (key, value)
            })
            .collect()
    }
}

impl<K: Eq + ::std::hash::Hash + ::std::fmt::Display, A: Migrate<B>, B>
    Migrate<::std::collections::HashMap<K, B>> for ::std::collections::HashMap<K, A>
{
    fn migrate(self, cx: &mut Migration) -> ::std::collections::HashMap<K, B> {
        self.into_iter()
            .map(|(key, item)| {
                let value = cx.field(&key.to_string(), |cx| item.migrate(cx));
                (key, value)
            })
            .collect()
    }
}
