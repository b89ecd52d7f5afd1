//! Positions along seeded random games, for the unit tests of what reads positions (the
//! evaluation and the threats in `search`): one owner, so that they walk games alike.

use super::geometry::Geometry;
use super::moves::MoveListOf;
use super::position::PositionOf;
use super::rng::SplitMix64;
use super::rules::RuleSet;

/// The positions of `games` random games from `start` under `rules` (up to 120 plies
/// each, to the game's end), the same for the same `seed`.
pub(crate) fn random_positions<G: Geometry>(
    rules: &RuleSet,
    start: PositionOf<G>,
    seed: u64,
    games: usize,
) -> Vec<PositionOf<G>> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = start;
        for _ in 0..rng.below(120) {
            let list: MoveListOf<G> = pos.legal_moves(rules);
            let Some(&mv) = list.as_slice().get(rng.below(list.len().max(1))) else {
                break;
            };
            let effect = pos.play_unchecked(mv, rules);
            out.push(pos);
            if effect.win.is_some() {
                break;
            }
        }
    }
    out
}
