//! The command-line flags set what the protocol can set, and `--help` documents them.

use crate::common;

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
        &["--depth", "65"],
        &["--repetition", "sometimes"],
        &["--move-limit", "99999999999"],
    ] {
        let out = run_binary(args, b"name\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// Every option of the table has a flag of the same range and message: the command line,
/// `set_option` and `hnefi bot` refuse a value out of range by naming the range, never a
/// type's limit.
#[test]
fn every_option_has_one_range_everywhere() {
    let help = String::from_utf8_lossy(&run_binary(&["--help"], b"").stdout).to_string();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for o in hnefi::options::OPTIONS {
        let flag = format!("--{}", o.name.replace('_', "-"));
        assert!(help.contains(&flag), "--help does not mention {flag}");
        if matches!(o.kind, hnefi::options::Kind::Whole { .. }) {
            assert!(
                flat.contains(&o.takes()),
                "--help does not give {flag}'s range"
            );
            let too_big = "99999999999999999999";
            let expected = format!("{} is {}, not {too_big}", o.name, o.takes());
            let out = run_binary(&[&flag, too_big], b"name\n");
            assert_eq!(out.status.code(), Some(2), "{flag}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains(&expected), "{flag}: {stderr}");
            let out = run_binary(&[], format!("set_option {} {too_big}\n", o.name).as_bytes());
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(stdout, format!("? argument 2 (VALUE): {expected}\n\n"));
        }
    }
    // The bot's flags read the same table.
    for (flag, option) in [
        ("--threads", hnefi::options::THREADS),
        ("--hash-mb", hnefi::options::HASH_MB),
        ("--depth", hnefi::options::DEPTH),
        ("--nodes", hnefi::options::NODES),
        ("--max-move-ms", hnefi::options::MOVETIME_MS),
    ] {
        let out = run_binary(
            &[
                "bot",
                "--username",
                "u",
                "--accept-games",
                "1",
                flag,
                "99999999999999999999",
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "bot {flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let expected = format!("{} is {}", option.name, option.takes());
        assert!(stderr.contains(&expected), "bot {flag}: {stderr}");
    }
}

/// `help set_option` lists each option with what it takes and its default.
#[test]
fn help_set_option_lists_the_table() {
    let out = run_binary(&[], b"help set_option\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for o in hnefi::options::OPTIONS {
        assert!(stdout.contains(&o.describe()), "{}: {stdout}", o.name);
    }
}

/// `--help` is wrapped to the terminal's width (clap's `wrap_help`; `COLUMNS` and `LINES`
/// stand for a terminal here).
#[test]
fn help_is_wrapped_to_the_terminal() {
    for args in [&["--help"][..], &["bot", "--help"], &["match", "--help"]] {
        let out = common::output_of(
            std::process::Command::new(common::BIN)
                .args(args)
                .env("COLUMNS", "60")
                .env("LINES", "24"),
            &format!("hnefi {args:?}"),
        );
        assert!(out.status.success(), "{args:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        for line in help.lines() {
            // A word longer than the width (a path, a long example) may overflow alone.
            let overflows = line.chars().count() > 60 && line.trim().contains(' ');
            assert!(
                !overflows,
                "{args:?}: a line of {} characters: {line}",
                line.chars().count()
            );
        }
    }
}

/// `known_command` keeps GTP's plain `false` on stdout; the hint goes to stderr.
#[test]
fn known_command_hints_on_stderr_only() {
    let out = run_binary(&[], b"known_command genmove\nknown_command PLAY\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= false\n\n= false\n\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("known_command genmove: false; hnefi calls it generate_move"),
        "{stderr}"
    );
    assert!(
        stderr.contains("known_command PLAY: false; did you mean play?"),
        "{stderr}"
    );
}

#[test]
fn search_progress_goes_to_stderr_only() {
    let out = run_binary(&["--depth", "2"], b"generate_move\n");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("= play attacker "), "{stdout}");
    assert!(!stdout.contains("info"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let infos: Vec<&str> = stderr.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 2, "{stderr}");
    assert!(infos[1].starts_with("info depth 2 score "), "{stderr}");
}

/// A reader that stops reading (`hnefi bench | head -1`) ends the tool quietly: never a
/// panic.
#[test]
fn tools_end_cleanly_when_their_reader_goes() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("bench")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = common::Lines::spawn(child.stdout.take().unwrap(), "hnefi bench's stdout");
    let first = lines.next("the bench's first line");
    let words: Vec<&str> = first.split_whitespace().take(2).collect();
    assert_eq!(words, ["copenhagen-11x11", "start"], "{first}");
    // The reader is dropped here: the bench's next line finds the pipe closed.
    drop(lines);
    let out = common::finish_output(&mut child, "hnefi bench without its reader");
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An output that cannot be written (`/dev/full`) ends a tool with a message: never a
/// panic. Reported as ignored, not passed, where there is no `/dev/full`.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs /dev/full (Linux)")]
fn tools_end_with_a_message_when_their_output_fails() {
    use std::process::Command;
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["perft", "2"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::finish_output(&mut child, "hnefi perft 2 > /dev/full");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write the output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A SIGINT (Ctrl-C) ends `hnefi perft` with the leaves of the root moves counted so far,
/// labelled partial, and status 130; with `--divide` those moves are the lines printed.
#[cfg(unix)]
#[test]
fn perft_stops_on_sigint_with_a_partial_count() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["perft", "6", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::Lines::spawn(child.stdout.take().unwrap(), "hnefi perft's stdout");
    // The first root move's count (a perft 5 from its child) takes a second or so.
    let first = out
        .next_raw("perft's first root move")
        .expect("perft's first root move");
    assert!(first.contains(": "), "{first}");
    let start = Instant::now();
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let rest = out.rest("perft's partial count after SIGINT");
    let status = common::wait_exit(&mut child, "hnefi perft after SIGINT");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(status.code(), Some(130), "{first}{rest}");
    let text = first + &rest;
    let lines: Vec<&str> = text.lines().collect();
    let moves: Vec<u64> = lines
        .iter()
        .filter(|l| !l.starts_with("perft") && !l.starts_with("time"))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(!moves.is_empty() && moves.len() < 116, "{text}");
    let total: u64 = moves.iter().sum();
    let want = format!(
        "perft 6: {total} (partial: interrupted after {} of 116 root moves;",
        moves.len()
    );
    assert!(lines.iter().any(|l| l.starts_with(&want)), "{text}");
}

/// `hnefi perft` draws its progress (root moves done) on stderr when it is a terminal,
/// and writes nothing there when it is not.
#[cfg(target_os = "linux")]
#[test]
fn perft_shows_progress_on_a_terminal_only() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_hnefi");
    let piped = common::output_of(Command::new(bin).args(["perft", "3"]), "hnefi perft 3");
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    // util-linux's `script` (bsdutils, an essential package) runs it on a pseudo-terminal.
    // script (bsdutils) runs a command on a pseudo-terminal.
    let tty = common::output_of(
        Command::new("script").args(["-qec", &format!("'{bin}' perft 3"), "/dev/null"]),
        "script running hnefi perft 3",
    );
    let text = String::from_utf8_lossy(&tty.stdout);
    assert!(tty.status.success(), "{text}");
    assert!(
        text.contains("perft 3: 0/116 root moves, 0 leaves"),
        "{text}"
    );
    assert!(
        text.contains("perft 3: 116/116 root moves, 806344 leaves"),
        "{text}"
    );
    assert!(text.contains("perft 3: 806344\r\n"), "{text}");
}
