//! Openings: the first K plies of the games of a records file, or K random legal plies.
//! Each opening is played twice, once with each engine as the attackers.

use std::collections::HashSet;

use thiserror::Error;

use crate::core::any_square::AnyMove;
use crate::core::berserk_game::BerserkGameOf;
use crate::core::game::GameOf;
use crate::core::geometry::{Geometry, S11};
use crate::core::moves::MoveOf;
use crate::core::position::PositionOf;
use crate::core::record::GameRecordOf;
use crate::core::rng::SplitMix64;
use crate::core::rules::RuleSet;
use crate::core::variant::Variant;

/// An openings file without a usable opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum OpeningsError {
    /// No line gives an opening of this many plies.
    #[error(
        "no usable opening of {0} plies in the openings file (each needs a line whose first field holds at least {0} legal moves, like h1-h3 f8-i8, with the game still on after them)"
    )]
    NoneUsable(usize),
    /// The variant's start position cannot be built (it can: a variant checks its start
    /// when it is made).
    #[error(transparent)]
    Variant(#[from] crate::core::variant::VariantError),
}

/// Reads the openings of a records file of games of `variant`: the first `plies` moves of
/// each game from its start position (the `moves` field before the first comma, read as
/// [`GameRecordOf::from_moves`] does; capture suffixes are ignored). Lines that are no
/// moves field, games that are shorter, that break the rules `rules` within those plies,
/// or that are over after them are skipped, and so are repeated openings. Errors: no
/// usable opening.
pub(crate) fn from_records(
    text: &str,
    plies: usize,
    variant: &Variant,
    rules: RuleSet,
) -> Result<Vec<Vec<AnyMove>>, OpeningsError> {
    crate::with_size!(variant.size(), G => {
        let start = variant.start_position::<G>()?;
        let openings = from_records_on::<G>(text, plies, start, rules)?;
        Ok(openings
            .into_iter()
            .map(|o| o.into_iter().map(AnyMove::from).collect())
            .collect())
    })
}

/// [`from_records`] on the board of `G` from `start`.
pub(crate) fn from_records_on<G: Geometry>(
    text: &str,
    plies: usize,
    start: PositionOf<G>,
    rules: RuleSet,
) -> Result<Vec<Vec<MoveOf<G>>>, OpeningsError> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let moves_field = line.split(',').next().unwrap_or("");
        let Ok(record) = GameRecordOf::<G>::from_moves(moves_field) else {
            continue;
        };
        let mut game = GameOf::from_position(start, rules);
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

/// The openings of `openings` that end in none of the positions `held_out`'s end in
/// (positions, not move orders: an opening that transposes into a held-out one is
/// held out too), each played from `start` under `rules`. This keeps the openings a
/// measurement uses out of the self-play data a network learns from.
pub(crate) fn without<G: Geometry>(
    openings: Vec<Vec<MoveOf<G>>>,
    held_out: &[Vec<MoveOf<G>>],
    start: PositionOf<G>,
    rules: RuleSet,
) -> Vec<Vec<MoveOf<G>>> {
    let end = |moves: &[MoveOf<G>]| {
        let mut game = GameOf::from_position(start, rules);
        for &mv in moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game.position().hash()
    };
    let held: HashSet<u64> = held_out.iter().map(|o| end(o)).collect();
    openings
        .into_iter()
        .filter(|o| !held.contains(&end(o)))
        .collect()
}

/// `count` random openings of `plies` legal moves each of `variant`'s game under `rules`,
/// from `seed`. Random move sequences that end the game are retried; after many failures
/// a shorter opening is used.
pub(crate) fn random(
    count: usize,
    plies: usize,
    variant: &Variant,
    rules: RuleSet,
    seed: u64,
) -> Result<Vec<Vec<AnyMove>>, OpeningsError> {
    crate::with_size!(variant.size(), G => {
        let start = variant.start_position::<G>()?;
        Ok(random_on::<G>(count, plies, start, rules, seed))
    })
}

fn random_on<G: Geometry>(
    count: usize,
    plies: usize,
    start: PositionOf<G>,
    rules: RuleSet,
    seed: u64,
) -> Vec<Vec<AnyMove>> {
    longest_tries(count, plies, seed, |rng| {
        let mut game = GameOf::from_position(start, rules);
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies {
            let legal = game.legal_moves();
            let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                break;
            };
            if game.play(mv).is_err() || game.status().is_over() {
                break;
            }
            moves.push(AnyMove::from(mv));
        }
        moves
    })
}

/// `count` openings of at most `plies` moves, all drawn from one generator seeded with
/// `seed`: each the longest of up to 100 tries of `draw`, the first to reach `plies`
/// ending the search (a try stops short where the game ends).
fn longest_tries(
    count: usize,
    plies: usize,
    seed: u64,
    mut draw: impl FnMut(&mut SplitMix64) -> Vec<AnyMove>,
) -> Vec<Vec<AnyMove>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut best = Vec::new();
            for _ in 0..100 {
                let moves = draw(&mut rng);
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

/// `count` random openings of `plies` legal moves each of a Berserk game from `start`,
/// from `seed`, as [`random`] draws them; each ends where a turn passes, never inside a
/// berserk turn, so that the engines take over at the start of one (an opening cut
/// there is shorter).
pub(crate) fn random_berserk(
    count: usize,
    plies: usize,
    start: &BerserkGameOf<S11>,
    seed: u64,
) -> Vec<Vec<AnyMove>> {
    longest_tries(count, plies, seed, |rng| {
        let mut game = start.clone();
        let mut moves = Vec::with_capacity(plies);
        // The moves up to the last turn's end.
        let mut whole = 0;
        while moves.len() < plies {
            let legal = game.legal_moves();
            let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                break;
            };
            if game.play(mv).is_err() || game.status().is_over() {
                break;
            }
            moves.push(AnyMove::from(mv));
            if game.position().berserker().is_none() {
                whole = moves.len();
            }
        }
        moves.truncate(whole);
        moves
    })
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn from_records() {
        use crate::core::geometry::BoardSize;
        use crate::core::preset::RulePreset;
        use crate::tools::matches::openings::from_records;
        let text = "h1-h3 f8-i8 a4-a2,0,0,Black\nh1-h3 f8-i8,0,0,White\nnot moves,0,0,Draw\n";
        let copenhagen = RulePreset::Copenhagen.variant(BoardSize::S11).unwrap();
        let o = from_records(text, 2, &copenhagen, copenhagen.rules()).unwrap();
        assert_eq!(o.len(), 1); // the second game has the same first 2 plies, the third is no game
        assert_eq!(o[0][1].to_string(), "f8-i8");
    }

    #[test]
    fn without() {
        use crate::core::geometry::S11;
        use crate::core::position::Position;
        use crate::core::rules::RuleSet;
        use crate::tools::matches::openings::{from_records_on, without};
        let start = Position::start();
        let rules = RuleSet::default();
        let all =
            from_records_on::<S11>("h1-h3 f8-i8\nd1-d3 f4-c4\ng1-g3 f8-i8\n", 2, start, rules)
                .unwrap();
        let held = from_records_on::<S11>("d1-d3 f4-c4\n", 2, start, rules).unwrap();
        let kept = without(all, &held, start, rules);
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|o| o[0].to_string() != "d1-d3"));
    }
}
