//! Streaming analysis and multi-PV through the real binary's pipes (docs/PROTOCOL.md,
//! "Streaming analysis"): `analyze` with no limit in force answers `=` at once, writes an
//! `info` line per iteration until the next command line arrives, then the empty line,
//! then that command's reply. Nothing here is timed.

use crate::common;

use common::Engine;
use hnefi::protocol::Engine as InProcess;
use hnefi::session::Session;

/// The fields of an `info` line, checked: depth, score, nodes, nps, time and a pv of
/// moves in FROM-TO form.
fn check_info(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.first(), Some(&"info"), "{line}");
    let pv_at = words.iter().position(|w| *w == "pv").expect("pv");
    for key in ["depth", "score", "nodes", "nps", "time"] {
        assert!(words[..pv_at].contains(&key), "{key} missing in {line}");
    }
    let pv: Vec<String> = words[pv_at + 1..].iter().map(|w| w.to_string()).collect();
    assert!(!pv.is_empty(), "{line}");
    assert!(pv.iter().all(|m| m.contains('-')), "{line}");
    pv
}

#[test]
fn streaming_analysis_is_ended_by_the_next_command() {
    let mut engine = Engine::start(&[]);
    let legal = engine.ok("legal_moves");
    engine.write("analyze");
    assert_eq!(engine.read_line(), "=");
    let first = engine.read_line();
    let second = engine.read_line();
    for line in [&first, &second] {
        let pv = check_info(line);
        assert!(legal.split(' ').any(|m| m == pv[0]), "{line}");
    }
    assert!(first.starts_with("info depth 1 "), "{first}");
    assert!(second.starts_with("info depth 2 "), "{second}");
    // The next command ends the stream: the lines written meanwhile, the empty line, then
    // the command's own reply.
    engine.write("7 name");
    for line in engine.read_reply() {
        check_info(&line);
    }
    assert_eq!(engine.read_reply(), vec!["=7 hnefi".to_string()]);
    // The session goes on: the analysis played nothing.
    assert_eq!(engine.ok("show_moves"), "");
    engine.quit();
}

#[test]
fn interval_analysis_repeats_its_lines_until_the_next_command() {
    let mut engine = Engine::start(&[]);
    engine.write("analyze interval 20");
    assert_eq!(engine.read_line(), "=");
    for _ in 0..3 {
        check_info(&engine.read_line());
    }
    engine.write("final_status");
    for line in engine.read_reply() {
        check_info(&line);
    }
    assert_eq!(engine.read_reply(), vec!["= ongoing".to_string()]);
    engine.quit();
}

#[test]
fn streaming_multipv_reports_each_line_with_its_own_move() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option multipv 3");
    engine.write("analyze");
    assert_eq!(engine.read_line(), "=");
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = engine.read_line();
        assert!(
            line.starts_with(&format!("info depth 1 multipv {k} ")),
            "{line}"
        );
        firsts.push(check_info(&line)[0].clone());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "the lines repeat a move: {firsts:?}");
    engine.write("quit");
    for line in engine.read_reply() {
        check_info(&line);
    }
    assert_eq!(engine.read_reply(), vec!["=".to_string()]);
    assert!(engine.wait().success());
}

/// A stream refused before it starts is an ordinary `?` reply.
#[test]
fn a_finished_game_is_not_streamed() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_position 10K/11/11/11/11/11/11/11/11/11/5t5 attacker");
    assert_eq!(
        engine.send("analyze"),
        vec!["? the game is over".to_string()]
    );
    assert_eq!(
        engine.send("analyze interval 10"),
        vec!["? the game is over".to_string()]
    );
    engine.quit();
}

/// In process, no line can follow: the stream ends as it starts, its reply complete.
#[test]
fn in_process_a_stream_ends_at_once() {
    let mut engine = InProcess::new(Session::new());
    let reply = engine.handle_line(b"analyze").expect("a reply");
    assert!(reply.starts_with("=\n"), "{reply}");
    assert!(reply.ends_with("\n\n"), "{reply}");
    for line in reply.lines().skip(1).filter(|l| !l.is_empty()) {
        check_info(line);
    }
    assert_eq!(engine.handle_line(b"name").as_deref(), Some("= hnefi\n\n"));
}

/// A bounded analysis with multipv: one line per root move, distinct and legal.
#[test]
fn bounded_multipv_gives_distinct_legal_moves() {
    let mut engine = InProcess::new(Session::new());
    let legal = engine.handle_line(b"legal_moves").expect("reply");
    engine.handle_line(b"set_option depth 3");
    engine.handle_line(b"set_option multipv 4");
    let reply = engine.handle_line(b"analyze").expect("reply");
    let lines: Vec<&str> = reply.trim_end().lines().collect();
    assert_eq!(lines.len(), 4, "{reply}");
    let mut moves: Vec<&str> = lines
        .iter()
        .map(|l| l.trim_start_matches("= ").split(' ').nth(1).expect("move"))
        .collect();
    for m in &moves {
        assert!(legal.split_whitespace().any(|l| l == *m), "{m}: {reply}");
    }
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), 4, "{reply}");
}

