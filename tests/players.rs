//! The scripted players of the Fetlar strategy study (src/players): every move legal in
//! many seeded games of every pairing, replayable from the seed, and each strategy's
//! distinctive behaviour.

use crate::common;

use common::run_text as hnefi;

use proptest::prelude::*;

use hnefi::core::board::Board;
use hnefi::core::game::Game;
use hnefi::core::moves::Move;
use hnefi::core::position::Position;
use hnefi::core::preset::RulePreset;
use hnefi::core::repetition::RepetitionMode;
use hnefi::core::rng::SplitMix64;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
use hnefi::core::square::Square;
use hnefi::players::fortification::Fort;
use hnefi::players::vocabulary::{Side, cordon, distance, guards};
use hnefi::players::{Player, Strategy};

/// The rules the tests play under: the study's.
fn rules() -> RuleSet {
    RulePreset::Fetlar.rules()
}

fn sq(s: &str) -> Square {
    s.parse().expect("a square")
}

/// A game from a diagram (rank 11 first), `to_move` to move.
fn game_from(rows: [&str; 11], to_move: Role) -> Game {
    let board = Board::from_rows(rows).expect("a board");
    let game = Game::from_position(Position::new(board, to_move), rules());
    assert!(!game.status().is_over(), "{}", board);
    game
}

/// Plays a whole game between two players, checking that every move is legal under the
/// game's rules; returns the game.
fn play_checked(attacker: Player, defender: Player, rules: RuleSet, max_moves: usize) -> Game {
    let mut game = Game::new(rules);
    while !game.status().is_over() && game.moves_played() < max_moves {
        let player = if game.to_move() == Role::Attacker {
            attacker
        } else {
            defender
        };
        let mv = player.choose(&game).expect("a move while the game is on");
        assert!(
            game.legal_moves().as_slice().contains(&mv),
            "{} chose {mv}, not a legal move, in\n{}",
            player.strategy,
            game.position().board()
        );
        game.play(mv).expect("a legal move plays");
    }
    game
}

