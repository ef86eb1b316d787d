//! Collision-aware import aliases: one name per imported module path, the
//! same rules wherever vergate writes an import header (Pkl modules, the
//! examples, the Rust prelude).
//!
//! The rules, in order:
//!
//! 1. a path whose basename no other path has is aliased by its basename
//!    (`@k8s/v1.34/apps/Deployment.pkl` → `Deployment`);
//! 2. paths sharing a basename take their parent directory into account:
//!    - a version directory (see [`is_version_dir`]) is appended:
//!      `@k8s/v1.34/k8s.pkl` → `k8s_v1_34`;
//!    - any other directory is prepended: `@aws/ecs/service.pkl` →
//!      `ecs_service`;
//!    - a directory whose sanitized name is the alias' first word collapses
//!      (adds nothing): the package root `@k8s/k8s.pkl` stays `k8s`;
//! 3. while two paths still get the same alias, the least specific of them
//!    go one directory further up; only when no directory is left does a
//!    numeric suffix (`_2`, `_3`, … in path order) settle it.
//!
//! Sanitizing drops a leading `@` and replaces every character outside
//! `[A-Za-z0-9_]` with `_`. The aliases returned here are bare identifiers;
//! [`pkl_identifier`] backtick-quotes the ones that are Pkl keywords or start
//! with a digit.

use crate::is_version_dir;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The alias of every path, in the order given. Equal paths get equal
/// aliases; different paths never do.
pub fn import_aliases<S: AsRef<str>>(paths: &[S]) -> Vec<String> {
    let unique: Vec<&str> = paths
        .iter()
        .map(AsRef::as_ref)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let parsed: Vec<ImportPath> = unique.iter().map(|path| ImportPath::parse(path)).collect();
    let mut basename_count: BTreeMap<&str, usize> = BTreeMap::new();
    for path in &parsed {
        *basename_count.entry(path.base.as_str()).or_default() += 1;
    }
    let mut depth: Vec<usize> = parsed
        .iter()
        .map(|path| usize::from(basename_count[path.base.as_str()] > 1))
        .collect();
    let aliases = loop {
        let aliases: Vec<String> = parsed
            .iter()
            .zip(&depth)
            .map(|(path, depth)| path.alias_at(*depth))
            .collect();
        let mut deepened = false;
        for group in duplicate_groups(&aliases) {
            // The least specific holders climb first: a plain basename that
            // meets a derived alias takes its own parent rather than pushing
            // the derived one further.
            let climbable: Vec<usize> = group
                .into_iter()
                .filter(|i| depth[*i] < parsed[*i].parents.len())
                .collect();
            let Some(lowest) = climbable.iter().map(|i| depth[*i]).min() else {
                continue;
            };
            for index in climbable {
                if depth[index] == lowest {
                    depth[index] += 1;
                    deepened = true;
                }
            }
        }
        if !deepened {
            break number_duplicates(aliases);
        }
    };
    let by_path: BTreeMap<&str, &String> = unique.iter().copied().zip(&aliases).collect();
    paths
        .iter()
        .map(|path| by_path[path.as_ref()].clone())
        .collect()
}

/// Replaces every character outside `[A-Za-z0-9_]` with `_`, after dropping
/// a leading `@` (`@k8s` → `k8s`, `v1.34` → `v1_34`).
pub fn sanitize(segment: &str) -> String {
    let segment = segment.strip_prefix('@').unwrap_or(segment);
    segment
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Pkl's keywords, including the ones reserved for future use. None of
/// them may be an identifier unless it is quoted with backticks.
pub const PKL_KEYWORDS: &[&str] = &[
    "abstract",
    "amends",
    "as",
    "case",
    "class",
    "const",
    "delete",
    "else",
    "extends",
    "external",
    "false",
    "fixed",
    "for",
    "function",
    "hidden",
    "if",
    "import",
    "in",
    "is",
    "let",
    "local",
    "module",
    "new",
    "nothing",
    "null",
    "open",
    "out",
    "outer",
    "override",
    "protected",
    "read",
    "record",
    "super",
    "switch",
    "this",
    "throw",
    "trace",
    "true",
    "typealias",
    "unknown",
    "vararg",
    "when",
];

/// True when `name` may be written as a Pkl identifier without backticks:
/// `[A-Za-z_$][A-Za-z0-9_$]*`, not a keyword and not `_` (which Pkl
/// reserves for unused parameters).
pub fn is_plain_pkl_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !PKL_KEYWORDS.contains(&name)
        && name != "_"
}

