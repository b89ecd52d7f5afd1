//! Levels for people (`set_option level N`, `hnefi --level N`): a ladder from the Random
//! player (level 1) through pairs of the Fetlar study's strategies to the search at
//! growing depths and, at the top, full strength. A level plays either side: a pair of
//! strategies is one attacking and one defending strategy, the one of the side to move
//! answering, so no strategy is ever asked to move for the side it does not play.
//! Level 0, the default, is full strength (no level): the search under the session's
//! limits.
//!
//! The pairs come from the study's tables (`hnefi study`, docs/fetlar-study.md, on
//! Fetlar and on Copenhagen alike). Every scripted defender but Fortification beats every
//! scripted attacker almost always, so two pairs of such defenders differ little. Level 2
//! pairs Aggressive (the attacker that beats a Random defender most) with Fortification,
//! which holds a draw against Random and the barricading attackers but wins almost
//! nothing. Level 3 pairs King Centered, the attacker that wins most against the scripted
//! defenders, with Defensive, the defender that loses least. The search's depth limits
//! come next; docs/levels.md gives the study's figures behind these choices and each
//! level's measured Elo on Copenhagen and on Fetlar.

use std::fmt;

use crate::core::role::Role;
use crate::search::Limits;

use super::{Player, Strategy};

/// The highest level: full strength, as level 0.
pub const MAX_LEVEL: u64 = 8;

/// What one level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPlay {
    /// A scripted strategy for each side.
    Strategies {
        /// The strategy that plays the attackers.
        attackers: Strategy,
        /// The strategy that plays the defenders.
        defenders: Strategy,
    },
    /// The search, at most this many plies deep (the session's time limits still apply).
    Depth(u32),
    /// The search under the session's limits alone.
    Full,
}

impl LevelPlay {
    /// What level `level` plays (0 and [`MAX_LEVEL`]: full strength); `None` above
    /// [`MAX_LEVEL`] (the options table refuses such a level before it gets here).
    pub const fn of(level: u64) -> Option<LevelPlay> {
        Some(match level {
            0 | MAX_LEVEL => LevelPlay::Full,
            1 => LevelPlay::Strategies {
                attackers: Strategy::Random,
                defenders: Strategy::Random,
            },
            2 => LevelPlay::Strategies {
                attackers: Strategy::Aggressive,
                defenders: Strategy::Fortification,
            },
            3 => LevelPlay::Strategies {
                attackers: Strategy::KingCentered,
                defenders: Strategy::Defensive,
            },
            4 => LevelPlay::Depth(1),
            5 => LevelPlay::Depth(2),
            6 => LevelPlay::Depth(3),
            7 => LevelPlay::Depth(4),
            _ => return None,
        })
    }

    /// The scripted player for `role` at this level with `seed`, or `None` when the
    /// search plays.
    pub(crate) fn player(self, role: Role, seed: u64) -> Option<Player> {
        match self {
            LevelPlay::Strategies {
                attackers,
                defenders,
            } => Some(Player {
                strategy: match role {
                    Role::Attacker => attackers,
                    Role::Defender => defenders,
                },
                seed,
            }),
            LevelPlay::Depth(_) | LevelPlay::Full => None,
        }
    }

    /// The search's limits at this level: the session's `limits` with the level's depth
    /// limit, or a shallower one the session already has.
    pub(crate) fn limits(self, limits: Limits) -> Limits {
        match self {
            LevelPlay::Depth(d) => Limits {
                depth: Some(limits.depth.map_or(d, |own| own.min(d))),
                ..limits
            },
            LevelPlay::Strategies { .. } | LevelPlay::Full => limits,
        }
    }
}

impl fmt::Display for LevelPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelPlay::Strategies {
                attackers,
                defenders,
            } if attackers == defenders => write!(f, "{attackers} (both sides)"),
            LevelPlay::Strategies {
                attackers,
                defenders,
            } => write!(f, "{attackers} (attackers), {defenders} (defenders)"),
            LevelPlay::Depth(d) => write!(f, "the search, {d} plies deep"),
            LevelPlay::Full => f.write_str("the search at full strength"),
        }
    }
}

/// Every level from 1 up, with what it plays: one per line, for `help set_option level`
/// readers and docs/levels.md's table.
pub fn ladder() -> Vec<(u64, LevelPlay)> {
    (1..=MAX_LEVEL)
        .filter_map(|n| LevelPlay::of(n).map(|p| (n, p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_up_to_the_top_plays_something_and_pairs_cover_both_sides() {
        assert_eq!(ladder().len(), MAX_LEVEL as usize);
        assert_eq!(LevelPlay::of(0), Some(LevelPlay::Full));
        assert_eq!(LevelPlay::of(MAX_LEVEL), Some(LevelPlay::Full));
        assert_eq!(LevelPlay::of(MAX_LEVEL + 1), None);
        for (_, play) in ladder() {
            if let LevelPlay::Strategies {
                attackers,
                defenders,
            } = play
            {
                assert!(attackers.side().is_none_or(|s| s == Role::Attacker));
                assert!(defenders.side().is_none_or(|s| s == Role::Defender));
            }
        }
    }

    #[test]
    fn a_depth_level_caps_the_sessions_depth_and_keeps_its_time() {
        let own = Limits {
            depth: Some(2),
            movetime: Some(std::time::Duration::from_millis(50)),
            ..Limits::default()
        };
        let capped = LevelPlay::Depth(3).limits(own);
        assert_eq!((capped.depth, capped.movetime), (Some(2), own.movetime));
        let free = LevelPlay::Depth(3).limits(Limits::default());
        assert_eq!(free.depth, Some(3));
        assert_eq!(LevelPlay::Full.limits(own), own);
    }
}
