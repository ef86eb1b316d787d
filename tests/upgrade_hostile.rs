//! `vergate upgrade` on the hostile inputs fuzzing found (issue #44;
//! `tests/upgrade_hostile/`, copied from the reliability campaign's
//! reproducers): each run under the 2 GiB address-space cap and the time
//! limit the hostile `check` tests use, each held to the outcome the
//! campaign expects. Nothing may be lost: a refused file is not written,
//! in place or elsewhere, and every comment stays with its entry.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::cli::{code, stderr, stdout};
use support::root;

/// Runs `vergate` from the repository root under a 2 GiB address-space cap
/// (`ulimit -v`) and a 30 s limit (`timeout`'s 124, which no test accepts).
fn capped(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec timeout 30 \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

fn case(name: &str) -> String {
    format!("tests/upgrade_hostile/{name}")
}

const K8S: &[&str] = &["--from", "1.28", "--to", "1.36"];
const DEMO: &[&str] = &["--api", "generated/demo", "--to", "1.12"];

fn upgrade(options: &[&str], file: &str, more: &[&str]) -> Output {
    let mut args = vec!["upgrade"];
    args.extend(options);
    args.push(file);
    args.extend(more);
    capped(&args)
}

/// A copy of a case in a fresh directory, for runs that write.
fn copy(name: &str, dir: &Path) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(root().join(case(name)), &path).unwrap();
    path
}

