//! One document checked: kinds rejected and skipped, what only a CRD
//! knows, preflight, then the CRD document's own rules, the junctors and
//! the CEL rules of its CRD, each rule's findings per resource capped.

use super::report::{CelCounts, Disposition, DocumentReport, Finding, InputError, Skipped};
use super::resource::Resource;
use super::Validator;
use crate::document::{Document, Node};
use crate::findings::Findings;
use crate::preflight::{self, Deviation, Options, Rule, Violation};

impl Validator {
    /// Checks one document of the file `file` (its name in errors and in
    /// the CRDs left out): everything `vergate check` decides for it.
    pub fn check_document(&self, file: &str, doc: &Document) -> DocumentReport {
        let mut report = DocumentReport {
            disposition: Disposition::Checked,
            findings: Vec::new(),
            errors: Vec::new(),
            skipped: None,
            cel: CelCounts::default(),
        };
        // A custom resource as the API server decodes it: without the
        // nulls its CRD's schema neither allows nor defaults.
        let decoded = self.custom.without_nulls(&doc.root).map(|root| Document {
            index: doc.index,
            line: doc.line,
            root,
            duplicate_keys: doc.duplicate_keys.clone(),
        });
        self.document(file, decoded.as_ref().unwrap_or(doc), &mut report);
        self.apply_rule_levels(&mut report.findings);
        report
    }

    fn document(&self, file: &str, doc: &Document, report: &mut DocumentReport) {
        let options = &self.options;
        let kind = doc.root.get("kind").and_then(Node::as_str);
        if let Some(kind) = kind.filter(|kind| options.reject_kinds.iter().any(|k| k == kind)) {
            report.disposition = Disposition::Rejected;
            report.findings.push(self.rejected(doc, kind));
            return;
        }
        if let Some(kind) = kind.filter(|kind| options.skip_kinds.iter().any(|k| k == kind)) {
            report.disposition = Disposition::Skipped;
            report.skipped = Some(Skipped {
                file: file.to_owned(),
                line: doc.line,
                reason: format!("kind {kind} skipped (--skip)"),
                noted: false,
            });
            return;
        }
        // What only a CRD knows: the document is a CRD left out, or a
        // custom resource of a CRD the API server refuses, or of a version
        // its CRD does not serve.
        let found = |violation: Violation| Finding {
            document: doc.index,
            api_version: text_of(&doc.root, "apiVersion"),
            kind: text_of(&doc.root, "kind"),
            target: self.target,
            violation,
            omitted: 0,
            item: None,
            span: None,
        };
        // kubectl sends a duplicate key's last value alone, and the server
        // accepts it: a warning that the first was written in vain, an
        // error with `--strict`. The document is checked with the last.
        let duplicate = Deviation::AcceptedWithWarning {
            strict: options.strict,
        };
        report
            .findings
            .extend(doc.duplicate_keys.iter().map(|duplicate_key| {
                found(
                    Violation::new(
                        Rule::DuplicateKey,
                        duplicate_key.path.clone(),
                        duplicate_key.line,
                        duplicate_key.message(),
                    )
                    .deviating(duplicate),
                )
            }));
        if let Some(message) = self.custom.not_used(file, doc.line) {
            report.findings.push(found(Violation::new(
                Rule::CrdNotUsed,
                "",
                doc.line,
                message.to_owned(),
            )));
        }
        // A CRD the Kubernetes API server refuses serves nothing (another
        // API's minors say nothing of how its server validates CRDs, as
        // for the CRD documents' own checks below).
        let kubernetes = self.tables.dialect().minors_are_kubernetes_releases();
        let not_served = kubernetes
            .then(|| self.custom.refused(&doc.root))
            .flatten()
            .or_else(|| self.custom.unserved(&doc.root));
        if let Some((line, message)) = not_served {
            report.findings.push(found(Violation::new(
                Rule::KindNotServed,
                "apiVersion",
                line,
                message,
            )));
            return;
        }
        let preflight_options = Options {
            target: self.target,
            strict: options.strict,
            fields: options.fields,
            feature_gates: Some(&options.feature_gates),
        };
        match preflight::check(&self.tables, &doc.root, preflight_options) {
            Ok(mut checked) => {
                // A custom resource's `status` the API server resets.
                checked.violations.retain(|violation| {
                    !self
                        .custom
                        .status_ignored(&doc.root, &violation.path, violation.rule)
                });
                self.rules(doc, checked, report);
            }
            Err(err) => {
                report.disposition = Disposition::Failed;
                report.errors.push(InputError {
                    file: file.to_owned(),
                    line: err.line,
                    message: err.message,
                });
            }
        }
    }

