//! The command-line flags set what the protocol can set, and `--help` documents them.

mod common;

use common::run_binary;

#[test]
fn help_documents_every_flag() {
    let out = run_binary(&["--help"], b"");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--repetition",
        "--move-limit",
        "--threads",
        "--hash-mb",
        "--depth",
        "--movetime-ms",
    ] {
        assert!(help.contains(flag), "--help does not mention {flag}");
    }
}

#[test]
fn flags_set_the_rules_of_the_session() {
    let out = run_binary(
        &["--move-limit", "1", "--repetition", "off", "--depth", "1"],
        b"play attacker h1 h3\nfinal_status\nfinal_status_reason\n",
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "=\n\n= draw\n\n= move_limit\n\n"
    );
}

#[test]
fn invalid_flags_are_refused_before_any_command() {
    for args in [
        &["--threads", "0"][..],
        &["--hash-mb", "100000"],
        &["--depth", "-1"],
        &["--repetition", "sometimes"],
        &["--move-limit", "99999999999"],
    ] {
        let out = run_binary(args, b"name\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