/// A refused file: exit 2, nothing on standard output, the file left as it
/// was in place, and no `-o` file made.
fn assert_refused(options: &[&str], name: &str, says: &[&str]) {
    let out = upgrade(options, &case(name), &[]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{name}: {err}");
    assert_eq!(stdout(&out), "", "{name}");
    for expected in says {
        assert!(err.contains(expected), "{name}: {expected:?} not in\n{err}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let path = copy(name, tmp.path());
    let before = std::fs::read(&path).unwrap();
    let path_text = path.to_str().unwrap();
    let out = upgrade(options, path_text, &["--in-place"]);
    assert_eq!(code(&out), 2, "{name} --in-place: {}", stderr(&out));
    assert_eq!(std::fs::read(&path).unwrap(), before, "{name}: rewritten");
    let written = tmp.path().join("out.yaml");
    let out = upgrade(options, path_text, &["-o", written.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{name} -o: {}", stderr(&out));
    assert!(!written.exists(), "{name}: -o written");
    // Nothing beside it either (no temporary file left).
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "{name}");
}

#[test]
fn duplicate_keys_are_refused_by_upgrade_and_named_by_check() {
    assert_refused(
        K8S,
        "F-dup-key-rewrite-comments.yaml",
        &[
            "F-dup-key-rewrite-comments.yaml:3: error: apiVersion: duplicate key \"apiVersion\", first written on line 2",
            "refusing to upgrade a document with a duplicate key (above); nothing written",
        ],
    );
    assert_refused(
        K8S,
        "F-dup-key-upgrade-k8s.yaml",
        &["F-dup-key-upgrade-k8s.yaml:2: error: apiVersion: duplicate key \"apiVersion\", first written on line 1"],
    );
    assert_refused(
        DEMO,
        "F-dup-key-upgrade.yaml",
        &["F-dup-key-upgrade.yaml:8: error: spec.replicas: duplicate key \"replicas\", first written on line 7"],
    );
    // `--all` refuses it too.
    let out = capped(&[
        "upgrade",
        "--api",
        "generated/demo",
        "--all",
        &case("F-dup-key-upgrade.yaml"),
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    // `check` names the same key, as a warning: kubectl sends the last
    // value and the server accepts it; with `--strict` it fails.
    let check = capped(&[
        "check",
        "--api",
        "generated/demo",
        "--strict",
        &case("F-dup-key-upgrade.yaml"),
    ]);
    assert_eq!(code(&check), 1, "{}", stdout(&check));
    assert!(
        stdout(&check)
            .contains("spec.replicas: duplicate key \"replicas\", first written on line 7"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn a_merge_key_onto_a_changed_node_is_refused() {
    assert_refused(
        K8S,
        "F-merge-rewrite-comments.yaml",
        &[
            "F-merge-rewrite-comments.yaml:2: error: cannot edit the document in place: the merge key `<<` on line 2 stands for a node this upgrade changes",
            "expand them by hand, then run upgrade again; nothing written",
        ],
    );
}

#[test]
fn list_items_are_upgraded_like_documents() {
    let name = "F-list-items-not-upgraded.yaml";
    let out = upgrade(K8S, &case(name), &[]);
    let err = stderr(&out);
    // A field dropped (the claims of a PVC's resources): exit 1, as for a
    // document.
    assert_eq!(code(&out), 1, "{err}");
    assert!(
        err.contains(&format!(
            "{name}:4: items[0].apiVersion: flowcontrol.apiserver.k8s.io/v1beta3 → flowcontrol.apiserver.k8s.io/v1"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{name}:19: warning: items[1].spec.resources.claims: dropped"
        )),
        "{err}"
    );
    let text = std::fs::read_to_string(root().join(case(name))).unwrap();
    let expected = text
        .replace(
            "flowcontrol.apiserver.k8s.io/v1beta3",
            "flowcontrol.apiserver.k8s.io/v1",
        )
        .replace("      claims: [{name: x}]\n", "");
    assert_eq!(stdout(&out), expected);
    // The output checks clean at the target.
    let tmp = tempfile::tempdir().unwrap();
    let written = tmp.path().join("list.yaml");
    std::fs::write(&written, stdout(&out)).unwrap();
    // The case's PVC names no accessModes, which the server's Go validation
    // requires (`server-validation`): not a matter of versions, so off here.
    let check = capped(&[
        "check",
        "--strict",
        "--rule",
        "server-validation=off",
        "--target",
        "1.36",
        written.to_str().unwrap(),
    ]);
    assert_eq!(code(&check), 0, "{}", stderr(&check));
}

#[test]
fn a_list_item_the_target_rejects_refuses_the_list() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("list.yaml");
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: extensions/v1beta1\n  kind: Ingress\n  metadata: {name: b}\n  spec:\n    backend: {serviceName: s, servicePort: 80}\n";
    std::fs::write(&path, text).unwrap();
    let out = upgrade(K8S, path.to_str().unwrap(), &["--in-place"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(
        err.contains(":7: error: items[1]: extensions/v1beta1 Ingress is not served in 1.36"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn each_comment_stays_with_its_entry_when_one_is_dropped() {
    let out = upgrade(K8S, &case("F-comment-lost-flow-drop.yaml"), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  resources: {\n    requests: {storage: 10Gi} # kept-entry comment (lost)\n  }\n"
    );
    let out = upgrade(K8S, &case("F-comment-lost-compact-seq-drop.yaml"), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n  resourceClaims:\n  - # this comment is about name (lost)\n    name: b\n"
    );
}

/// `-o` onto the input by any name (the same path, a symbolic link, a
/// hard link) is refused, naming both paths, and nothing is written.
#[cfg(unix)]
#[test]
fn writing_onto_an_alias_of_the_input_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let input = copy("F-list-items-not-upgraded.yaml", tmp.path());
    let before = std::fs::read(&input).unwrap();
    let hard = tmp.path().join("hard.yaml");
    let soft = tmp.path().join("soft.yaml");
    std::fs::hard_link(&input, &hard).unwrap();
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    let input_text = input.to_str().unwrap();
    for (target, how) in [
        (&input, ""),
        (&hard, " (a hard link to it)"),
        (&soft, " (a symbolic link to it)"),
    ] {
        let out = upgrade(K8S, input_text, &["-o", target.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{err}");
        assert!(
            err.contains(&format!(
                "error: -o {}: refusing to overwrite the input {input_text}{how}; nothing written",
                target.display()
            )),
            "{err}"
        );
        assert_eq!(std::fs::read(&input).unwrap(), before);
    }
    // `--out` onto an input through a hard link under DIR, likewise.
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::hard_link(&input, out_dir.join("F-list-items-not-upgraded.yaml")).unwrap();
    let out = upgrade(K8S, input_text, &["--out", out_dir.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(err.contains("would overwrite the input"), "{err}");
    assert!(err.contains("(a hard link to it)"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // Two names of one file in place: refused, not written twice.
    let out = capped(&[
        "upgrade",
        "--from",
        "1.28",
        "--to",
        "1.36",
        "--in-place",
        input_text,
        hard.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(err.contains("would both be written to"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// In place: the file is replaced whole, keeping its permission bits; a
/// symbolic link is followed (said) and kept; a file with other hard links
/// is replaced and the others keep the old text (said).
#[cfg(unix)]
#[test]
fn in_place_keeps_the_mode_and_says_what_it_did_with_links() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let input = copy("F-list-items-not-upgraded.yaml", tmp.path());
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o640)).unwrap();
    let expected = stdout(&upgrade(K8S, input.to_str().unwrap(), &[]));
    let out = upgrade(K8S, input.to_str().unwrap(), &["--in-place"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), expected);
    let mode = std::fs::metadata(&input).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);

    let real = copy("F-comment-lost-flow-drop.yaml", tmp.path());
    let link = tmp.path().join("link.yaml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = upgrade(K8S, link.to_str().unwrap(), &["--in-place"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 1, "{err}");
    assert!(
        err.contains("note: a symbolic link: the file it points to"),
        "{err}"
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!std::fs::read_to_string(&real).unwrap().contains("claims"));

    let other = copy("F-comment-lost-compact-seq-drop.yaml", tmp.path());
    let second = tmp.path().join("second-name.yaml");
    std::fs::hard_link(&other, &second).unwrap();
    let old = std::fs::read(&second).unwrap();
    let out = upgrade(K8S, other.to_str().unwrap(), &["--in-place"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 1, "{err}");
    assert!(
        err.contains("warning: the file had 2 names (hard links)"),
        "{err}"
    );
    assert_eq!(std::fs::read(&second).unwrap(), old);
    assert!(!std::fs::read_to_string(&other).unwrap().contains("source:"));
    // No temporary file is left beside them.
    let mut names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "F-comment-lost-compact-seq-drop.yaml",
            "F-comment-lost-flow-drop.yaml",
            "F-list-items-not-upgraded.yaml",
            "link.yaml",
            "second-name.yaml"
        ]
    );
}

/// A typed list (`FlowSchemaList`, `PersistentVolumeClaimList`) is
/// converted through its type, its items with it, comments kept; an item
/// that names its own apiVersion and kind (which kubectl applies under
/// those names) moves with the list instead of keeping one the target no
/// longer serves.
#[test]
fn typed_lists_are_converted_through_their_type() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("flowschemas.yaml");
    let text = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchemaList\nmetadata: {}\nitems:\n- metadata:\n    name: batch # the batch schema\n  spec:\n    priorityLevelConfiguration:\n      name: workload-low\n    matchingPrecedence: 1000\n";
    std::fs::write(&path, text).unwrap();
    let out = upgrade(K8S, path.to_str().unwrap(), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), text.replace("/v1beta3", "/v1"));
    let path = tmp.path().join("claims.yaml");
    let text = "apiVersion: v1\nkind: PersistentVolumeClaimList\nitems:\n- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata: {name: data}\n  spec:\n    resources:\n      requests: {storage: 1Gi} # size\n      claims: [{name: x}]\n";
    std::fs::write(&path, text).unwrap();
    let out = upgrade(K8S, path.to_str().unwrap(), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("items[0].spec.resources.claims: dropped"));
    assert_eq!(
        stdout(&out),
        text.replace("      claims: [{name: x}]\n", "")
    );
    let path = tmp.path().join("named-items.yaml");
    let text = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchemaList\nitems:\n- metadata: {name: a}\n  spec:\n    priorityLevelConfiguration: {name: global-default}\n- apiVersion: flowcontrol.apiserver.k8s.io/v1beta3 # named\n  kind: FlowSchema\n  metadata: {name: b}\n  spec:\n    priorityLevelConfiguration: {name: global-default}\n";
    std::fs::write(&path, text).unwrap();
    let out = upgrade(K8S, path.to_str().unwrap(), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), text.replace("/v1beta3", "/v1"));
    assert!(
        stderr(&out).contains("items[1].apiVersion: flowcontrol.apiserver.k8s.io/v1beta3 → flowcontrol.apiserver.k8s.io/v1"),
        "{}",
        stderr(&out)
    );
}
