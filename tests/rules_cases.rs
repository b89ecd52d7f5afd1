//! Runs every case of `tests/data/cases.txt` (a copy of the rules' companion file) under
//! all 8 symmetries of the board. Adding a case is adding a block of text to that file.

use hnefi::core::bitboard::Bitboard;
use hnefi::core::board::Board;
use hnefi::core::encirclement::EncirclementMode;
use hnefi::core::game::{Game, RuleSet};
use hnefi::core::moves::Move;
use hnefi::core::position::Position;
use hnefi::core::role::Role;
use hnefi::core::square::Square;

#[derive(Debug, Default)]
struct Case {
    id: String,
    to_move: Option<Role>,
    last_mover: Option<Role>,
    rules: RuleSet,
    board: Vec<String>,
    history: Vec<Move>,
    play: Option<Move>,
    expect: String,
    captures: Option<Vec<Square>>,
    result: Option<String>,
}

fn parse_role(s: &str) -> Role {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut board_lines = 0;
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let c = cur.get_or_insert_with(Case::default);
        if board_lines > 0 {
            let cells: String = line.split_whitespace().skip(1).collect();
            c.board.push(cells);
            board_lines -= 1;
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "case" => c.id = rest.split(' ').next().unwrap_or("").to_string(),
            "to-move" => c.to_move = Some(parse_role(rest)),
            "last-mover" => c.last_mover = Some(parse_role(rest)),
            "rules" => {
                for kv in rest.split(' ').filter(|kv| *kv != "default") {
                    let (k, v) = kv.split_once('=').expect("key=value");
                    match k {
                        "repetition" => c.rules.repetition = v.parse().expect("mode"),
                        "encirclement" => {
                            c.rules.encirclement = match v {
                                "multi-pocket" => EncirclementMode::MultiPocket,
                                "single-ring" => EncirclementMode::SingleRing,
                                _ => panic!("encirclement {v}"),
                            }
                        }
                        "move-limit" => {
                            c.rules.move_limit = (v != "none").then(|| v.parse().expect("plies"))
                        }
                        _ => panic!("unknown rule {k}"),
                    }
                }
            }
            "board" => board_lines = 11,
            "history" => c.history = rest.split(' ').map(|m| m.parse().expect("move")).collect(),
            "play" => c.play = Some(rest.parse().expect("move")),
            "expect" => c.expect = rest.to_string(),
            "captures" => {
                c.captures = Some(if rest == "none" {
                    vec![]
                } else {
                    rest.split(' ')
                        .map(|s| s.parse().expect("square"))
                        .collect()
                })
            }
            "result" => c.result = Some(rest.to_string()),
            "end" => cases.extend(cur.take()),
            other => panic!("unknown line '{other}'"),
        }
    }
    cases
}

/// Runs one case under one symmetry; returns a description of the failure, if any.
fn run(case: &Case, sym: u8) -> Result<(), String> {
    let board = Board::from_rows(case.board.iter().map(String::as_str))
        .map_err(|e| format!("board: {e}"))?
        .transform(sym);
    let to_move = case.to_move.ok_or("no to-move")?;
    let mut game = Game::from_position(Position::new(board, to_move), case.rules);
    for mv in &case.history {
        game.play(mv.transform(sym))
            .map_err(|e| format!("history move {mv}: {e}"))?;
    }
    if let Some(status) = case.expect.strip_prefix("status ") {
        assert_eq!(case.last_mover, Some(to_move.opponent()), "{}", case.id);
        let got = game.status().to_string();
        return if got == status {
            Ok(())
        } else {
            Err(format!("status {got}, expected {status}"))
        };
    }
    let mv = case.play.ok_or("no play line")?.transform(sym);
    let before = (*game.position(), game.status(), game.plies().len());
    match (case.expect.as_str(), game.play(mv)) {
        ("illegal", Ok(c)) => Err(format!("{mv} was legal (captures {c:?})")),
        ("illegal", Err(_)) => {
            let after = (*game.position(), game.status(), game.plies().len());
            if before == after {
                Ok(())
            } else {
                Err("an illegal move changed the game".into())
            }
        }
        ("legal", Err(e)) => Err(format!("{mv} was illegal: {e}")),
        ("legal", Ok(captured)) => {
            let want: Bitboard = case
                .captures
                .as_ref()
                .ok_or("no captures line")?
                .iter()
                .map(|s| s.transform(sym))
                .collect();
            if captured != want {
                return Err(format!("captures {captured:?}, expected {want:?}"));
            }
            let got = game.status().to_string();
            let want = case.result.as_deref().ok_or("no result line")?;
            if got != want {
                return Err(format!("result {got}, expected {want}"));
            }
            Ok(())
        }
        (other, _) => Err(format!("unknown expectation '{other}'")),
    }
}

#[test]
fn every_rule_case_passes_under_all_symmetries() {
    let text = include_str!("data/cases.txt");
    let cases = parse_cases(text);
    // Every block of the file was read: as many cases as `case` lines.
    let blocks = text
        .lines()
        .filter(|l| l.split('#').next().unwrap_or("").starts_with("case "))
        .count();
    assert!(blocks > 0, "cases.txt holds no case");
    assert_eq!(cases.len(), blocks, "cases read from cases.txt");
    let mut failures = Vec::new();
    for case in &cases {
        for sym in 0..8 {
            if let Err(e) = run(case, sym) {
                failures.push(format!("{} (symmetry {sym}): {e}", case.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
