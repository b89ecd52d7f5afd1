//! The schedule of a match: every pair of engines (a round robin), or the first engine
//! against each of the others (`--gauntlet`), plays `--games` games, alternating sides;
//! the `k`-th game of a pair uses opening `k / 2`, so each opening is played once with
//! each engine as the attackers (a game pair). A gauntlet against players of one side
//! (`--e1-plays`, the Fetlar study's scripted strategies) gives the first engine the same
//! side in every game and each game an opening of its own.

use crate::core::any_square::AnyMove;
use crate::core::role::Role;

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scheduled {
    /// The engine (index into the engine list) with the attackers.
    pub(crate) attacker: usize,
    /// The engine with the defenders.
    pub(crate) defender: usize,
    /// The moves played from the start before the engines take over.
    pub(crate) opening: Vec<AnyMove>,
}

impl Scheduled {
    /// A game of `attacker` against `defender` from opening `n` of `openings`, counted
    /// round from the first (the start position when there are none).
    fn of(attacker: usize, defender: usize, openings: &[Vec<AnyMove>], n: usize) -> Scheduled {
        let opening = openings
            .get(n % openings.len().max(1))
            .cloned()
            .unwrap_or_default();
        Scheduled {
            attacker,
            defender,
            opening,
        }
    }
}

/// The schedule of a round robin: `engines` engines, every pair playing `games` games from
/// `openings` (reused from the first when there are fewer openings than game pairs; an
/// empty list means the start position).
pub(crate) fn schedule(engines: usize, games: usize, openings: &[Vec<AnyMove>]) -> Vec<Scheduled> {
    let pairs = (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j)));
    of_pairs(pairs, games, openings)
}

/// The schedule of a gauntlet, as cutechess-cli plays one: the first engine plays each of
/// the others `games` games (game pairs from `openings` as in [`schedule`]); the others do
/// not meet.
pub(crate) fn gauntlet(engines: usize, games: usize, openings: &[Vec<AnyMove>]) -> Vec<Scheduled> {
    of_pairs((1..engines).map(|j| (0, j)), games, openings)
}

/// The schedule of a one-sided gauntlet: the first engine plays each of the others
/// `games` games, always as `side`, the `k`-th game from opening `k` (reused from the
/// first when there are fewer openings than games), since no game pair shares one.
pub(crate) fn one_sided_gauntlet(
    engines: usize,
    games: usize,
    openings: &[Vec<AnyMove>],
    side: Role,
) -> Vec<Scheduled> {
    let mut out = Vec::new();
    for j in 1..engines {
        for k in 0..games {
            let (attacker, defender) = match side {
                Role::Attacker => (0, j),
                Role::Defender => (j, 0),
            };
            out.push(Scheduled::of(attacker, defender, openings, k));
        }
    }
    out
}

/// `games` games of each pair in turn, sides alternating, the `k`-th from opening `k / 2`.
fn of_pairs(
    pairs: impl Iterator<Item = (usize, usize)>,
    games: usize,
    openings: &[Vec<AnyMove>],
) -> Vec<Scheduled> {
    let mut out = Vec::new();
    for (i, j) in pairs {
        for k in 0..games {
            let (attacker, defender) = if k % 2 == 0 { (i, j) } else { (j, i) };
            out.push(Scheduled::of(attacker, defender, openings, k / 2));
        }
    }
    out
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn schedule() {
        use crate::tools::matches::schedule::schedule;
        let s = schedule(3, 2, &[]);
        let sides: Vec<(usize, usize)> = s.iter().map(|g| (g.attacker, g.defender)).collect();
        assert_eq!(sides, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
    }

    #[test]
    fn gauntlet() {
        use crate::tools::matches::schedule::gauntlet;
        let s = gauntlet(3, 2, &[]);
        let sides: Vec<(usize, usize)> = s.iter().map(|g| (g.attacker, g.defender)).collect();
        assert_eq!(sides, [(0, 1), (1, 0), (0, 2), (2, 0)]);
    }

    #[test]
    fn one_sided_gauntlet() {
        use crate::core::role::Role;
        use crate::tools::matches::schedule::one_sided_gauntlet;
        let s = one_sided_gauntlet(3, 2, &[], Role::Defender);
        let sides: Vec<(usize, usize)> = s.iter().map(|g| (g.attacker, g.defender)).collect();
        assert_eq!(sides, [(1, 0), (1, 0), (2, 0), (2, 0)]);
    }
}
