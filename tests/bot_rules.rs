//! The rules of the hnefatafl.org server (`--rules hnefatafl-org`, the rules `hnefi bot`
//! plays by): every case of `tests/data/hnefatafl_org_cases.txt`, under the 8 symmetries
//! of the board where the case says so. Adding a case is adding a block of text.

use crate::case_file;

use case_file::{parse_cases, run, run_file};
use hnefi::core::game::Game;
use hnefi::core::geometry::BoardSize;
use hnefi::core::moves::Move;
use hnefi::core::position::Position;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;

#[test]
fn every_hnefatafl_org_case_passes() {
    let org = RulePreset::HnefataflOrg.rules();
    run_file(
        include_str!("data/hnefatafl_org_cases.txt"),
        "hnefatafl_org_cases.txt",
        false,
        |case| {
            // Every case is played by the preset (a move limit of its own aside).
            assert_eq!(case.rules.referee, org.referee, "{}: rules", case.id);
            assert_eq!(case.rules.repetition, org.repetition, "{}: rules", case.id);
            assert!(
                case.all_symmetries.is_some(),
                "{}: no symmetries line",
                case.id
            );
        },
    );
}

/// The server's games on 7x7 and 13x13 (docs/RULES.md section 16): every case of
/// `tests/data/hnefatafl_org_7x7_cases.txt` and `hnefatafl_org_13x13_cases.txt`, each
/// checked in the reference engine, under the symmetries its case says.
#[test]
fn every_hnefatafl_org_case_of_the_small_and_large_boards_passes() {
    for (text, name, size) in [
        (
            include_str!("data/hnefatafl_org_7x7_cases.txt"),
            "hnefatafl_org_7x7_cases.txt",
            BoardSize::S7,
        ),
        (
            include_str!("data/hnefatafl_org_13x13_cases.txt"),
            "hnefatafl_org_13x13_cases.txt",
            BoardSize::S13,
        ),
    ] {
        let org = RulePreset::HnefataflOrg
            .variant(size)
            .expect("the server plays this size")
            .rules();
        run_file(text, name, false, |case| {
            assert_eq!(case.size, size, "{}: board size", case.id);
            assert_eq!(case.rules, org, "{}: rules", case.id);
            assert!(
                case.all_symmetries.is_some(),
                "{}: no symmetries line",
                case.id
            );
        });
    }
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
    case.position(to_move)
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

/// The server tests its turn limit before its adjudication: in case A1 with one ply left
/// before the limit, b2-b5 draws instead of winning, and the search says so; a win by the
/// move itself (the king captured) would still count, as on the server.
#[test]
fn the_move_limit_comes_before_the_adjudication() {
    use hnefi::search::Score;
    let attackers = case_position("A1", Role::Attacker);
    let mut rules = RulePreset::HnefataflOrg.rules();
    rules.move_limit = Some(2);
    assert_eq!(search(attackers, rules, 3).score, Score::Win(1));
    rules.move_limit = Some(1);
    let r = search(attackers, rules, 3);
    assert!(!matches!(r.score, Score::Win(_)), "{:?}", r.score);
    let mut game = Game::from_position(attackers, rules);
    assert!(game.play("b2-b5".parse().unwrap()).is_ok());
    assert!(
        matches!(game.status(), hnefi::core::outcome::Status::Over(o) if o.winner.is_none()),
        "{:?}",
        game.status()
    );
}

/// A move can lose for its own side under the server's referee: the king stepping into
/// the box of case A4. The search is told so by the core's one judge, `outcome`.
#[test]
fn a_defender_move_can_lose_at_once() {
    use hnefi::core::judge::outcome;
    use hnefi::core::outcome::{Reason, Status};
    use hnefi::core::repetition::Verdict;
    let mut pos = case_position("A4", Role::Defender);
    let mv: Move = "c6-a6".parse().unwrap();
    let org = RulePreset::HnefataflOrg.rules();
    pos.make_move(mv, &org);
    assert_eq!(
        outcome(&org, &pos, mv.to, Verdict::Allowed, false, || true),
        Status::won(Role::Attacker, Reason::CannotEscape)
    );
    let copenhagen = RuleSet::default();
    assert_eq!(
        outcome(&copenhagen, &pos, mv.to, Verdict::Allowed, false, || true),
        Status::Ongoing
    );
}

/// The repetition rule judges before the server's adjudication, in the game and in the
/// search alike (one judge, `judge::outcome`). The king on a6 is boxed in by a4, a5, a7
/// and a8 with one defender soldier left, which the server adjudicates as the attackers'
/// win; the attackers leave the box and return, and under `third-occurrence-mover-loses`
/// their third return loses by repetition before it is adjudicated. The game reached the
/// box twice under rules without the adjudication; the search, given the game, must not
/// take the losing return for a win (it did, judging the adjudication first).
#[test]
fn a_losing_repetition_is_judged_before_the_adjudication_in_game_and_search() {
    use hnefi::core::notation::parse_rows;
    use hnefi::core::outcome::{Reason, Status};
    use hnefi::core::referee::Referee;
    use hnefi::core::repetition::RepetitionMode;
    use hnefi::search::{Limits, Score, Searcher};
    use std::sync::atomic::AtomicBool;
    let rows = [
        "...........",
        "...........",
        "...........",
        "X..........",
        "X......O...",
        "K..........",
        "X..........",
        "X..........",
        "...........",
        "...........",
        "...........",
    ];
    let board = parse_rows(&rows.join("/")).unwrap();
    let quiet = RuleSet {
        repetition: RepetitionMode::Off,
        referee: Referee::Copenhagen,
        move_limit: None,
        ..RulePreset::HnefataflOrg.rules()
    };
    let mut game = Game::from_position(Position::new(board, Role::Attacker), quiet);
    let cycle = ["a4-b4", "h7-h8", "b4-a4", "h8-h7"];
    for mv in cycle.iter().chain(&cycle).chain(&cycle[..2]) {
        game.play(mv.parse().unwrap()).unwrap();
    }
    assert_eq!(game.status(), Status::Ongoing);
    game.set_rules(RuleSet {
        repetition: RepetitionMode::ThirdOccurrenceMoverLoses,
        move_limit: None,
        ..RulePreset::HnefataflOrg.rules()
    });
    let back: Move = "b4-a4".parse().unwrap();
    let mut played = game.clone();
    played.play(back).unwrap();
    assert_eq!(
        played.status(),
        Status::won(Role::Defender, Reason::Repetition)
    );
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let r = Searcher::new(1, 16).search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    assert_ne!(r.best, Some(back), "{:?}", r.score);
    assert!(!matches!(r.score, Score::Win(_)), "{:?}", r.score);
}
