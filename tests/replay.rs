//! Replays the real games of `tests/data/copenhagen.csv` with repetition off: every move
//! must be legal, every capture set must equal the record's, and a game the rules end
//! must end exactly at its last move with the recorded winner.

use std::collections::BTreeMap;

use hnefi::core::game::Game;

use hnefi::core::repetition::RepetitionMode;

use hnefi::core::outcome::Status;
use hnefi::core::record::{self, GameRecord};
use hnefi::core::rules::RuleSet;

/// Replays one record line; returns the status after the last move.
fn replay(line: &str) -> Result<Status, String> {
    let record: GameRecord = line.parse().map_err(|e| format!("{e}"))?;
    let rules = RuleSet {
        repetition: RepetitionMode::Off,
        ..RuleSet::default()
    };
    // `replay` refuses a move after the end, so a detected end falls on the last move.
    let game: Game = record.replay(rules).map_err(|e| format!("{e}"))?;
    // Every move captured exactly what the record lists (`replay` checks only moves that
    // list captures).
    let played = GameRecord::from_game(&game, record.result);
    if let Some((i, (want, got))) = (record.moves.iter().zip(&played.moves))
        .enumerate()
        .find(|(_, (w, g))| w != g)
    {
        return Err(format!("ply {}: record {want}, the rules {got}", i + 1));
    }
    let status = game.status();
    if status.is_over() && record::result_of(status) != record.result {
        return Err(format!(
            "rules say {status}, record says {}",
            record::result_word(record.result)
        ));
    }
    Ok(status)
}

#[test]
fn every_recorded_game_replays() {
    let text = include_str!("data/copenhagen.csv");
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut games = 0;
    for (n, line) in text.lines().enumerate() {
        games += 1;
        match replay(line) {
            Ok(status) => *tally.entry(status.to_string()).or_default() += 1,
            Err(e) => failures.push(format!("line {}: {e}", n + 1)),
        }
    }
    println!("{games} games replayed; endings detected by the rules:");
    for (k, v) in &tally {
        println!("  {v:5}  {k}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // About two thirds of the full archive's 235 escapes, 48 forts, 45 king captures,
    // 24 encirclements and 20 no-move losses (docs/RULES.md section 12); the rest of
    // the games ended by resignation or on time, which the rules do not detect.
    let count = |k: &str| tally.get(k).copied().unwrap_or(0);
    let endings = [
        ("defenders-win king-escaped", 162),
        ("defenders-win edge-fort", 33),
        ("attackers-win king-captured", 27),
        ("attackers-win encirclement", 16),
        ("attackers-win no-moves", 13),
    ];
    for (k, n) in endings {
        assert_eq!(count(k), n, "{k}");
    }
    let time = count("attackers-win time") + count("defenders-win time");
    let decided: usize = endings.iter().map(|(_, n)| n).sum();
    assert_eq!(decided + time + count("ongoing"), games, "{tally:?}");
}
