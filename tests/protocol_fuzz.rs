//! Robustness: random and mutated command lines (random bytes, huge numbers, invalid
//! UTF-8, overlong lines, board sizes and rule families, valid or not) must each get
//! exactly one well-formed reply, or none when the line is blank, and never stop the
//! engine; a `?` reply must leave the game, the rules and the options as they were.
//! Thousands of lines run in-process; a smaller batch goes through the real binary, which
//! must then exit with status 0.
//!
//! Commands whose running time depends on their arguments (`generate_move`, `analyze`,
//! `perft`, and `set_option`, which could raise the search limits or the hash size) are
//! sent only in fixed, fast forms; their argument errors are covered by the transcripts.

use crate::common;

use hnefi::protocol::{Engine, MAX_LINE};
use hnefi::session::Session;
use proptest::prelude::*;

/// Valid lines the mutations start from.
const BASE: &[&str] = &[
    "name",
    "7 version",
    "protocol_version",
    "list_commands",
    "known_command play",
    "help play",
    "board_size 11",
    "board_size 7",
    "board_size 13",
    "board_size 9",
    "set_rule rules fetlar",
    "set_rule rules hnefatafl-org",
    "set_rule rules copenhagen",
    "play defender d3 a3",
    "play attacker m7 l7",
    "set_position /3t3/5T1/1tT4/7/1tK4/7/3t3/ attacker",
    "set_position /13/13/12t/13/10tT1/13/6K6/13/13/13/13/13/13/ attacker",
    "clear_board",
    "reset_board",
    "play attacker h1 h3",
    "play defender f8 i8",
    "play attacker d1-d3",
    "play defender e5 e2",
    "play attacker resign",
    "play defender resigns",
    "play_undo",
    "final_status",
    "final_status_reason",
    "play_from",
    "play_to attacker h1",
    "play_to defender f8",
    "legal_moves",
    "show_board",
    "show_moves",
    "first_move defender",
    "time_settings fischer 5 3",
    "time_settings none",
    "time_left attacker 60000",
    "set_position /11/4t6/11/2tT1Tt4/3tKt5/4t6/11/11/11/11/11/",
    "show_position",
    "load_moves d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2",
    "set_rule repetition off",
    "set_rule move_limit 3",
    "quit",
    "12 name # comment",
];

/// The only forms in which the slow commands are sent.
const SAFE_SLOW: &[&str] = &["generate_move", "analyze 1", "perft 1", "perft 2"];
const SLOW: &[&str] = &["generate_move", "analyze", "perft", "set_option"];

/// The command word of a line (after an optional id), if it is valid UTF-8.
fn command_word(line: &[u8]) -> Option<String> {
    let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
    let text = String::from_utf8_lossy(&line[..end]).to_string();
    let mut words = text.split([' ', '\t', '\r']).filter(|w| !w.is_empty());
    let first = words.next()?;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        words.next().map(str::to_string)
    } else {
        Some(first.to_string())
    }
}

/// True when the line may be sent: no slow command except in a safe form.
fn allowed(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    match command_word(line) {
        Some(w) if SLOW.iter().any(|s| w.contains(s)) => SAFE_SLOW.contains(&text.trim()),
        _ => true,
    }
}

/// True when the protocol says the line gets no reply.
fn blank(line: &[u8]) -> bool {
    let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
    let body = &line[..end];
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    body.iter().all(|&b| b == b' ' || b == b'\t')
}

/// Checks one reply's framing.
fn check_reply(line: &[u8], reply: Option<String>) {
    let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).to_string();
    match reply {
        None => assert!(blank(line), "no reply to {shown:?}"),
        Some(r) => {
            assert!(!blank(line), "a reply to blank line {shown:?}");
            assert!(
                r.starts_with('=') || r.starts_with('?'),
                "{shown:?} -> {r:?}"
            );
            assert!(r.ends_with("\n\n"), "{shown:?} -> {r:?}");
            assert_eq!(r.matches("\n\n").count(), 1, "{shown:?} -> {r:?}");
        }
    }
}

fn engine() -> Engine {
    let mut e = Engine::new(Session::new());
    assert_eq!(
        e.handle_line(b"set_option depth 1").as_deref(),
        Some("=\n\n")
    );
    e
}

/// A mutation of a base line.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let base = prop::sample::select(BASE.to_vec());
    let huge = prop::sample::select(vec![
        "99999999999999999999999999",
        "18446744073709551616",
        "-1",
        "0",
        "4294967296",
        "1e309",
        "NaN",
        "",
    ]);
    (
        base,
        0usize..6,
        any::<u8>(),
        any::<prop::sample::Index>(),
        huge,
    )
        .prop_map(|(base, kind, byte, at, huge)| {
            let mut line = base.as_bytes().to_vec();
            let i = at.index(line.len() + 1);
            match kind {
                0 => line.insert(i, byte),
                1 => line.truncate(i),
                2 => {
                    let words: Vec<&str> = base.split(' ').collect();
                    let k = at.index(words.len());
                    let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                    words[k] = huge.to_string();
                    line = words.join(" ").into_bytes();
                }
                3 => line.extend_from_slice(b"\r"),
                4 => line = base.to_ascii_uppercase().into_bytes(),
                _ => line.splice(i..i, [0xff, 0xfe, byte]).for_each(drop),
            }
            line
        })
}