/// `name` as a Pkl identifier: unchanged when it is a plain identifier,
/// quoted with backticks otherwise (`` `import` ``, `` `x-foo` ``).
///
/// Pkl cannot quote a name that holds a backtick or a line break; callers
/// check [`can_quote_pkl_identifier`] first and report such names.
pub fn pkl_identifier(name: &str) -> Cow<'_, str> {
    if is_plain_pkl_identifier(name) {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("`{name}`"))
    }
}

/// True when `name` can be written as a Pkl identifier at all (quoted if
/// need be): it is not empty and holds no backtick and no line break.
pub fn can_quote_pkl_identifier(name: &str) -> bool {
    !name.is_empty() && !name.contains(['`', '\n', '\r'])
}

/// One import path split into its basename and its parents, nearest first.
struct ImportPath {
    base: String,
    /// Parent directories, nearest first, unsanitized.
    parents: Vec<String>,
}

impl ImportPath {
    fn parse(path: &str) -> ImportPath {
        // `pkl:json` and `package://host/x@1.0#/a/b.pkl` both end in a
        // slash- or colon-separated file name.
        let path = path.rsplit_once('#').map_or(path, |(_, fragment)| fragment);
        let mut segments: Vec<&str> = path
            .split(['/', ':'])
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let file = segments.pop().unwrap_or_default();
        let stem = file.strip_suffix(".pkl").unwrap_or(file);
        ImportPath {
            base: sanitize(stem),
            parents: segments.iter().rev().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// The alias that takes `depth` parent directories into account.
    fn alias_at(&self, depth: usize) -> String {
        let mut alias = if self.base.is_empty() {
            "_".to_owned()
        } else {
            self.base.clone()
        };
        for parent in self.parents.iter().take(depth) {
            let word = sanitize(parent);
            if is_version_dir(parent) {
                alias = format!("{alias}_{word}");
            } else if !word.is_empty() && alias != word && !alias.starts_with(&format!("{word}_")) {
                alias = format!("{word}_{alias}");
            }
        }
        alias
    }
}

/// Indices of aliases that occur more than once, grouped by alias.
fn duplicate_groups(aliases: &[String]) -> Vec<Vec<usize>> {
    let mut by_alias: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, alias) in aliases.iter().enumerate() {
        by_alias.entry(alias).or_default().push(index);
    }
    by_alias.into_values().filter(|g| g.len() > 1).collect()
}

/// The last resort: `_2`, `_3`, … on the second and later holders of an
/// alias (in path order), skipping suffixes some other path already has.
fn number_duplicates(mut aliases: Vec<String>) -> Vec<String> {
    let mut taken: BTreeSet<String> = aliases.iter().cloned().collect();
    for group in duplicate_groups(&aliases) {
        for index in group.into_iter().skip(1) {
            let base = aliases[index].clone();
            let mut n = 2;
            while taken.contains(&format!("{base}_{n}")) {
                n += 1;
            }
            aliases[index] = format!("{base}_{n}");
            taken.insert(aliases[index].clone());
        }
    }
    aliases
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each case: the import paths, then the aliases expected in that order.
    const CASES: &[(&str, &[&str], &[&str])] = &[
        (
            "no collision: the basename",
            &["@aws/vpc.pkl", "@aws/sqs/queue.pkl"],
            &["vpc", "queue"],
        ),
        (
            "cross-package collision: parent_base",
            &["@aws/ecs/service.pkl", "@gcp/cloudrun/service.pkl"],
            &["ecs_service", "cloudrun_service"],
        ),
        (
            "versioned collision: base_version",
            &["@k8s/v1.34/k8s.pkl", "@k8s/v1.35/k8s.pkl"],
            &["k8s_v1_34", "k8s_v1_35"],
        ),
        (
            "package root beside a version: root collapses",
            &["@k8s/k8s.pkl", "@k8s/v1.34/k8s.pkl"],
            &["k8s", "k8s_v1_34"],
        ),
        (
            "a version directory without a minor",
            &[
                "@k8s/v1.34/autoscaling/v1/HPA.pkl",
                "@k8s/v1.34/autoscaling/HPA.pkl",
            ],
            &["HPA_v1", "autoscaling_HPA"],
        ),
        (
            "groups sharing a basename",
            &["@k8s/v1.34/core/v1.pkl", "@k8s/v1.34/meta/v1.pkl"],
            &["core_v1", "meta_v1"],
        ),
        (
            "a directory that only looks like a version",
            &["@gcp/vpcaccess/service.pkl", "@gcp/run/service.pkl"],
            &["vpcaccess_service", "run_service"],
        ),
        (
            "two levels: same parent, different package",
            &["@a/ecs/service.pkl", "@b/ecs/service.pkl"],
            &["a_ecs_service", "b_ecs_service"],
        ),
        (
            "three deep: same version and group, different package",
            &[
                "@a/x/v1.2/svc.pkl",
                "@b/x/v1.2/svc.pkl",
                "@c/y/v1.2/svc.pkl",
            ],
            &["a_x_svc_v1_2", "b_x_svc_v1_2", "y_svc_v1_2"],
        ),
        (
            "three deep, versions at two levels",
            &[
                "@k8s/v1.34/autoscaling/v1/HPA.pkl",
                "@k8s/v1.35/autoscaling/v1/HPA.pkl",
                "@k8s/v1.35/autoscaling/HPA.pkl",
            ],
            &[
                "autoscaling_HPA_v1_v1_34",
                "autoscaling_HPA_v1_v1_35",
                "autoscaling_HPA",
            ],
        ),
        (
            "a derived alias meeting a plain basename goes further up",
            &[
                "@p/ecs/service.pkl",
                "@q/run/service.pkl",
                "@p/ecs_service.pkl",
            ],
            &["ecs_service", "run_service", "p_ecs_service"],
        ),
        (
            "sanitizing: @, dots and dashes",
            &["@my-pkg/v2.0-beta/my-file.pkl", "@other/my-file.pkl"],
            &["my_file_v2_0_beta", "other_my_file"],
        ),
        (
            "equal paths share one alias",
            &["@k8s/v1.34/core/Service.pkl", "@k8s/v1.34/core/Service.pkl"],
            &["Service", "Service"],
        ),
        (
            "relative paths and the standard library",
            &["../meta/v1.pkl", "v1.pkl", "pkl:json"],
            &["meta_v1", "v1", "json"],
        ),
        (
            "no parents, same sanitized basename: numbered",
            &["a-b.pkl", "a.b.pkl"],
            &["a_b", "a_b_2"],
        ),
    ];

    #[test]
    fn alias_table() {
        for (what, paths, expected) in CASES {
            let aliases = import_aliases(paths);
            assert_eq!(&aliases, expected, "{what}: {paths:?}");
        }
    }

    #[test]
    fn different_paths_never_share_an_alias() {
        for (what, paths, _) in CASES {
            let aliases = import_aliases(paths);
            let mut seen = BTreeMap::new();
            for (path, alias) in paths.iter().zip(&aliases) {
                if let Some(other) = seen.insert(alias.clone(), *path) {
                    // Only spellings of one file may share an alias.
                    assert_eq!(
                        ImportPath::parse(other).base,
                        ImportPath::parse(path).base,
                        "{what}"
                    );
                }
                assert!(
                    alias.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{what}: {alias}"
                );
            }
        }
    }

    #[test]
    fn keywords_and_odd_names_are_quoted() {
        assert_eq!(pkl_identifier("spec"), "spec");
        assert_eq!(pkl_identifier("$ref"), "$ref");
        assert_eq!(pkl_identifier("import"), "`import`");
        assert_eq!(pkl_identifier("x-foo"), "`x-foo`");
        assert_eq!(pkl_identifier("1password"), "`1password`");
        let aliases = import_aliases(&["@x/module.pkl", "@x/v1/class.pkl"]);
        let quoted: Vec<_> = aliases.iter().map(|a| pkl_identifier(a)).collect();
        assert_eq!(quoted, ["`module`", "`class`"]);
        assert!(!can_quote_pkl_identifier("a`b"));
        assert!(!can_quote_pkl_identifier("a\nb"));
        assert!(can_quote_pkl_identifier("a b"));
    }

    #[test]
    fn sanitizer() {
        assert_eq!(sanitize("@k8s"), "k8s");
        assert_eq!(sanitize("v1.34"), "v1_34");
        assert_eq!(sanitize("a@b"), "a_b");
        assert_eq!(sanitize("ünï"), "_n_");
    }
}