/// Every strategy (and Random) on each side against every other, a few seeds each, up to
/// the study's 1000 moves, under the Fetlar and the Copenhagen rules: no panic, every move
/// legal. A strategy on the side it does not play falls back to the Random player's move.
#[test]
fn every_pairing_plays_only_legal_moves() {
    for (preset, seeds) in [(RulePreset::Fetlar, 0..3), (RulePreset::Copenhagen, 0..1)] {
        for a in Strategy::ALL {
            for d in Strategy::ALL {
                for seed in seeds.clone() {
                    play_checked(
                        Player { strategy: a, seed },
                        Player {
                            strategy: d,
                            seed: seed + 100,
                        },
                        preset.rules(),
                        1000,
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random pairings, seeds and repetition rules: every move legal under the rules in
    /// force.
    #[test]
    fn random_pairings_under_every_repetition_rule_play_legal_moves(
        a in 0..Strategy::ALL.len(),
        d in 0..Strategy::ALL.len(),
        seed in any::<u64>(),
        mode in 0..RepetitionMode::ALL.len(),
    ) {
        let rules = RuleSet { repetition: RepetitionMode::ALL[mode], ..rules() };
        play_checked(
            Player { strategy: Strategy::ALL[a], seed },
            Player { strategy: Strategy::ALL[d], seed: seed ^ 1 },
            rules,
            400,
        );
    }
}

#[test]
fn the_same_seed_and_game_give_the_same_moves() {
    for strategy in Strategy::ALL {
        let play = |seed| {
            let p = Player { strategy, seed };
            let r = Player {
                strategy: Strategy::Random,
                seed: 9,
            };
            let g = if strategy.side() == Some(Role::Defender) {
                play_checked(r, p, rules(), 200)
            } else {
                play_checked(p, r, rules(), 200)
            };
            g.plies().to_vec()
        };
        assert_eq!(play(5), play(5), "{strategy}");
    }
    // The move depends on the game, not on how the session reached it: after an undo the
    // player answers as before.
    let p = Player {
        strategy: Strategy::KingsGuard,
        seed: 3,
    };
    let mut game = Game::new(rules());
    game.play("h1-h3".parse().unwrap()).unwrap();
    let first = p.choose(&game);
    game.play(first.unwrap()).unwrap();
    game.undo();
    assert_eq!(p.choose(&game), first);
    // Different seeds differ somewhere.
    let random = |seed| {
        play_checked(
            Player {
                strategy: Strategy::Random,
                seed,
            },
            Player {
                strategy: Strategy::Random,
                seed,
            },
            rules(),
            50,
        )
        .plies()
        .to_vec()
    };
    assert_ne!(random(1), random(2));
}

#[test]
fn names_round_trip_and_unknown_names_list_the_known_ones() {
    for s in Strategy::ALL {
        assert_eq!(s.name().parse::<Strategy>(), Ok(s));
    }
    let err = "berserk".parse::<Strategy>().unwrap_err().to_string();
    assert!(err.contains("berserk") && err.contains("kings-guard, mobile-king, random"));
}

#[test]
fn a_strategy_on_the_other_side_plays_the_random_players_move() {
    let game = Game::new(rules());
    for seed in 0..5 {
        let random = Player {
            strategy: Strategy::Random,
            seed,
        };
        let defensive = Player {
            strategy: Strategy::Defensive,
            seed,
        };
        assert_eq!(defensive.choose(&game), random.choose(&game));
    }
}

fn moves_of(strategy: Strategy, game: &Game, seeds: u64) -> Vec<Move> {
    (0..seeds)
        .map(|seed| Player { strategy, seed }.choose(game).expect("a move"))
        .collect()
}

#[test]
fn aggressive_opens_with_the_millar_gambit_and_prefers_captures() {
    for mv in moves_of(Strategy::Aggressive, &Game::new(rules()), 5) {
        assert_eq!(mv.to_string(), "h1-h3");
    }
    // d5-d3 captures c3 against b3; King Centered would rather close in on the king.
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            ".....K.....",
            "...X.......",
            "...........",
            ".XO........",
            "...........",
            "...........",
        ],
        Role::Attacker,
    );
    for mv in moves_of(Strategy::Aggressive, &game, 10) {
        assert_eq!(mv.to_string(), "d5-d3");
    }
    let king = game.position().board().king();
    let nearest = game
        .legal_moves()
        .iter()
        .map(|m| distance(m.to, king))
        .min();
    for mv in moves_of(Strategy::KingCentered, &game, 10) {
        assert_eq!(Some(distance(mv.to, king)), nearest, "{mv}");
    }
}

#[test]
fn aggressive_closes_in_only_where_it_cannot_be_captured() {
    // f10-f7 lands next to the king but g9-g7 would capture it against e7; f10-f8, the
    // second nearest landing, is safe.
    let game = game_from(
        [
            "...........",
            ".....X.....",
            "......O....",
            "...........",
            "....O......",
            ".....K.....",
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
        ],
        Role::Attacker,
    );
    for mv in moves_of(Strategy::Aggressive, &game, 10) {
        assert_eq!(mv.to_string(), "f10-f8");
    }
}

#[test]
fn the_barricading_strategies_open_dutch_and_take_the_barricade_middle() {
    for strategy in [Strategy::BarricadingAggressive, Strategy::BarricadingCordon] {
        let mut game = Game::new(rules());
        for mv in moves_of(strategy, &game, 3) {
            assert_eq!(mv.to_string(), "g1-g2", "{strategy}");
        }
        game.play("g1-g2".parse().unwrap()).unwrap();
        game.play("d6-d7".parse().unwrap()).unwrap();
        let middles = [sq("b2"), sq("j2"), sq("b10"), sq("j10")];
        for mv in moves_of(strategy, &game, 5) {
            assert!(middles.contains(&mv.to), "{strategy}: {mv}");
        }
    }
}

#[test]
fn barricading_cordon_pushes_a_standing_cordon_in() {
    let game = game_from(
        [
            "...........",
            "XXXXXXXXXXX",
            "...........",
            "...........",
            "...........",
            ".....K.....",
            "...........",
            "...O.......",
            "...........",
            ".X.......X.",
            "...........",
        ],
        Role::Attacker,
    );
    let board = *game.position().board();
    assert_eq!(cordon(&board, Side::North), Some([1; 11]));
    for mv in moves_of(Strategy::BarricadingCordon, &game, 5) {
        // The first piece of the cordon, a10, steps in to a9, and the cordon holds.
        assert_eq!(mv.to_string(), "a10-a9");
        let mut after = game.clone();
        after.play(mv).unwrap();
        let c = cordon(after.position().board(), Side::North).expect("still closed");
        assert_eq!(c[0], 2);
    }
}

#[test]
fn king_centered_blocks_the_kings_way_to_a_corner() {
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            ".........X.",
            "...........",
            "...........",
            "...........",
            ".X.....K...",
        ],
        Role::Attacker,
    );
    for mv in moves_of(Strategy::KingCentered, &game, 5) {
        let mut after = game.clone();
        after.play(mv).unwrap();
        assert!(
            !after
                .legal_moves()
                .iter()
                .any(|m| m.from == sq("h1") && m.to.is_corner()),
            "{mv} leaves the king a corner"
        );
    }
}

#[test]
fn defensive_saves_a_threatened_soldier_before_capturing() {
    // c3 can be captured by d5-d3; h5-h8 would capture i8 against j8.
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "........XO.",
            "...........",
            ".....K.....",
            "...X...O...",
            "...........",
            ".XO........",
            "...........",
            "...........",
        ],
        Role::Defender,
    );
    for mv in moves_of(Strategy::Defensive, &game, 10) {
        assert_eq!(mv.from, sq("c3"), "{mv}");
    }
    // With nothing threatened, it captures.
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "........XO.",
            "...........",
            ".....K.....",
            ".......O...",
            "...........",
            "...........",
            "...........",
            "...........",
        ],
        Role::Defender,
    );
    for mv in moves_of(Strategy::Defensive, &game, 5) {
        assert_eq!(mv.to_string(), "h5-h8");
    }
}

