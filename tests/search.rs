//! Search tests at fixed depths (never timed): known answers from
//! `tests/data/search_positions.txt`, each switchable feature on and off, determinism,
//! stopping at any moment, and a losing repetition at the root. (That the search bans and scores repetitions as the game does
//! is the property test in `src/search/path.rs`.)

use std::sync::atomic::AtomicBool;

use hnefi::core::game::Game;

use hnefi::core::repetition::RepetitionMode;

use hnefi::core::moves::Move;
use hnefi::core::notation::position_from_opentafl;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
use hnefi::search::{Feature, Features, Limits, Score, SearchResult, Searcher};

const POSITIONS: &str = include_str!("data/search_positions.txt");

fn search(game: &Game, limits: Limits, features: Features) -> SearchResult {
    search_at(game, limits, features, 1)
}

fn search_at(game: &Game, limits: Limits, features: Features, threads: usize) -> SearchResult {
    let mut s = Searcher::new(threads, 16);
    s.set_features(features);
    s.search(game, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

struct Case {
    line: String,
    game: Game,
    depth: u32,
    win: Option<u32>,
    /// Only the move is checked (a material gain, no forced result).
    move_only: bool,
    best: Vec<Move>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for line in POSITIONS.lines() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let t: Vec<&str> = body.split_whitespace().collect();
        let role: Role = t[1].parse().unwrap();
        let pos = position_from_opentafl(t[0], role).unwrap();
        assert_eq!(t[2], "depth", "{line}");
        let depth: u32 = t[3].parse().unwrap();
        let move_only = t[4] == "capture";
        let (win, rest) = match t[4] {
            "win" => (Some(t[5].parse().unwrap()), &t[6..]),
            "defend" | "capture" => (None, &t[5..]),
            other => panic!("unknown kind {other} in {line}"),
        };
        assert_eq!(rest[0], "best", "{line}");
        let best = rest[1].split(',').map(|m| m.parse().unwrap()).collect();
        out.push(Case {
            line: line.to_string(),
            game: Game::from_position(pos, RuleSet::default()),
            depth,
            win,
            move_only,
            best,
        });
    }
    out
}

/// Searches every case at its depth plus `extra` plies.
fn check_cases(features: Features, extra: u32) {
    check_cases_at(features, extra, 1);
}

/// [`check_cases`] with `threads` search threads.
fn check_cases_at(features: Features, extra: u32, threads: usize) {
    let cases = cases();
    assert!(cases.len() >= 30);
    for c in &cases {
        let r = search_at(&c.game, depth(c.depth + extra), features, threads);
        let best = r.best.expect("a move");
        assert!(
            c.best.contains(&best),
            "{}: played {best}, score {}",
            c.line,
            r.score
        );
        match c.win {
            _ if c.move_only => {}
            Some(n) => assert_eq!(r.score, Score::Win(n), "{}", c.line),
            // The defence avoids the loss at once; a deeper search may still see a
            // longer loss.
            None => assert!(!matches!(r.score, Score::Loss(n) if n <= 2), "{}", c.line),
        }
    }
}

/// With null move and reductions a quiet combination (an encirclement in three moves)
/// may need two more plies to be seen.
#[test]
fn known_answers() {
    check_cases(Features::default(), 2);
}

/// Null move and aspiration windows are off by default (no gain in self-play, see
/// docs/experiments.md) and stay switchable for experiments: with them on, the known
/// answers must still be found, at one ply more than the default search needs (with the
/// engine's network, the null move hides the edge-fort win in 5 at two plies more).
#[test]
fn known_answers_with_null_move_and_aspiration() {
    check_cases(
        Features {
            null_move: true,
            aspiration: true,
            ..Features::default()
        },
        3,
    );
}

#[test]
fn known_answers_without_pruning() {
    check_cases(
        Features {
            null_move: false,
            lmr: false,
            aspiration: false,
            qsearch_checks: false,
            reverse_futility: false,
            late_move_pruning: false,
            log_reductions: false,
            qsearch_captures: false,
            iir: false,
            history_reductions: false,
            defer: false,
        },
        0,
    );
}

#[test]
fn deterministic_at_one_thread() {
    for c in cases().iter().step_by(7) {
        let a = search(&c.game, depth(5), Features::default());
        let b = search(&c.game, depth(5), Features::default());
        assert_eq!(a, b, "{}", c.line);
    }
    let start = Game::new(RuleSet::default());
    assert_eq!(
        search(&start, depth(5), Features::default()),
        search(&start, depth(5), Features::default())
    );
}

#[test]
fn stopped_search_returns_a_legal_move() {
    let mut games: Vec<Game> = cases().into_iter().step_by(5).map(|c| c.game).collect();
    games.push(Game::new(RuleSet::default()));
    for game in &games {
        let legal = game.legal_moves();
        // Stopped before it starts.
        let mut s = Searcher::new(1, 1);
        let r = s.search(
            game,
            &Limits::default(),
            &AtomicBool::new(true),
            &mut |_| {},
        );
        assert!(legal.contains(&r.best.unwrap()));
        // Stopped after any number of nodes.
        for nodes in [1, 2, 10, 100, 1000, 5000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = search(game, limits, Features::default());
            let best = r.best.unwrap();
            assert!(legal.contains(&best), "{best} after {nodes} nodes");
            assert_eq!(r.pv.first(), Some(&best));
        }
    }
}

/// Two threads, with the moves another thread is searching deferred (the default) and
/// without, find every known answer: a deferred move is searched later, never skipped.
/// They are given one ply more than one thread: what the threads find first in the shared
/// table, and the order a deferral makes, change which moves are reduced, and a quiet win
/// found at one thread's depth exactly may then need a ply more.
#[test]
fn known_answers_at_two_threads() {
    for defer in [true, false] {
        check_cases_at(
            Features {
                defer,
                ..Features::default()
            },
            3,
            2,
        );
    }
}

#[test]
fn two_threads_return_a_legal_move() {
    let game = Game::new(RuleSet::default());
    let mut s = Searcher::new(2, 8);
    let r = s.search(&game, &depth(5), &AtomicBool::new(false), &mut |_| {});
    assert!(game.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn finished_game_has_no_move() {
    let pos =
        position_from_opentafl("/11/11/11/11/11/4T6/11/11/11/11/K10/", Role::Attacker).unwrap();
    let game = Game::from_position(pos, RuleSet::default());
    assert!(game.status().is_over());
    let r = search(&game, depth(3), Features::default());
    assert_eq!(r.best, None);
}

#[test]
fn third_occurrence_mover_loses_is_avoided() {
    let mut game = Game::new(RuleSet {
        repetition: RepetitionMode::ThirdOccurrenceMoverLoses,
        ..RuleSet::default()
    });
    for mv in [
        "a4-b4", "f4-g4", "b4-a4", "g4-f4", "a4-b4", "f4-g4", "b4-a4",
    ] {
        game.play(mv.parse().unwrap()).unwrap();
    }
    // Legal, but it repeats the start position a third time and loses.
    let losing: Move = "g4-f4".parse().unwrap();
    assert!(game.legal_moves().contains(&losing));
    for d in 1..=3 {
        let r = search(&game, depth(d), Features::default());
        assert_ne!(r.best, Some(losing));
        assert!(!matches!(r.score, Score::Loss(_)));
    }
}

/// Reverse futility and late-move pruning are off by default until their self-play gain
/// is significant; with them on (and the default log reductions), the known answers must
/// still be found (each pruning acts only on the side where it cannot hide an
/// encirclement).
#[test]
fn known_answers_with_pruning_bundle() {
    check_cases(
        Features {
            reverse_futility: true,
            late_move_pruning: true,
            log_reductions: true,
            ..Features::default()
        },
        2,
    );
}

/// Captures in the quiescence search are off by default until their self-play gain is
/// significant; with them on, the known answers must still be found at the default's
/// depth.
#[test]
fn known_answers_with_qsearch_captures() {
    check_cases(
        Features {
            qsearch_captures: true,
            ..Features::default()
        },
        2,
    );
}

/// The search knows the move limit: a side that wins in N plies still wins with a limit N
/// plies away (a winning move ends the game before the limit is tested), and no longer
/// with the limit one ply nearer, where the best it can get is the draw.
#[test]
fn the_move_limit_draws_in_the_tree() {
    let mut checked = 0;
    for c in cases() {
        let Some(n) = c.win else { continue };
        if n < 2 {
            continue;
        }
        let with_limit = |plies: u32| {
            let rules = RuleSet {
                move_limit: Some(plies),
                ..c.game.rules()
            };
            let game = Game::from_position(*c.game.position(), rules);
            search(&game, depth(c.depth + 2), Features::default())
        };
        assert_eq!(with_limit(n).score, Score::Win(n), "{}", c.line);
        let r = with_limit(n - 1);
        assert!(
            !matches!(r.score, Score::Win(_)),
            "{}: {:?}",
            c.line,
            r.score
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// The game's own verdict `plies` plies ahead at most, by trying every line with `Game`:
/// 1 when the side to move wins, 0 for a draw, -1 when it loses.
fn exact_value(game: &Game, plies: u32) -> i32 {
    use hnefi::core::outcome::{Outcome, Status};
    match game.status() {
        Status::Over(Outcome {
            winner: Some(winner),
            ..
        }) => return if winner == game.to_move() { 1 } else { -1 },
        Status::Over(Outcome { winner: None, .. }) => return 0,
        Status::Ongoing => {}
    }
    assert!(plies > 0, "the move limit did not end the game");
    let mut best = -1;
    for &mv in game.legal_moves().iter() {
        let mut child = game.clone();
        child.play(mv).unwrap();
        best = best.max(-exact_value(&child, plies - 1));
        if best == 1 {
            break;
        }
    }
    best
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// One or two plies before the move limit, the search's verdict is the game's under
    /// either preset: a win, a draw (score 0) or a loss, as `Game` plays every line out.
    #[test]
    fn the_search_ends_at_the_move_limit_as_the_game(
        org in proptest::bool::ANY,
        left in 1u32..=2,
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..160),
    ) {
        use hnefi::core::preset::RulePreset;
        let preset = if org { RulePreset::HnefataflOrg } else { RulePreset::Copenhagen };
        let mut game = Game::new(RuleSet { move_limit: None, ..preset.rules() });
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        proptest::prop_assume!(!game.status().is_over());
        let limit = game.moves_played() as u32 + left;
        game.set_rules(RuleSet { move_limit: Some(limit), ..preset.rules() });
        let expected = exact_value(&game, left);
        let r = search(&game, depth(3), Features::default());
        let got = match r.score {
            Score::Win(_) => 1,
            Score::Loss(_) => -1,
            Score::Cp(0) => 0,
            other => panic!("a heuristic score {other:?} with the game over in {left}"),
        };
        proptest::prop_assert_eq!(
            got,
            expected,
            "{:?} {} {}",
            game.rules(),
            hnefi::core::notation::to_opentafl(game.position().board()),
            game.to_move()
        );
    }
}

/// Weights set for the searches of one side change those searches only: a searcher whose
/// attackers' weights price an attacker at 3,000 scores the start (attackers to move)
/// otherwise than the default, and the position after one move (defenders to move)
/// exactly as the default.
#[test]
fn weights_of_one_side_apply_to_its_searches_only() {
    use hnefi::search::terms::Weights;
    let mut heavy = Weights::default();
    heavy.set("attacker=3000").unwrap();
    let run = |game: &Game, side_weights: Option<Weights>| {
        let mut s = Searcher::new(1, 16);
        if let Some(w) = side_weights {
            s.set_weights(Role::Attacker, w);
        }
        let r = s.search(game, &depth(3), &AtomicBool::new(false), &mut |_| {});
        (r.best, r.score, r.nodes)
    };
    let start = Game::new(RuleSet::default());
    assert_ne!(run(&start, None), run(&start, Some(heavy)));
    let mut after = start.clone();
    after.play("b6-b9".parse().unwrap()).unwrap();
    assert_eq!(run(&after, None), run(&after, Some(heavy)));
}

/// Every switchable feature ([`Feature::ALL`]) switched on and switched off, the others at
/// their defaults, on a few positions at small fixed depths: the search plays a legal
/// move from the start (depth 3) and finds every win in one of the known answers, of
/// both sides (depth 4: the move and `win 1`); a switch set to its default value searches
/// exactly as the defaults do, nodes included; and every switch but deferral (which acts
/// only with several threads: `known_answers_at_two_threads` tests it), set against its
/// default, changes the search somewhere (so that it is tested at all). An edge-fort win
/// in 5 at depth 5 is where most show: aspiration windows start at depth 5, and at depth
/// 4 no known answer changes with log reductions off; internal iterative reduction shows
/// in the start position at depth 6.
#[test]
fn every_feature_on_and_off_plays_legal_moves_and_wins_in_one() {
    let cases = cases();
    let mut positions: Vec<(Game, u32, Option<&Case>)> =
        vec![(Game::new(RuleSet::default()), 3, None)];
    for side in [Role::Attacker, Role::Defender] {
        assert!(
            cases
                .iter()
                .any(|c| c.win == Some(1) && c.game.to_move() == side),
            "a win in one for the {side}"
        );
    }
    for case in cases.iter().filter(|c| c.win == Some(1)) {
        positions.push((case.game.clone(), 4, Some(case)));
    }
    let fort = cases
        .iter()
        .find(|c| c.line.ends_with("# edge-fort line 433 ply 47"))
        .expect("the edge fort of line 433");
    positions.push((fort.game.clone(), 5, None));
    // Internal iterative reduction acts only at nodes four plies or more from the leaves
    // that the table has no move for: the searches above have none.
    positions.push((Game::new(RuleSet::default()), 6, None));
    let limits = |depth: u32| Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let defaults: Vec<SearchResult> = positions
        .iter()
        .map(|(game, d, _)| search(game, limits(*d), Features::default()))
        .collect();
    for feature in Feature::ALL {
        for on in [true, false] {
            let mut features = Features::default();
            features.set(feature, on);
            let setting = format!("{feature} {}", if on { "on" } else { "off" });
            let mut changed = false;
            for ((game, d, case), default) in positions.iter().zip(&defaults) {
                let r = search(game, limits(*d), features);
                let best = r.best.unwrap_or_else(|| panic!("{setting}: no move"));
                assert!(
                    game.legal_moves().contains(&best),
                    "{setting}: {best} is not legal"
                );
                if let Some(c) = case {
                    assert!(c.best.contains(&best), "{setting}: {}: {best}", c.line);
                    assert_eq!(r.score, Score::Win(1), "{setting}: {}", c.line);
                }
                if features == Features::default() {
                    assert_eq!(&r, default, "{setting} is the default");
                }
                changed |= r.nodes != default.nodes;
            }
            assert!(
                changed || features == Features::default() || feature == Feature::Defer,
                "{setting}: every search as the default's"
            );
        }
    }
}

/// Internal iterative reduction and history-adjusted reductions are off by default until
/// their self-play gain is significant; with them on, the known answers must still be
/// found, at one ply more than the default search is given (as with the null move: the
/// reduction can cost a ply where the table has no move).
#[test]
fn known_answers_with_iir_and_history_reductions() {
    check_cases(
        Features {
            iir: true,
            history_reductions: true,
            ..Features::default()
        },
        3,
    );
}