    /// After preflight: the CRD document's rules, the junctors and the CEL
    /// rules of its CRD, and the findings of all, capped per rule and
    /// resource.
    fn rules(&self, doc: &Document, mut checked: preflight::Report, report: &mut DocumentReport) {
        let root = &doc.root;
        let served = self.custom.schema_for(root);
        let own_rules = served
            .map(|served| &served.tree)
            .filter(|tree| tree.rules_below);
        let from_gates = match own_rules {
            Some(_) => None,
            None => self
                .custom
                .gate_rules_for(&self.tables, root, checked.target),
        };
        let rules = own_rules.or_else(|| from_gates.as_deref().and_then(Option::as_ref));
        // CEL library versions follow Kubernetes minors only.
        let kubernetes = self
            .tables
            .dialect()
            .minors_are_kubernetes_releases()
            .then_some(checked.target);
        // A CRD document's rules as the API server compiles them on
        // create, then the custom resource's rules.
        let mut cel_found = Findings::new();
        if let Some(target) = kubernetes {
            cel_found.extend(crate::cel::crd_document::check(root, target));
        }
        // The resource defaulted by its CRD's schema, as the API server
        // defaults before it validates: the rules lay the defaults they
        // reach, the junctors those of each value they read, from the same
        // tree; ahead, on a copy, only past the defaults' bound, which
        // both then say (a gate's rules, which know no defaults, read the
        // resource as written).
        let defaulted =
            served.and_then(|served| crate::cel::schema::defaults::ahead(&served.tree, root));
        let (value, cut) = match &defaulted {
            Some(defaulted) => (&*defaulted.root, defaulted.cut.as_ref()),
            None => (root, None),
        };
        if let Some(served) = served {
            cel_found.extend(crate::junctors::check(served, value, cut, kubernetes));
        }
        let rules = match (served, cut) {
            (Some(served), Some(cut)) if own_rules.is_some() => {
                let what = "the CRD's x-kubernetes-validations rules";
                cel_found.push(cut.violation(Rule::CelRule, what, &served.crd, root));
                None
            }
            _ => rules,
        };
        if let Some(rules) = rules {
            let value = if own_rules.is_some() { value } else { root };
            let outcome = crate::cel::evaluate(rules, value, kubernetes);
            report.cel.evaluated += outcome.evaluated;
            report.cel.transition_skipped += outcome.transition_skipped;
            cel_found.absorb(outcome.violations);
        }
        // At most so many findings of a rule per resource, each message
        // bounded (`crate::findings`); the rest counted.
        let mut found = Findings::new();
        for violation in std::mem::take(&mut checked.violations) {
            found.push_in(Resource::index_at(root, &violation.path), violation);
        }
        let sort = !cel_found.is_empty();
        found.absorb(cel_found);
        let (kept, omitted) = found.into_parts();
        // Each with the item its path names, and how many it stands for
        // (those left out).
        let sort = sort || !omitted.is_empty();
        let mut violations: Vec<(Violation, Option<usize>, usize)> = kept
            .into_iter()
            .map(|violation| {
                let item = Resource::item_at(root, &violation.path);
                (violation, item, 0)
            })
            .collect();
        violations.extend(omitted.into_iter().map(|left_out| {
            let item = Resource::item_at(root, &left_out.path);
            (left_out.violation(), item, left_out.count)
        }));
        if sort {
            violations.sort_by_key(|(violation, _, _)| violation.line);
        }
        let target = Some(checked.target);
        report.findings.extend(
            violations
                .into_iter()
                .map(|(violation, item, omitted)| Finding {
                    document: doc.index,
                    api_version: checked.api_version.clone(),
                    kind: checked.kind.clone(),
                    target,
                    violation,
                    omitted,
                    item,
                    span: None,
                }),
        );
    }

    /// The finding of a document of a kind rejected.
    fn rejected(&self, doc: &Document, kind: &str) -> Finding {
        let line = doc.root.get("kind").map_or(doc.line, |node| node.line);
        Finding {
            document: doc.index,
            api_version: text_of(&doc.root, "apiVersion"),
            kind: kind.to_owned(),
            target: self.target,
            violation: Violation::new(
                Rule::RejectedKind,
                "kind",
                line,
                format!("{kind} is rejected (--reject)"),
            ),
            omitted: 0,
            item: None,
            span: None,
        }
    }

    /// Sets each finding's severity as the options' rule levels say,
    /// dropping those of rules turned off.
    fn apply_rule_levels(&self, findings: &mut Vec<Finding>) {
        if self.options.rules.is_empty() {
            return;
        }
        findings.retain_mut(
            |finding| match self.options.rule_level(finding.violation.rule) {
                Some(Some(severity)) => {
                    finding.violation.severity = severity;
                    true
                }
                Some(None) => false,
                None => true,
            },
        );
    }
}

/// The text of the string field `name` of a document's root, or `""`.
fn text_of(root: &Node, name: &str) -> String {
    root.get(name)
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_owned()
}
