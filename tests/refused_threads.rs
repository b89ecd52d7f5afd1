//! hnefi where the system refuses every thread it asks for: a clear error naming the
//! thread and a failing exit status where the thread is needed, one thread fewer where
//! it is not, never a panic.
//!
//! The refusal is real: `RUST_MIN_STACK` (which the standard library reads for every
//! thread started without a stack size of its own) asks for a stack of a petabyte, more
//! than any address space holds, so the system's `pthread_create` fails as it does when a
//! process or user limit is reached. The test process itself is not affected: the
//! variable is given to the child alone.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common;

use hnefi::protocol::otep::COPENHAGEN_RULES;

/// A stack no system can map: 2^50 bytes.
const NO_STACK: &str = "1125899906842624";

/// Runs `hnefi ARGS` with every new thread refused, `input` on its stdin.
fn refused(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(common::BIN)
        .args(args)
        .env("RUST_MIN_STACK", NO_STACK)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi");
    if let Some(mut stdin) = child.stdin.take() {
        // A small input fits the pipe: written before anything is read back.
        let _ = stdin.write_all(input.as_bytes());
    }
    common::finish_output(&mut child, &format!("hnefi {}", args.join(" ")))
}

/// The process failed with `code`, saying `message` on stderr, without a panic.
fn fails_with(out: &Output, code: i32, message: &str) {
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_text_protocol_names_its_refused_input_thread() {
    let out = refused(&[], "name\nquit\n");
    fails_with(&out, 1, "cannot start the protocol input thread");
    assert!(out.stdout.is_empty(), "{}", common::text(&out.stdout));
}

#[test]
fn the_match_runner_names_the_engine_thread_and_plays_nothing() {
    let out = refused(
        &[
            "match",
            "--engine",
            common::BIN,
            "--engine",
            common::BIN,
            "--games",
            "1",
        ],
        "",
    );
    fails_with(&out, 2, "cannot start the engine output thread");
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("no game was played"), "{stderr}");
}

#[test]
fn the_bot_names_its_refused_search_thread_before_it_connects() {
    // Port 1 of loopback: no server, and the bot must fail before it tries.
    let out = refused(
        &[
            "bot",
            "--host",
            "127.0.0.1",
            "--port",
            "1",
            "--username",
            "hnefi",
            "--accept-games",
            "1",
        ],
        "",
    );
    fails_with(&out, 1, "cannot start the bot search thread");
}

/// The search's helper threads are not needed: refused, the search runs on the thread it
/// has and the move comes as usual (OTEP reads its input on the main thread).
#[test]
fn a_search_with_its_helpers_refused_plays_on_one_thread() {
    let input = format!(
        "hello\nrules {COPENHAGEN_RULES}\nside attackers\nstart\nclock 120000 110000 0 0 0\nplay attackers\ngoodbye\n"
    );
    let out = refused(&["--otep", "--threads", "2", "--depth", "3"], &input);
    let stdout = common::text(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        common::text(&out.stderr)
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("move ")),
        "no move: {stdout}"
    );
    assert!(out.stderr.is_empty(), "{}", common::text(&out.stderr));
}
