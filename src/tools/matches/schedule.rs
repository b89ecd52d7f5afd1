//! The schedule of a match: every pair of engines plays `--games` games, alternating
//! sides; the `k`-th game of a pair uses opening `k / 2`, so each opening is played once
//! with each engine as the attackers (a game pair).

use crate::core::moves::Move;

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The engine (index into the engine list) with the attackers.
    pub attacker: usize,
    /// The engine with the defenders.
    pub defender: usize,
    /// The moves played from the start before the engines take over.
    pub opening: Vec<Move>,
}

/// The schedule of `engines` engines playing `games` games per pair from `openings`
/// (reused from the first when there are fewer openings than game pairs; an empty list
/// means the start position).
///
/// ```
/// use hnefi::tools::matches::schedule::schedule;
/// let s = schedule(3, 2, &[]);
/// let sides: Vec<(usize, usize)> = s.iter().map(|g| (g.attacker, g.defender)).collect();
/// assert_eq!(sides, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
/// ```
pub fn schedule(engines: usize, games: usize, openings: &[Vec<Move>]) -> Vec<Scheduled> {
    let mut out = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            for k in 0..games {
                let (attacker, defender) = if k % 2 == 0 { (i, j) } else { (j, i) };
                let opening = openings
                    .get((k / 2) % openings.len().max(1))
                    .cloned()
                    .unwrap_or_default();
                out.push(Scheduled {
                    attacker,
                    defender,
                    opening,
                });
            }
        }
    }
    out
}