/// `board_size` with a random size, written as `N` or `NxN`.
fn board_size_line() -> impl Strategy<Value = Vec<u8>> {
    (0u32..20, any::<bool>()).prop_map(|(n, square)| {
        let size = if square {
            format!("{n}x{n}")
        } else {
            n.to_string()
        };
        format!("board_size {size}").into_bytes()
    })
}

fn any_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => board_size_line(),
        3 => mutated(),
        2 => prop::collection::vec(any::<u8>(), 0..64)
            .prop_map(|v| v.into_iter().filter(|&b| b != b'\n').collect()),
        1 => prop::sample::select(SAFE_SLOW.to_vec()).prop_map(|s| s.as_bytes().to_vec()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Sequences of lines on one engine: each gets exactly one reply (none if blank).
    #[test]
    fn every_line_gets_one_reply(lines in prop::collection::vec(any_line(), 1..40)) {
        let mut e = engine();
        for line in lines.iter().filter(|l| allowed(l)) {
            if e.quit_requested() {
                e = engine();
            }
            let before = snapshot(&e);
            let reply = e.handle_line(line);
            if reply.as_deref().is_some_and(|r| r.starts_with('?')) {
                prop_assert_eq!(&before, &snapshot(&e), "{:?} -> {:?}", String::from_utf8_lossy(line), reply);
            }
            check_reply(line, reply);
        }
    }
}

/// Everything a failed command must leave as it was.
fn snapshot(e: &Engine) -> String {
    let s = e.session();
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?}",
        s.game(),
        s.source(),
        s.rules(),
        s.limits(),
        s.time_control(),
        e.dialect()
    )
}

#[test]
fn overlong_lines_get_one_error() {
    let mut e = engine();
    let long = vec![b'a'; 1 << 20];
    let reply = e.handle_line(&long).expect("a reply");
    assert!(reply.starts_with("? line too long"), "{reply}");
    // Exactly at the limit is accepted as a line (an unknown command here).
    let at_limit = vec![b'x'; MAX_LINE];
    assert_eq!(
        e.handle_line(&at_limit).as_deref(),
        Some("? unknown command\n\n")
    );
    // A long comment does not count.
    let mut commented = b"name #".to_vec();
    commented.extend(std::iter::repeat_n(b'c', 1 << 20));
    assert_eq!(e.handle_line(&commented).as_deref(), Some("= hnefi\n\n"));
}

/// A small deterministic generator for the binary test (no timing, no randomness).
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn the_binary_survives_garbage_and_exits_cleanly() {
    let mut lines: Vec<Vec<u8>> = vec![
        b"set_option depth 1".to_vec(),
        vec![b'z'; 1 << 20],
        b"name".to_vec(),
        b"name \xff\xfe".to_vec(),
        b"play attacker h99999999999999999999999 h3".to_vec(),
        b"99999999999999999999999 name".to_vec(),
    ];
    let mut seed = 42u64;
    for n in 0..2000 {
        let mut line: Vec<u8> = if n % 2 == 0 {
            BASE[(lcg(&mut seed) as usize) % BASE.len()]
                .as_bytes()
                .to_vec()
        } else {
            let len = (lcg(&mut seed) % 60) as usize;
            (0..len).map(|_| lcg(&mut seed) as u8).collect()
        };
        line.retain(|&b| b != b'\n');
        if n % 7 == 0 && !line.is_empty() {
            let i = (lcg(&mut seed) as usize) % line.len();
            line[i] = lcg(&mut seed) as u8;
            line.retain(|&b| b != b'\n');
        }
        if allowed(&line) && command_word(&line).as_deref() != Some("quit") {
            lines.push(line);
        }
    }
    lines.push(b"generate_move".to_vec());
    lines.push(b"name".to_vec());
    let mut input = Vec::new();
    for l in &lines {
        input.extend_from_slice(l);
        input.push(b'\n');
    }
    let expected = lines.iter().filter(|l| !blank(l)).count();
    let out = common::run_binary(&[], &input);
    assert!(out.status.success(), "exit status {}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), expected, "one reply per non-blank line");
    assert!(
        replies
            .iter()
            .all(|r| r.starts_with('=') || r.starts_with('?'))
    );
    assert_eq!(replies.last(), Some(&"= hnefi"));
    assert!(stdout.ends_with("\n\n"));
}

#[test]
fn end_of_input_without_newline_still_answers() {
    let out = common::run_binary(&[], b"name\r\n7 name");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= hnefi\n\n=7 hnefi\n\n"
    );
    let out = common::run_binary(&[], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn the_reader_never_holds_an_overlong_line() {
    use hnefi::protocol::{RawLine, read_line};
    let mut input = vec![b'a'; 3 << 20];
    input.extend_from_slice(b"\nname # \xff comment\r\nlast");
    let mut reader = std::io::BufReader::with_capacity(4096, &input[..]);
    let mut line = RawLine::default();
    assert!(read_line(&mut reader, &mut line).expect("read"));
    assert!(line.too_long && line.bytes.len() <= MAX_LINE + 1);
    assert!(
        line.bytes.capacity() < 2 * MAX_LINE + 64,
        "buffered the whole line"
    );
    assert!(read_line(&mut reader, &mut line).expect("read"));
    assert_eq!(
        (line.bytes.as_slice(), line.too_long),
        (&b"name "[..], false)
    );
    assert!(read_line(&mut reader, &mut line).expect("read"));
    assert_eq!(line.bytes, b"last");
    assert!(!read_line(&mut reader, &mut line).expect("read"));
}
