//! Data-driven protocol tests: each `tests/data/transcripts/*.txt` file lists commands and
//! the exact replies expected (format in `tests/data/README.md`). Every transcript runs
//! twice: in-process, one line at a time, checking that a failed command leaves the
//! session unchanged; and through the real binary's pipes, checking the whole stdout.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hnefi::protocol::Engine;
use hnefi::session::Session;

/// One step of a transcript: an input line and the reply lines expected for it.
struct Step {
    line_no: usize,
    input: Vec<u8>,
    expected: Vec<String>,
}

/// Decodes `\r`, `\t`, `\\` and `\xHH` in an input line.
fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    let hex = std::str::from_utf8(&b[i + 2..i + 4]).expect("hex escape");
                    out.push(u8::from_str_radix(hex, 16).expect("hex escape"));
                    i += 4;
                    continue;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

fn parse_transcript(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let version = env!("CARGO_PKG_VERSION");
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('%') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('>') {
            let input = rest.strip_prefix(' ').unwrap_or(rest);
            steps.push(Step {
                line_no: n + 1,
                input: unescape(input),
                expected: Vec::new(),
            });
        } else {
            let step = steps
                .last_mut()
                .expect("expected output before any input line");
            step.expected.push(line.replace("@VERSION@", version));
        }
    }
    steps
}

/// `*` in a `~` pattern matches any run of characters.
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            text.starts_with(head)
                && (head.len()..=text.len())
                    .any(|i| text.is_char_boundary(i) && glob(tail, &text[i..]))
        }
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    match expected.strip_prefix("~ ") {
        Some(pattern) => glob(pattern, actual),
        None => expected == actual,
    }
}

fn lines_match(expected: &[String], actual: &str) -> bool {
    let actual: Vec<&str> = actual.split('\n').collect();
    // `actual` ends with "\n", so its split has one extra empty item.
    let Some((last, actual)) = actual.split_last() else {
        return expected.is_empty();
    };
    last.is_empty()
        && actual.len() == expected.len()
        && expected.iter().zip(actual).all(|(e, a)| line_matches(e, a))
}

/// Everything a failed command must leave as it was.
fn snapshot(session: &Session) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?}",
        session.game(),
        session.source(),
        session.rules(),
        session.limits(),
        session.time_control()
    )
}

fn run_in_process(path: &Path, steps: &[Step]) {
    let mut engine = Engine::new(Session::new());
    for step in steps {
        if engine.quit_requested() {
            assert!(
                step.expected.is_empty(),
                "{path:?}:{}: reply after quit expected",
                step.line_no
            );
            continue;
        }
        let before = snapshot(engine.session());
        let reply = engine.handle_line(&step.input).unwrap_or_default();
        assert!(
            lines_match(&step.expected, &reply),
            "{}:{}: input {:?}\nexpected:\n{}\ngot:\n{reply}",
            path.display(),
            step.line_no,
            String::from_utf8_lossy(&step.input),
            step.expected.join("\n")
        );
        if reply.starts_with('?') {
            assert_eq!(
                before,
                snapshot(engine.session()),
                "{}:{}: a failed command changed the session",
                path.display(),
                step.line_no
            );
        }
    }
}

/// True for a line that interrupts the commands read before it (`stop`; `quit` waits its
/// turn).
fn interrupts(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    let text = text.split('#').next().unwrap_or_default();
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    let name = if first.bytes().all(|b| b.is_ascii_digit()) {
        words.next().unwrap_or_default()
    } else {
        first
    };
    name == "stop"
}

