//! Openings: the first K plies of the games of a records file, or K random legal plies.
//! Each opening is played twice, once with each engine as the attackers.

use std::collections::HashSet;

use thiserror::Error;

use crate::core::game::{Game, RuleSet};
use crate::core::moves::Move;
use crate::core::record::GameRecord;
use crate::core::rng::SplitMix64;

/// An openings file without a usable opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// No line gives an opening of this many plies.
    #[error(
        "no usable opening of {0} plies in the openings file (each needs a line whose first field holds at least {0} legal moves, like h1-h3 f8-i8, with the game still on after them)"
    )]
    NoneUsable(usize),
}

/// Reads the openings of a records file: the first `plies` moves of each game (the
/// `moves` field before the first comma, read as [`GameRecord::from_moves`] does; capture
/// suffixes are ignored). Lines that are no moves field, games that are shorter, that break the rules `rules` within those plies, or that are over after them
/// are skipped, and so are repeated openings. Errors: no usable opening.
///
/// ```
/// use hnefi::core::game::RuleSet;
/// use hnefi::tools::matches::openings::from_records;
/// let text = "h1-h3 f8-i8 a4-a2,0,0,Black\nh1-h3 f8-i8,0,0,White\nnot moves,0,0,Draw\n";
/// let o = from_records(text, 2, RuleSet::default()).unwrap();
/// assert_eq!(o.len(), 1); // the second game has the same first 2 plies, the third is no game
/// assert_eq!(o[0][1].to_string(), "f8-i8");
/// ```
pub fn from_records(
    text: &str,
    plies: usize,
    rules: RuleSet,
) -> Result<Vec<Vec<Move>>, OpeningsError> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let moves_field = line.split(',').next().unwrap_or("");
        let Ok(record) = GameRecord::from_moves(moves_field) else {
            continue;
        };
        let mut game = Game::new(rules);
        let mut moves = Vec::with_capacity(plies);
        for rec in record.moves.iter().take(plies) {
            if game.play(rec.mv).is_err() {
                break;
            }
            moves.push(rec.mv);
        }
        if moves.len() == plies && !game.status().is_over() && seen.insert(moves.clone()) {
            out.push(moves);
        }
    }
    if out.is_empty() {
        return Err(OpeningsError::NoneUsable(plies));
    }
    Ok(out)
}

/// `count` random openings of `plies` legal moves each under `rules`, from `seed`.
/// Random move sequences that end the game are retried; after many failures a shorter
/// opening is used.
pub fn random(count: usize, plies: usize, rules: RuleSet, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut best = Vec::new();
            for _ in 0..100 {
                let mut game = Game::new(rules);
                let mut moves = Vec::with_capacity(plies);
                while moves.len() < plies {
                    let legal = game.legal_moves();
                    let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                        break;
                    };
                    if game.play(mv).is_err() || game.status().is_over() {
                        break;
                    }
                    moves.push(mv);
                }
                if moves.len() > best.len() {
                    best = moves;
                }
                if best.len() == plies {
                    break;
                }
            }
            best
        })
        .collect()
}