/// The streaming example of docs/PROTOCOL.md is what hnefi answers (its nps and time
/// aside), so that it cannot go stale: the same `info` lines depth by depth, the empty
/// line once the next command arrives, then that command's reply.
#[test]
fn the_protocol_docs_streaming_example_is_current() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/PROTOCOL.md"))
        .expect("read docs/PROTOCOL.md");
    let start = doc
        .find("```text\n> analyze\n")
        .expect("the streaming example");
    let block = &doc[start + "```text\n".len()..];
    let block = &block[..block.find("```").expect("the example's end")];
    let lines: Vec<&str> = block.lines().collect();
    let name_at = lines.iter().position(|l| *l == "> name").expect("> name");
    assert_eq!(&lines[..2], &["> analyze", "="], "{block}");
    let infos: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("info "))
        .collect();
    assert!(!infos.is_empty(), "{block}");
    // After `> name`: the lines that came meanwhile, the empty line, the reply, the empty
    // line.
    let tail = &lines[name_at + 1..];
    let tail_infos = tail.iter().take_while(|l| l.starts_with("info ")).count();
    assert_eq!(&tail[tail_infos..], &["", "= hnefi", ""], "{block}");

    let mut engine = Engine::start(&[]);
    engine.write("analyze");
    assert_eq!(engine.read_line(), "=");
    let mut got = Vec::new();
    while got.len() < infos.len() {
        got.push(engine.read_line());
    }
    engine.write("name");
    for (doc_line, line) in infos.iter().zip(&got) {
        assert_eq!(
            common::without_clock(doc_line),
            common::without_clock(line),
            "the doc says {doc_line}"
        );
    }
    // The stream ends: perhaps more lines, then the empty line and the reply.
    for line in engine.read_reply() {
        check_info(&line);
    }
    assert_eq!(engine.read_reply(), vec!["= hnefi".to_string()]);
    engine.quit();
}

#[test]
fn show_wdl_adds_the_movers_chances_after_each_score_and_only_then() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option depth 2");
    let plain = engine.ok("analyze");
    assert!(!plain.contains("wdl"), "{plain}");
    engine.ok("set_option show_wdl true");
    let shown = engine.ok("analyze");
    let words: Vec<&str> = shown.split(' ').collect();
    let at = words.iter().position(|w| *w == "wdl").expect("wdl");
    assert_eq!(words.get(at - 2), Some(&"score"), "{shown}");
    let chances: Vec<u32> = words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert_eq!(chances.iter().sum::<u32>(), 1000, "{shown}");
    engine.ok("set_option show_wdl false");
    assert!(!engine.ok("analyze").contains("wdl"));
    engine.quit();
}

/// The last line of `show_board`'s reply.
fn board_tail(engine: &mut Engine) -> String {
    let board = engine.ok("show_board");
    board.lines().last().unwrap_or_default().to_string()
}

#[test]
fn show_board_with_show_wdl_ends_with_the_last_search_of_its_position() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option depth 2");
    engine.ok("analyze");
    // Off by default: the diagram and the side to move, as before.
    assert_eq!(board_tail(&mut engine), "attacker to move");
    engine.ok("set_option show_wdl true");
    let analyzed = engine.ok("analyze");
    let score = analyzed
        .split(" score ")
        .nth(1)
        .and_then(|rest| rest.split(" wdl ").next())
        .expect("a score")
        .to_string();
    let tail = board_tail(&mut engine);
    let prefix = format!("last search: depth 2 score {score} wdl ");
    let chances: Vec<u32> = tail
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{tail} after {analyzed}"))
        .split(' ')
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert_eq!(chances.len(), 3, "{tail}");
    assert_eq!(chances.iter().sum::<u32>(), 1000, "{tail}");
    // Another position: no search of it yet.
    engine.ok("play attacker d1 d3");
    assert_eq!(board_tail(&mut engine), "defender to move");
    // The engine's move: the position after it, from the other side, one ply shallower.
    engine.ok("generate_move");
    let tail = board_tail(&mut engine);
    assert!(tail.starts_with("last search: depth 1 score "), "{tail}");
    engine.ok("set_option show_wdl false");
    assert_eq!(board_tail(&mut engine), "attacker to move");
    engine.quit();
}
