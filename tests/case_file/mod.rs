//! The rule-case format shared by `tests/data/cases.txt` (Copenhagen) and
//! `tests/data/hnefatafl_org_cases.txt` (the hnefatafl.org preset): its one parser and the
//! runner of one case under one symmetry of the board. The grammar is in the header of
//! `tests/data/cases.txt`; a case may also name a preset on its `rules` line, say
//! `symmetries all` or `symmetries identity`, and be played on another board
//! (`board-size N` right after `case`; a preset then plays its game of that size), or
//! give an OpenTafl rules string on a `rules-string` line.
//! [`run_file`] runs every case of a file as its `symmetries` line says.

// Each test target that includes this module uses part of it.
#![allow(dead_code)]

use hnefi::core::bitboard::BitboardOf;
use hnefi::core::board::{Board, BoardOf};
use hnefi::core::encirclement_mode::EncirclementMode;
use hnefi::core::game::GameOf;
use hnefi::core::geometry::{BoardSize, Geometry};
use hnefi::core::moves::MoveOf;
use hnefi::core::position::{Position, PositionOf};
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
use hnefi::core::rules_string::parse_rules_string;
use hnefi::core::square::SquareOf;
use hnefi::with_size;

/// One block of a case file.
#[derive(Debug)]
pub struct Case {
    pub id: String,
    pub size: BoardSize,
    pub to_move: Option<Role>,
    pub last_mover: Option<Role>,
    pub rules: RuleSet,
    /// `symmetries all` (true) or `identity` (false); `None` without such a line.
    pub all_symmetries: Option<bool>,
    pub board: Vec<String>,
    /// Moves and squares as written: they are read on the case's board.
    pub history: Vec<String>,
    pub play: Option<String>,
    pub expect: String,
    pub captures: Option<Vec<String>>,
    pub result: Option<String>,
}

impl Case {
    fn new(id: &str) -> Case {
        Case {
            id: id.to_string(),
            size: BoardSize::S11,
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

    /// The position of the case's 11x11 board with `to_move` to move (before its
    /// history).
    pub fn position(&self, to_move: Role) -> Position {
        let board = Board::from_rows(self.board.iter().map(String::as_str))
            .unwrap_or_else(|e| panic!("{}: board: {e}", self.id));
        Position::new(board, to_move)
    }
}

fn parse_role(s: &str) -> Role {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// The words of a `rules` line: `default`, a preset name (its game on a board of `size`),
/// or `KEY=VALUE` changes.
fn parse_rules(id: &str, size: BoardSize, rest: &str, rules: &mut RuleSet) {
    for word in rest.split(' ') {
        if word == "default" {
            *rules = RuleSet::default();
            continue;
        }
        if let Ok(preset) = word.parse::<RulePreset>() {
            *rules = preset
                .variant(size)
                .unwrap_or_else(|e| panic!("{id}: {e}"))
                .rules();
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
            "board-size" => {
                c.size = rest.parse().expect("size");
                c.rules = RulePreset::Copenhagen
                    .variant(c.size)
                    .map_or(RuleSet::default(), |v| v.rules());
            }
            "rules" => parse_rules(&c.id, c.size, rest, &mut c.rules),
            // An OpenTafl rules string: its rule set (its start position is the case's
            // board, its first mover the case's `to-move`).
            "rules-string" => {
                let variant = parse_rules_string(rest)
                    .unwrap_or_else(|e| panic!("{}: rules-string: {e}", c.id));
                assert_eq!(
                    variant.size(),
                    c.size,
                    "{}: rules-string of another size",
                    c.id
                );
                c.rules = variant.rules();
            }
            "symmetries" => {
                c.all_symmetries = Some(match rest {
                    "all" => true,
                    "identity" => false,
                    _ => panic!("{}: symmetries {rest}", c.id),
                })
            }
            "board" => board_lines = c.size.files(),
            "history" => c.history = rest.split(' ').map(str::to_string).collect(),
            "play" => c.play = Some(rest.to_string()),
            "expect" => c.expect = rest.to_string(),
            "captures" => {
                c.captures = Some(if rest == "none" {
                    vec![]
                } else {
                    rest.split(' ').map(str::to_string).collect()
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

/// Every case of the case file `text` (named `name` in messages), each under the 8
/// symmetries of its board when it says `symmetries all` (or has no such line and
/// `default_all`), otherwise as drawn, where it must then fail under some other symmetry
/// (a case that holds under all of them belongs with the symmetric ones). `check` sees
/// each case first (to assert its rules). Panics with every failure.
pub fn run_file(text: &str, name: &str, default_all: bool, check: impl Fn(&Case)) {
    let cases = parse_cases(text);
    let blocks = count_blocks(text);
    assert!(blocks > 0, "{name} holds no case");
    assert_eq!(cases.len(), blocks, "cases read from {name}");
    let mut failures = Vec::new();
    for case in &cases {
        check(case);
        if let Err(e) = run(case, 0) {
            failures.push(format!("{}: {e}", case.id));
        }
        let others: Vec<(u8, Result<(), String>)> = (1..8).map(|s| (s, run(case, s))).collect();
        if case.all_symmetries.unwrap_or(default_all) {
            for (sym, r) in others {
                if let Err(e) = r {
                    failures.push(format!("{} (symmetry {sym}): {e}", case.id));
                }
            }
        } else if others.iter().all(|(_, r)| r.is_ok()) {
            failures.push(format!("{}: holds under every symmetry", case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs one case under one symmetry; returns a description of the failure, if any.
pub fn run(case: &Case, sym: u8) -> Result<(), String> {
    with_size!(case.size, G => run_on::<G>(case, sym))
}

fn mv<G: Geometry>(s: &str, sym: u8) -> Result<MoveOf<G>, String> {
    s.parse::<MoveOf<G>>()
        .map(|m| m.transform(sym))
        .map_err(|e| format!("move {s}: {e}"))
}

fn run_on<G: Geometry>(case: &Case, sym: u8) -> Result<(), String> {
    let board = BoardOf::<G>::from_rows_with(
        case.board.iter().map(String::as_str),
        case.rules.restricted(),
    )
    .map_err(|e| format!("board: {e}"))?
    .transform(sym);
    let to_move = case.to_move.ok_or("no to-move")?;
    let mut game = GameOf::from_position(PositionOf::new(board, to_move), case.rules);
    for m in &case.history {
        game.play(mv::<G>(m, sym)?)
            .map_err(|e| format!("history move {m}: {e}"))?;
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
    let mv = mv::<G>(case.play.as_deref().ok_or("no play line")?, sym)?;
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
            let mut want = BitboardOf::<G>::EMPTY;
            for s in case.captures.as_ref().ok_or("no captures line")? {
                let sq: SquareOf<G> = s.parse().map_err(|e| format!("square {s}: {e}"))?;
                want.insert(sq.transform(sym));
            }
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