#[test]
fn foot_in_the_door_takes_the_barricade_squares_first() {
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            ".O...K.....",
            "...........",
            "...........",
            "...........",
            "...........",
            "........X..",
        ],
        Role::Defender,
    );
    for mv in moves_of(Strategy::FootInTheDoor, &game, 10) {
        assert!([sq("b2"), sq("b10")].contains(&mv.to), "{mv}");
    }
}

#[test]
fn fortification_builds_its_fort_and_holds_it() {
    // Against the Random attackers, from the start: the fort stands within 60 moves in
    // most games, and once it stands the king steps between the throne and the hole.
    let mut built = 0;
    for seed in 0..10 {
        let mut game = Game::new(rules());
        let attacker = Player {
            strategy: Strategy::Random,
            seed,
        };
        let fort = Player {
            strategy: Strategy::Fortification,
            seed,
        };
        let mut stood = false;
        while !game.status().is_over() && game.moves_played() < 60 {
            let p = if game.to_move() == Role::Attacker {
                attacker
            } else {
                fort
            };
            let board = *game.position().board();
            let standing = Fort::all().find(|f| f.stands(&board));
            let mv = p.choose(&game).unwrap();
            if game.to_move() == Role::Defender
                && let Some(f) = standing
            {
                stood = true;
                let shuttle = [f.hole, Square::THRONE];
                if game
                    .legal_moves()
                    .iter()
                    .any(|m| m.from == board.king() && shuttle.contains(&m.to))
                {
                    assert_eq!(mv.from, board.king(), "the king shuttles");
                }
            }
            game.play(mv).unwrap();
        }
        built += usize::from(stood);
    }
    assert!(built >= 8, "the fort stood in {built} of 10 games");
}

#[test]
fn kings_guard_calls_two_defenders_into_the_kings_box() {
    // The king has left the throne and has no guard; two defenders stand far off.
    let mut game = game_from(
        [
            ".X.........",
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            "...O.......",
            ".......K...",
            "...........",
            ".O.........",
            "...........",
        ],
        Role::Defender,
    );
    let p = Player {
        strategy: Strategy::KingsGuard,
        seed: 1,
    };
    let idle = Player {
        strategy: Strategy::Random,
        seed: 1,
    };
    let mv = p.choose(&game).unwrap();
    game.play(mv).unwrap();
    let board = *game.position().board();
    assert_eq!(guards(&board, board.king()), 1, "{mv}");
    game.play(idle.choose(&game).unwrap()).unwrap();
    let mv = p.choose(&game).unwrap();
    game.play(mv).unwrap();
    let board = *game.position().board();
    assert!(guards(&board, board.king()) >= 2, "{mv}\n{board}");
}

