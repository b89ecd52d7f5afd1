//! The rule-case format shared by `tests/data/cases.txt` (Copenhagen) and
//! `tests/data/hnefatafl_org_cases.txt` (the hnefatafl.org preset): its one parser and the
//! runner of one case under one symmetry of the board. The grammar is in the header of
//! `tests/data/cases.txt`; a case may also name a preset on its `rules` line and say
//! `symmetries all` or `symmetries identity`.

// Each test target that includes this module uses part of it.
#![allow(dead_code)]

use hnefi::core::bitboard::Bitboard;
use hnefi::core::board::Board;
use hnefi::core::encirclement::EncirclementMode;
use hnefi::core::game::{Game, RuleSet};
use hnefi::core::moves::Move;
use hnefi::core::position::Position;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::square::Square;

/// One block of a case file.
#[derive(Debug)]
pub struct Case {
    pub id: String,
    pub to_move: Option<Role>,
    pub last_mover: Option<Role>,
    pub rules: RuleSet,
    /// `symmetries all` (true) or `identity` (false); `None` without such a line.
    pub all_symmetries: Option<bool>,
    pub board: Vec<String>,
    pub history: Vec<Move>,
    pub play: Option<Move>,
    pub expect: String,
    pub captures: Option<Vec<Square>>,
    pub result: Option<String>,
}

impl Case {
    fn new(id: &str) -> Case {
        Case {
            id: id.to_string(),
            to_move: None,
            last_mover: None,
            rules: RuleSet::default(),
            all_symmetries: None,
            board: Vec::new(),
            history: Vec::new(),
            play: None,
            expect: String::new(),
            captures: None,
            result: None,
        }
    }

    /// The position of the case's board with `to_move` to move (before its history).
    pub fn position(&self, to_move: Role) -> Position {
        let board = Board::from_rows(self.board.iter().map(String::as_str))
            .unwrap_or_else(|e| panic!("{}: board: {e}", self.id));
        Position::new(board, to_move)
    }
}

fn parse_role(s: &str) -> Role {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// The words of a `rules` line: `default`, a preset name, or `KEY=VALUE` changes.
fn parse_rules(id: &str, rest: &str, rules: &mut RuleSet) {
    for word in rest.split(' ') {
        if word == "default" {
            *rules = RuleSet::default();
            continue;
        }
        if let Ok(preset) = word.parse::<RulePreset>() {
            *rules = preset.rules();
            continue;
        }
        let (k, v) = word
            .split_once('=')
            .unwrap_or_else(|| panic!("{id}: rule {word}"));
        match k {
            "repetition" => rules.repetition = v.parse().expect("mode"),
            "encirclement" => {
                rules.encirclement = match v {
                    "multi-pocket" => EncirclementMode::MultiPocket,
                    "single-ring" => EncirclementMode::SingleRing,
                    _ => panic!("{id}: encirclement {v}"),
                }
            }
            "move-limit" => rules.move_limit = (v != "none").then(|| v.parse().expect("plies")),
            _ => panic!("{id}: unknown rule {k}"),
        }
    }
}

/// Every case of a case file, in order.
pub fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut board_lines = 0;
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if board_lines == 0 && key == "case" {
            assert!(cur.is_none(), "case {rest} starts inside another");
            cur = Some(Case::new(rest.split(' ').next().unwrap_or("")));
            continue;
        }
        let c = cur
            .as_mut()
            .unwrap_or_else(|| panic!("'{line}' outside a case"));
        if board_lines > 0 {
            c.board.push(line.split_whitespace().skip(1).collect());
            board_lines -= 1;
            continue;
        }
        match key {
            "to-move" => c.to_move = Some(parse_role(rest)),
            "last-mover" => c.last_mover = Some(parse_role(rest)),
            "rules" => parse_rules(&c.id, rest, &mut c.rules),
            "symmetries" => {
                c.all_symmetries = Some(match rest {
                    "all" => true,
                    "identity" => false,
                    _ => panic!("{}: symmetries {rest}", c.id),
                })
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
    assert!(cur.is_none(), "the last case has no end");
    cases
}

/// The number of `case` lines of a file, to check that every block was read.
pub fn count_blocks(text: &str) -> usize {
    text.lines()
        .filter(|l| l.split('#').next().unwrap_or("").starts_with("case "))
        .count()
}

/// Runs one case under one symmetry; returns a description of the failure, if any.
pub fn run(case: &Case, sym: u8) -> Result<(), String> {
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
        if case.last_mover != Some(to_move.opponent()) {
            return Err("a status case needs last-mover, the side not to move".into());
        }
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
