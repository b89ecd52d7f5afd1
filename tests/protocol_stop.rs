//! `stop` reaches a running search through the real binary's pipes: stdin is
//! read on its own thread, so a search the controller no longer wants ends at once with
//! the best move found so far; `quit` waits its turn. No upper bound on a time is
//! asserted (the machine may be loaded): the searches stopped would not end by themselves
//! within the test.

use crate::common;

use std::time::{Duration, Instant};

use common::Engine;

/// Sends `command`, lets it run 300 ms, then `stop`: returns the command's reply (its lines
/// joined) after checking that `stop` got its own reply, `=`. The commands stopped here
/// would not end within the test by themselves, so a `stop` that failed hangs the test.
fn stopped(engine: &mut Engine, command: &str) -> String {
    engine.write(command);
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.write("stop");
    let reply = engine.read_reply().join("\n");
    // Printed, not asserted: the machine may be loaded.
    eprintln!("{command}: stop answered in {:?}", asked.elapsed());
    assert_eq!(engine.read_reply(), vec!["=".to_string()], "stop's reply");
    reply
}

/// Starts a streaming analysis (bounded by nothing) on `engine`, then `quit` ends it and the
/// session: lines of the stream may still come, then the empty line, `quit`'s reply and a
/// successful exit.
fn quit_ends_an_analysis(mut engine: Engine) {
    engine.write("analyze");
    assert_eq!(engine.read_line(), "=");
    let first = engine.read_line();
    assert!(first.starts_with("info depth 1 "), "{first}");
    engine.write("quit");
    loop {
        let line = engine.read_line();
        if line.is_empty() {
            break;
        }
        assert!(line.starts_with("info depth "), "{line}");
    }
    assert_eq!(engine.read_reply(), vec!["=".to_string()]);
    let status = engine.wait();
    assert!(status.success(), "exit status {status}");
}

/// A search of depth 60 does not end by itself within the test; `stop` ends it.
#[test]
fn stop_ends_a_deep_search_with_a_legal_move() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option depth 60");
    let legal = engine.ok("legal_moves");
    let reply = stopped(&mut engine, "generate_move");
    let words: Vec<&str> = reply.split(' ').collect();
    assert_eq!(words.get(..2), Some(&["=", "play"][..]), "{reply}");
    let mv = format!("{}-{}", words[3], words[4]);
    assert!(legal.split(' ').any(|m| m == mv), "{mv} is not legal");
    // The next search runs unhindered.
    engine.ok("set_option depth 2");
    assert!(engine.ok("generate_move").starts_with("play defender "));
    engine.quit();
}

/// `stop` sent before a search starts stops it at once too (it concerns every command read
/// before it), and a command read after `stop` is not affected.
#[test]
fn stop_read_ahead_concerns_the_commands_before_it() {
    let mut engine = Engine::start(&[]);
    engine.write("set_option depth 60\ngenerate_move\nstop\nset_option depth 1\ngenerate_move");
    assert_eq!(engine.read_reply(), vec!["=".to_string()]);
    let first = engine.read_reply().join("\n");
    assert!(first.starts_with("= play attacker "), "{first}");
    assert_eq!(engine.read_reply(), vec!["=".to_string()]);
    assert_eq!(engine.read_reply(), vec!["=".to_string()]);
    let second = engine.read_reply().join("\n");
    assert!(second.starts_with("= play defender "), "{second}");
    engine.quit();
}

/// End of input stops nothing: a piped `generate_move` gets its full search.
#[test]
fn end_of_input_lets_the_search_finish() {
    let out = common::run_binary(&["--depth", "3"], b"generate_move\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("info depth 3 "), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("= play attacker "));
}

/// The `info` lines of a run's stderr without their clock-dependent fields (`nps`,
/// `time`): what a single-threaded search at a fixed depth reproduces exactly.
fn search_lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| l.starts_with("info "))
        .map(common::without_clock)
        .collect()
}

/// `quit` runs in its turn, as GTP's commands do: a piped `generate_move` then `quit`
/// gets the same search as without `quit` (same iterations, nodes and move).
#[test]
fn quit_waits_for_a_depth_bounded_search() {
    let alone = common::run_binary(&["--depth", "6"], b"generate_move\n");
    let quit = common::run_binary(&["--depth", "6"], b"generate_move\nquit\n");
    assert!(quit.status.success(), "exit status {}", quit.status);
    let (alone_lines, quit_lines) = (search_lines(&alone.stderr), search_lines(&quit.stderr));
    assert_eq!(alone_lines.len(), 6, "{alone_lines:?}");
    assert_eq!(quit_lines, alone_lines);
    let alone_out = String::from_utf8_lossy(&alone.stdout);
    assert!(alone_out.starts_with("= play attacker "), "{alone_out}");
    assert_eq!(
        String::from_utf8_lossy(&quit.stdout),
        format!("{alone_out}=\n\n")
    );
}

/// A search bounded by time also finishes before `quit`: the reply takes most of the move
/// time (a lower bound only, which a loaded machine cannot break).
#[test]
fn quit_waits_for_a_timed_search() {
    let started = Instant::now();
    let out = common::run_binary(&[], b"set_option movetime_ms 1500\ngenerate_move\nquit\n");
    let took = started.elapsed();
    assert!(out.status.success(), "exit status {}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("=\n\n= play attacker "), "{stdout}");
    assert!(stdout.ends_with("=\n\n"), "{stdout}");
    assert!(
        took >= Duration::from_millis(1200),
        "answered after {took:?}"
    );
}

/// `quit` ends at once what has no bound: a streaming analysis, then the session.
#[test]
fn quit_ends_a_streaming_analysis_and_the_session() {
    quit_ends_an_analysis(Engine::start(&[]));
}

/// In the 0.3.1 dialect (`--compat 0.3`) `stop` ends the search as in hnefi's own, and
/// is then answered `=`, not `? unknown command`.
#[test]
fn stop_in_the_compat_dialect_is_answered() {
    let mut engine = Engine::start(&["--compat", "0.3"]);
    engine.ok("set_option depth 60");
    let reply = stopped(&mut engine, "generate_move");
    assert!(reply.starts_with("= black "), "{reply}");
    assert_eq!(engine.ok("known_command stop"), "true");
    engine.quit();
}

/// `stop` ends a perft too, with an error saying so; the session goes on.
#[test]
fn stop_ends_a_perft_with_an_error() {
    let mut engine = Engine::start(&[]);
    let reply = stopped(&mut engine, "perft 8");
    assert_eq!(reply, "? perft 8: stopped before the count was complete");
    assert_eq!(engine.ok("perft 2"), "6788");
    engine.quit();
}

/// With two search threads (the helper a parked pool thread between searches): `stop`
/// ends a deep search, the thread count changes between searches, a streaming analysis
/// with helpers ends on `quit`, and the program exits (its helper threads joined).
#[test]
fn two_threads_stop_change_and_quit() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option threads 2");
    engine.ok("set_option depth 60");
    let reply = stopped(&mut engine, "generate_move");
    assert!(reply.starts_with("= play attacker "), "{reply}");
    engine.ok("set_option depth 3");
    engine.ok("set_option threads 1");
    assert!(engine.ok("generate_move").starts_with("play defender "));
    engine.ok("set_option threads 2");
    assert!(engine.ok("generate_move").starts_with("play attacker "));
    engine.quit();
    // An analysis bounded by nothing (a depth set would bound it: `quit` waits for that).
    let mut engine = Engine::start(&[]);
    engine.ok("set_option threads 2");
    quit_ends_an_analysis(engine);
}