#[test]
fn mobile_king_frees_the_king_first_and_fights_with_him() {
    // From the start the defenders open a way and the king leaves the throne within his
    // side's first six moves, by a move of three squares or more.
    for seed in 0..5 {
        let mut game = Game::new(rules());
        let attacker = Player {
            strategy: Strategy::Random,
            seed,
        };
        let mk = Player {
            strategy: Strategy::MobileKing,
            seed,
        };
        let mut left = None;
        for _ in 0..6 {
            game.play(attacker.choose(&game).unwrap()).unwrap();
            if game.status().is_over() {
                break;
            }
            let mv = mk.choose(&game).unwrap();
            game.play(mv).unwrap();
            if mv.from == Square::THRONE {
                left = Some(mv);
                break;
            }
        }
        let mv = left.expect("the king left the throne");
        assert!(distance(mv.from, mv.to) >= 3, "{mv}");
    }
    // A capture the king can make is preferred to a soldier's.
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "........XO.",
            "...........",
            ".......O...",
            "...........",
            "...........",
            "...XO......",
            "...........",
            ".XK.....X..",
        ],
        Role::Defender,
    );
    for mv in moves_of(Strategy::MobileKing, &game, 5) {
        assert_eq!(mv.to_string(), "c1-c3", "{mv}");
    }
}

#[test]
fn random_picks_a_piece_then_a_move() {
    // The defender on j1 has one move, the king many: a piece first, then its move, so
    // j1-j2 comes about half the time (a move drawn among all would come 1 time in 21).
    let game = game_from(
        [
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            ".....K.....",
            "...........",
            "...........",
            ".........X.",
            "...........",
            "........XO.",
        ],
        Role::Defender,
    );
    let lone: Move = "j1-j2".parse().unwrap();
    assert_eq!(
        game.legal_moves()
            .iter()
            .filter(|m| m.from == sq("j1"))
            .count(),
        1
    );
    let hits = (0..400)
        .filter(|&seed| Strategy::Random.choose(&game, &mut SplitMix64::new(seed)) == Some(lone))
        .count();
    assert!((150..=250).contains(&hits), "{hits} of 400");
}

#[test]
fn hnefi_player_answers_generate_move_with_the_strategy() {
    let (ok, out, _) = hnefi(
        &["--player", "aggressive", "--seed", "5", "--rules", "fetlar"],
        "generate_move\nplay defender g5 g2\nshow_board\nquit\n",
    );
    assert!(ok);
    assert!(
        out.starts_with("= play attacker h1 h3\n\n=\n\n=\n"),
        "{out}"
    );
    // The same seed and moves give the same answers, a move at a time or replayed.
    let script = "generate_move\ngenerate_move\ngenerate_move\ngenerate_move\nquit\n";
    let (_, a, _) = hnefi(&["--player", "kings-guard", "--seed", "7"], script);
    let (_, b, _) = hnefi(&["--player", "kings-guard", "--seed", "7"], script);
    assert_eq!(a, b);
    assert_eq!(a.matches("= play").count(), 4, "{a}");
    // An unknown name lists the known ones; a seed needs a player.
    let (ok, _, err) = hnefi(&["--player", "nonsense"], "");
    assert!(!ok);
    assert!(
        err.contains("foot-in-the-door") && err.contains("mobile-king"),
        "{err}"
    );
    let (ok, _, err) = hnefi(&["--seed", "3"], "");
    assert!(!ok, "--seed without --player: {err}");
}

#[test]
fn hnefi_match_plays_two_players() {
    let bin = env!("CARGO_BIN_EXE_hnefi");
    let (ok, out, err) = hnefi(
        &[
            "match",
            "--engine",
            &format!("'{bin}' --player mobile-king --seed 1"),
            "--engine",
            &format!("'{bin}' --player aggressive --seed 2"),
            "--games",
            "2",
            "--move-limit",
            "1000",
            "--rules",
            "fetlar",
        ],
        "",
    );
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("E1") && out.contains("E2"), "{out}");
    assert!(!err.contains("illegal"), "{err}");
}
