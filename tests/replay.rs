//! Replays the 1,168 real games of `tests/data/copenhagen.csv` with repetition off: every
//! move must be legal, every capture set must equal the record's, and a game the rules end
//! must end exactly at its last move with the recorded winner.

use std::collections::BTreeMap;

use hnefi::core::game::{Game, RepetitionMode, RuleSet};
use hnefi::core::notation::{RecordMove, RecordToken};
use hnefi::core::position::Status;
use hnefi::core::role::Role;

/// Replays one record line; returns the status after the last move.
fn replay(line: &str) -> Result<Status, String> {
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, att_caps, def_caps, result] = fields.as_slice() else {
        return Err(format!("bad line: {line}"));
    };
    let rules = RuleSet {
        repetition: RepetitionMode::Off,
        ..RuleSet::default()
    };
    let mut game = Game::new(rules);
    let tokens: Vec<&str> = moves.split(' ').collect();
    let mut x_tokens = [0usize; 2];
    for (i, tok) in tokens.iter().enumerate() {
        let ply = i + 1;
        if game.status().is_over() {
            return Err(format!("ply {ply}: game already over: {}", game.status()));
        }
        let rec = match RecordToken::parse(tok).map_err(|e| format!("ply {ply}: {e}"))? {
            RecordToken::Timeout if ply == tokens.len() => break,
            RecordToken::Timeout => return Err(format!("ply {ply}: timeout before the end")),
            RecordToken::Move(m) => m,
        };
        x_tokens[(game.to_move() == Role::Defender) as usize] += tok.matches('x').count();
        let RecordMove { mv, captures } = rec;
        let got = game.play(mv).map_err(|e| format!("ply {ply} {tok}: {e}"))?;
        if got != captures {
            return Err(format!("ply {ply} {tok}: captured {got:?}"));
        }
    }
    if att_caps.parse() != Ok(x_tokens[0]) || def_caps.parse() != Ok(x_tokens[1]) {
        return Err(format!(
            "capture counts {x_tokens:?} differ from the record"
        ));
    }
    let status = game.status();
    if let Status::Won { winner, .. } = status {
        let want = match *result {
            "Black" => Role::Attacker,
            "White" => Role::Defender,
            other => return Err(format!("rules say {status}, record says {other}")),
        };
        if winner != want {
            return Err(format!("rules say {status}, record says {result}"));
        }
    }
    Ok(status)
}

#[test]
fn every_recorded_game_replays() {
    let text = include_str!("data/copenhagen.csv");
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut games = 0;
    for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        games += 1;
        match replay(line) {
            Ok(status) => *tally.entry(status.to_string()).or_default() += 1,
            Err(e) => failures.push(format!("line {n}: {e}")),
        }
    }
    println!("{games} games replayed; endings detected by the rules:");
    for (k, v) in &tally {
        println!("  {v:5}  {k}");
    }
    assert_eq!(games, 1168);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // About two thirds of the full archive's 235 escapes, 48 forts, 45 king captures,
    // 24 encirclements and 20 no-move losses (RULES.md section 12).
    let decided: usize = tally
        .iter()
        .filter(|(k, _)| k.as_str() != "ongoing")
        .map(|(_, v)| v)
        .sum();
    assert!(decided > 200, "only {decided} endings detected");
}