/// Pipes the transcript's lines as a controller would: all at once, except that before a
/// `stop` it waits for the replies so far (`stop` interrupts a search still running, which
/// would make the replies before it depend on timing); then closes stdin and compares the
/// whole stdout.
fn run_binary(path: &Path, steps: &[Step]) {
    let mut child = Command::new(common::BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hnefi");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = common::Lines::spawn(child.stdout.take().expect("stdout"), "hnefi's stdout");
    let mut expected: Vec<String> = Vec::new();
    let mut got = String::new();
    for step in steps {
        if interrupts(&step.input) {
            stdin.flush().expect("flush");
            let lines_so_far = got.matches('\n').count();
            for _ in lines_so_far..expected.len() {
                match stdout.next_raw(&format!("{path:?}: the replies before a stop")) {
                    Some(line) => got.push_str(&line),
                    None => break,
                }
            }
        }
        stdin.write_all(&step.input).expect("write");
        stdin.write_all(b"\n").expect("write");
        expected.extend(step.expected.iter().cloned());
    }
    drop(stdin);
    got.push_str(&stdout.rest(&format!("{path:?}: the rest of the replies")));
    let status = common::wait_exit(&mut child, &format!("hnefi running {path:?}"));
    assert!(status.success(), "{path:?}: exit status {status}");
    assert!(
        lines_match(&expected, &got) || (expected.is_empty() && got.is_empty()),
        "{}: the binary's output differs\nexpected:\n{}\ngot:\n{got}",
        path.display(),
        expected.join("\n")
    );
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("transcript directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn transcripts_in_process() {
    let files = transcripts();
    assert!(files.len() >= 6, "transcripts missing: {files:?}");
    for path in files {
        let text = fs::read_to_string(&path).expect("read transcript");
        run_in_process(&path, &parse_transcript(&text));
    }
}

#[test]
fn transcripts_through_the_binary() {
    for path in transcripts() {
        let text = fs::read_to_string(&path).expect("read transcript");
        run_binary(&path, &parse_transcript(&text));
    }
}

/// Every command of the table appears in some transcript.
#[test]
fn transcripts_cover_every_command() {
    let mut used = std::collections::HashSet::new();
    for path in transcripts() {
        let text = fs::read_to_string(&path).expect("read transcript");
        for step in parse_transcript(&text) {
            let line = String::from_utf8_lossy(&step.input).to_string();
            for word in line.split_whitespace().take(2) {
                used.insert(word.to_string());
            }
        }
    }
    let own = hnefi::protocol::commands::COMMANDS;
    let compat03 = hnefi::protocol::compat03::commands::COMMANDS;
    for cmd in own.iter().chain(compat03) {
        assert!(used.contains(cmd.name), "no transcript uses {}", cmd.name);
    }
}

/// The ```text blocks of a Markdown file that start with a `>` line: the sessions it shows.
fn sessions_in(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path:?}: {e}"));
    let mut sessions = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match block.as_mut() {
            None if line == "```text" => block = Some(String::new()),
            None => {}
            Some(b) if line == "```" => {
                if b.starts_with('>') {
                    sessions.push(std::mem::take(b));
                }
                block = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
        }
    }
    sessions
}

/// Runs a session shown in a Markdown file as a transcript, the same two ways.
fn run_session(path: &Path, session: &str) {
    let mut steps = parse_transcript(session);
    // A code block leaves off the empty line that ends the last reply.
    if let Some(last) = steps.last_mut()
        && last.expected.last().is_some_and(|l| !l.is_empty())
    {
        last.expected.push(String::new());
    }
    run_in_process(path, &steps);
    run_binary(path, &steps);
}

/// The sessions shown in README.md (its ```text blocks that start with a `>` line) are
/// transcripts too, run the same two ways, so the README cannot go stale.
#[test]
fn readme_sessions_are_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let sessions = sessions_in(&path);
    assert!(!sessions.is_empty(), "README sessions missing");
    for session in sessions {
        run_session(&path, &session);
    }
}

/// The same for every page of `docs/` (docs/playing.md's session among them), but
/// docs/PROTOCOL.md, whose one session shows streaming analysis: its `info` lines depend on
/// timing (tests/protocol_analyze.rs checks their grammar).
#[test]
fn docs_sessions_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("docs directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter(|p| !p.ends_with("PROTOCOL.md"))
        .collect();
    pages.sort();
    let mut shown = 0;
    for path in pages {
        for session in sessions_in(&path) {
            run_session(&path, &session);
            shown += 1;
        }
    }
    assert!(shown >= 1, "docs sessions missing");
}

#[test]
fn glob_patterns() {
    assert!(glob("= play * *", "= play attacker h1 h3"));
    assert!(glob("a*c", "abc") && glob("a*c", "ac") && !glob("a*c", "ab"));
    assert!(!glob("= move *-*", "= move e1"));
}
