//! The rules of the hnefatafl.org server (`--rules hnefatafl-org`, the rules `hnefi bot`
//! plays by): every case of `tests/data/hnefatafl_org_cases.txt`, under the 8 symmetries
//! of the board where the case says so. Adding a case is adding a block of text.

use hnefi::core::bitboard::Bitboard;
use hnefi::core::board::Board;
use hnefi::core::game::{Game, RuleSet};
use hnefi::core::moves::Move;
use hnefi::core::position::Position;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::square::Square;

struct Case {
    id: String,
    to_move: Option<Role>,
    rules: RuleSet,
    all_symmetries: Option<bool>,
    board: Vec<String>,
    history: Vec<Move>,
    play: Option<Move>,
    expect: String,
    captures: Option<Vec<Square>>,
    result: Option<String>,
}

impl Case {
    fn new(id: &str) -> Case {
        Case {
            id: id.to_string(),
            to_move: None,
            rules: RulePreset::HnefataflOrg.rules(),
            all_symmetries: None,
            board: Vec::new(),
            history: Vec::new(),
            play: None,
            expect: String::new(),
            captures: None,
            result: None,
        }
    }
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
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "case" {
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
            "to-move" => c.to_move = Some(rest.parse().unwrap_or_else(|e| panic!("{e}"))),
            "rules" => {
                let mut words = rest.split(' ');
                assert_eq!(words.next(), Some("hnefatafl-org"), "{}: rules", c.id);
                for kv in words {
                    match kv.split_once('=') {
                        Some(("move-limit", v)) => {
                            c.rules.move_limit = Some(v.parse().expect("plies"))
                        }
                        _ => panic!("{}: unknown rule {kv}", c.id),
                    }
                }
            }
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
    let mv = case.play.ok_or("no play line")?.transform(sym);
    let before = (*game.position(), game.status(), game.plies().len());
    match (case.expect.as_str(), game.play(mv)) {
        ("illegal", Ok(c)) => Err(format!("{mv} was legal (captures {c:?})")),
        ("illegal", Err(_)) if before == (*game.position(), game.status(), game.plies().len()) => {
            Ok(())
        }
        ("illegal", Err(_)) => Err("an illegal move changed the game".into()),
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
fn every_hnefatafl_org_case_passes() {
    let text = include_str!("data/hnefatafl_org_cases.txt");
    let cases = parse_cases(text);
    let blocks = text
        .lines()
        .filter(|l| l.split('#').next().unwrap_or("").starts_with("case "))
        .count();
    assert!(blocks > 0, "hnefatafl_org_cases.txt holds no case");
    assert_eq!(cases.len(), blocks, "cases read");
    let mut failures = Vec::new();
    for case in &cases {
        let all = case
            .all_symmetries
            .unwrap_or_else(|| panic!("{}: no symmetries line", case.id));
        if let Err(e) = run(case, 0) {
            failures.push(format!("{}: {e}", case.id));
        }
        let others: Vec<(u8, Result<(), String>)> = (1..8).map(|s| (s, run(case, s))).collect();
        if all {
            for (sym, r) in others {
                if let Err(e) = r {
                    failures.push(format!("{} (symmetry {sym}): {e}", case.id));
                }
            }
        } else if others.iter().all(|(_, r)| r.is_ok()) {
            // A case drawn for one orientation must really depend on it; otherwise it
            // belongs with the symmetric cases.
            failures.push(format!("{}: holds under every symmetry", case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Only the preset switches the server's referee on: under hnefi's default rules the
/// adjudicated cases play on.
#[test]
fn default_rules_do_not_adjudicate() {
    let text = include_str!("data/hnefatafl_org_cases.txt");
    let mut adjudicated = 0;
    for mut case in parse_cases(text) {
        if case.result.as_deref() != Some("attackers-win cannot-escape") {
            continue;
        }
        case.rules = RuleSet::default();
        case.result = Some("ongoing".to_string());
        assert_eq!(run(&case, 0), Ok(()), "{} under the default rules", case.id);
        adjudicated += 1;
    }
    assert!(adjudicated > 0, "no adjudicated case");
}

/// The board of a case, before its tested move.
fn case_position(id: &str, to_move: Role) -> Position {
    let text = include_str!("data/hnefatafl_org_cases.txt");
    let case = parse_cases(text)
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no case {id}"));
    let board = Board::from_rows(case.board.iter().map(String::as_str)).unwrap();
    Position::new(board, to_move)
}

fn search(pos: Position, rules: RuleSet, depth: u32) -> hnefi::search::SearchResult {
    use hnefi::search::{Limits, Searcher};
    let game = Game::from_position(pos, rules);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    Searcher::new(1, 1).search(&game, &limits, &stop, &mut |_| {})
}

/// The search ends games where the server does: in case A1 the attackers see the
/// adjudication b2-b5 as a win at once, and the defenders, to move there, see it coming;
/// under Copenhagen rules neither is a win.
#[test]
fn the_search_knows_the_adjudication() {
    use hnefi::search::Score;
    let org = RulePreset::HnefataflOrg.rules();
    let attackers = case_position("A1", Role::Attacker);
    let r = search(attackers, org, 3);
    assert_eq!(r.best, Some("b2-b5".parse().unwrap()));
    assert_eq!(r.score, Score::Win(1));
    let r = search(attackers, RuleSet::default(), 3);
    assert!(!matches!(r.score, Score::Win(_)), "{:?}", r.score);
    let defenders = case_position("A1", Role::Defender);
    assert_eq!(search(defenders, org, 4).score, Score::Loss(2));
    assert!(!matches!(
        search(defenders, RuleSet::default(), 4).score,
        Score::Loss(_)
    ));
}

/// A move can lose for its own side under the server's referee: the king stepping into
/// the box of case A4. The search is told so by `decided_by_move`.
#[test]
fn a_defender_move_can_lose_at_once() {
    use hnefi::core::position::Reason;
    use hnefi::core::referee::{Win, decided_by_move};
    let mut pos = case_position("A4", Role::Defender);
    let mv: Move = "c6-a6".parse().unwrap();
    pos.make_move(mv);
    assert_eq!(
        decided_by_move(&pos, mv.to, &RulePreset::HnefataflOrg.rules()),
        Some(Win {
            winner: Role::Attacker,
            reason: Reason::CannotEscape
        })
    );
    assert_eq!(decided_by_move(&pos, mv.to, &RuleSet::default()), None);
}
