//! `vergate check --format junit`: JUnit XML as CI systems read it (GitLab,
//! Jenkins, Azure Pipelines, GitHub test reporters): `<testsuites>` holding
//! a `<testsuite>` per input file and a `<testcase>` per resource. A
//! resource with error-level findings has one `<failure>` (its findings as
//! the message, one per line with file and line in the body); warnings go
//! to `<system-out>`; a document that could not be read is a testcase with
//! an `<error>`, a skipped one a testcase with `<skipped>`.

use super::cases::{self, Case};
use super::results::Results;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io;

/// Asks [`cases::Case::of`] for the errors.
const ERRORS: bool = true;

/// The JUnit XML report of a run.
pub fn report(results: &Results, api: &str) -> String {
    let suites = cases::by_file(results);
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    write(&mut writer, &suites, api).expect("writing to memory does not fail");
    let mut text = String::from_utf8(writer.into_inner()).expect("the writer writes UTF-8");
    text.push('\n');
    text
}

fn write(writer: &mut Writer<Vec<u8>>, suites: &[(&str, Vec<Case>)], api: &str) -> io::Result<()> {
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let counts = Counts::of(suites.iter().flat_map(|(_, cases)| cases));
    let name = clean(&format!("vergate check ({api})"));
    writer
        .create_element("testsuites")
        .with_attribute(("name", name.as_str()))
        .with_attributes(counts.attributes().iter().map(|(k, v)| (*k, v.as_str())))
        .write_inner_content(|writer| {
            for (file, cases) in suites {
                let counts = Counts::of(cases.iter()).attributes();
                let name = clean(file);
                writer
                    .create_element("testsuite")
                    .with_attribute(("name", name.as_str()))
                    .with_attributes(counts.iter().map(|(k, v)| (*k, v.as_str())))
                    .write_inner_content(|writer| {
                        for case in cases {
                            write_case(writer, file, case)?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    Ok(())
}

fn write_case(writer: &mut Writer<Vec<u8>>, file: &str, case: &Case) -> io::Result<()> {
    let name = clean(&case.name);
    let classname = clean(file);
    let element = writer
        .create_element("testcase")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("classname", classname.as_str()));
    if case.findings.is_empty() && case.error.is_none() && case.skipped.is_none() {
        element.write_empty()?;
        return Ok(());
    }
    element.write_inner_content(|writer| {
        if case.fails() {
            let message: Vec<String> = case
                .of(ERRORS)
                .map(|found| cases::finding_text(found))
                .collect();
            let body: Vec<String> = case
                .of(ERRORS)
                .map(|found| cases::finding_line(found))
                .collect();
            writer
                .create_element("failure")
                .with_attribute(("message", clean(&message.join("; ")).as_str()))
                .with_attribute(("type", "vergate"))
                .write_text_content(BytesText::new(&clean(&body.join("\n"))))?;
        }
        if let Some(error) = case.error {
            writer
                .create_element("error")
                .with_attribute(("message", clean(error).as_str()))
                .with_attribute(("type", "input"))
                .write_empty()?;
        }
        if let Some(reason) = case.skipped {
            writer
                .create_element("skipped")
                .with_attribute(("message", clean(reason).as_str()))
                .write_empty()?;
        }
        let warnings: Vec<String> = case
            .of(!ERRORS)
            .map(|found| format!("warning: {}", cases::finding_line(found)))
            .collect();
        if !warnings.is_empty() {
            writer
                .create_element("system-out")
                .write_text_content(BytesText::new(&clean(&warnings.join("\n"))))?;
        }
        Ok(())
    })?;
    Ok(())
}

/// The counts a `<testsuite>` (or `<testsuites>`) carries.
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Counts {
    fn of<'a, 'b: 'a>(cases: impl Iterator<Item = &'a Case<'b>>) -> Counts {
        let mut counts = Counts {
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        };
        for case in cases {
            counts.tests += 1;
            counts.failures += usize::from(case.fails());
            counts.errors += usize::from(case.error.is_some());
            counts.skipped += usize::from(case.skipped.is_some());
        }
        counts
    }

    fn attributes(&self) -> Vec<(&'static str, String)> {
        vec![
            ("tests", self.tests.to_string()),
            ("failures", self.failures.to_string()),
            ("errors", self.errors.to_string()),
            ("skipped", self.skipped.to_string()),
        ]
    }
}

/// Text XML 1.0 can hold: characters it forbids even escaped (control
/// characters but tab and newlines, U+FFFE, U+FFFF) become U+FFFD.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn characters_xml_forbids_are_replaced() {
        assert_eq!(clean("a\u{1}b\tc\u{FFFF}"), "a\u{FFFD}b\tc\u{FFFD}");
    }
}
