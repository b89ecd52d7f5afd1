//! `hnefi study` (src/players/study.rs): the Fetlar strategy study's tables in the paper's
//! shape, beside the paper's numbers; how a game counts (a fort at the cut-off is a tie,
//! any other game still on is unfinished); the games replay from their seeds. Kept short:
//! a few games a pairing and an early cut-off (the 100-game run is documented in
//! docs/fetlar-study.md).

use crate::common;

use std::process::Command;

use hnefi::core::outcome::Outcome;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::players::Strategy;
use hnefi::players::study::{Counted, StudyArgs, counted, ending, play_one};

fn args(games: u64, move_limit: u32) -> StudyArgs {
    StudyArgs {
        games,
        seed: 0,
        move_limit,
        rules: RulePreset::Fetlar,
        repetition: None,
    }
}

#[test]
fn study_prints_the_papers_tables_and_the_comparison() {
    let out = common::output_of(
        Command::new(env!("CARGO_BIN_EXE_hnefi")).args([
            "study",
            "--games",
            "2",
            "--move-limit",
            "300",
        ]),
        "hnefi study",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("Fetlar strategy study: 2 games per pairing, seeds from 0, cut at 300 moves, rules fetlar, repetition third-occurrence-draws"),
        "{text}"
    );
    // Tables 3 to 7 (attackers), 8 to 13 (defenders), 14 (summary), the comparison and
    // the endings.
    assert_eq!(text.matches("\n### ").count(), 5 + 6 + 1 + 1 + 1, "{text}");
    assert!(
        text.contains("### aggressive against the defenders"),
        "{text}"
    );
    assert!(
        text.contains("### Random (defender) against the attackers"),
        "{text}"
    );
    // Every pairing beside the paper's: 30 rows, the paper's own first.
    assert!(
        text.contains("| aggressive | defensive | 0-10-0-0 (34.0) | "),
        "{text}"
    );
    assert!(
        text.contains("| Random (attacker) | Random (defender) | 0-8-0-2 (522.0) | "),
        "{text}"
    );
    assert!(text.contains(" of 30 pairings agree"), "{text}");
    // Every game of a pairing is counted once: the summary's rows add up to 2 x 6 (an
    // attacker) and 2 x 5 (a defender) games.
    let summary = text
        .split("### Summary")
        .nth(1)
        .and_then(|s| s.split("###").next())
        .expect("a summary");
    for line in summary
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| |"))
    {
        let cells: Vec<u64> = line
            .split('|')
            .filter_map(|c| c.trim().parse().ok())
            .take(4)
            .collect();
        let games: u64 = cells.iter().sum();
        let want = if line.contains("(defender)")
            || [
                "defensive",
                "foot-in",
                "fortification",
                "kings-guard",
                "mobile-king",
            ]
            .iter()
            .any(|d| line.starts_with(&format!("| {d}")))
        {
            10
        } else {
            12
        };
        assert_eq!(games, want, "{line}");
    }
}

#[test]
fn a_fort_standing_at_the_cut_off_is_a_tie_and_a_game_still_on_is_unfinished() {
    // Random attackers never break Fortification's fort, nor repeat a position three
    // times: at the cut-off the fort stands.
    let game = play_one(Strategy::Random, Strategy::Fortification, &args(1, 1000), 0);
    assert_eq!(counted(&game).result, Some(Outcome::draw(())));
    assert_eq!(ending(&game), "fort standing at the cut-off");
    assert_eq!(game.moves_played(), 1000);
    // Two random players cut after 20 moves: no fort, unfinished.
    let game = play_one(Strategy::Random, Strategy::Random, &args(1, 20), 0);
    assert_eq!(counted(&game).result, None);
    assert_eq!(ending(&game), "unfinished");
}

#[test]
fn a_finished_game_counts_its_moves_and_its_winner() {
    let game = play_one(Strategy::Random, Strategy::KingsGuard, &args(1, 1000), 0);
    let n = game.moves_played();
    assert_eq!(
        counted(&game),
        Counted {
            result: Some(Outcome::win(Role::Defender, ())),
            moves: n
        }
    );
    assert!(
        ending(&game).starts_with("defenders-win king-escaped ("),
        "{}",
        ending(&game)
    );
}

fn hashes(game: &hnefi::core::game::Game) -> Vec<u64> {
    game.positions().iter().map(|p| p.hash()).collect()
}

#[test]
fn the_games_replay_from_their_seeds() {
    let a = args(3, 1000);
    for i in 0..3 {
        let one = play_one(Strategy::KingCentered, Strategy::Defensive, &a, i);
        let two = play_one(Strategy::KingCentered, Strategy::Defensive, &a, i);
        assert_eq!(hashes(&one), hashes(&two));
    }
    // Different games get different seeds.
    let first = play_one(Strategy::Random, Strategy::Random, &a, 0);
    let second = play_one(Strategy::Random, Strategy::Random, &a, 1);
    assert_ne!(hashes(&first), hashes(&second));
}
