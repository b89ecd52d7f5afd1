//! Scripted players: the nine strategies of the Fetlar strategy study (the design document
//! `seeds/fetlar-strategies-paper.txt`, kept outside this repository, section 5.2,
//! Algorithms 2 to 10) and its Random player, written from the paper's text.
//! `hnefi --player NAME` answers `generate_move` with them instead of a search.
//!
//! - [`vocabulary`]: the notions the strategies share (barricades, cordon, royal guard,
//!   "can the king be captured", "move closest to").
//! - one file per strategy: the attackers' [`aggressive`], [`barricading_aggressive`],
//!   [`barricading_cordon`], [`king_centered`]; the defenders' [`defensive`],
//!   [`foot_in_the_door`], [`fortification`], [`kings_guard`], [`mobile_king`]; and
//!   [`random`] for either side.
//! - [`level`]: `set_option level N`, a ladder from Random through pairs of strategies
//!   to the search at full strength.
//! - [`study`]: `hnefi study`, the paper's tables played again, set beside its own
//!   numbers ([`paper`]) with the agreement of each pairing ([`agreement`]).
//!
//! A player chooses only among the game's legal moves (repetition rule included), and
//! its random choices come from a generator seeded by the player's seed and the game's
//! positions so far: the same seed and the same game give the same move, however the
//! game was reached (a new game, an undo, a replay).

pub(crate) mod aggressive;
pub(crate) mod agreement;
pub(crate) mod barricading_aggressive;
pub(crate) mod barricading_cordon;
pub(crate) mod defensive;
pub(crate) mod duel;
pub(crate) mod foot_in_the_door;
pub mod fortification;
pub(crate) mod king_centered;
pub(crate) mod kings_guard;
pub mod level;
pub(crate) mod mobile_king;
pub(crate) mod paper;
pub(crate) mod random;
pub mod study;
pub mod vocabulary;

use std::fmt;
use std::str::FromStr;

use crate::core::game::Game;
use crate::core::moves::Move;
use crate::core::rng::SplitMix64;
use crate::core::role::Role;

use vocabulary::Turn;

/// One of the study's strategies, or its Random player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Strategy {
    /// Attackers: capture whenever possible, else close in on the king without being
    /// captured (Algorithm 2).
    Aggressive,
    /// Attackers: barricade the exit castles, then pick off defenders (Algorithm 3).
    BarricadingAggressive,
    /// Attackers: barricade the exit castles, build a cordon and push it in (Algorithm 4).
    BarricadingCordon,
    /// Attackers: move as close to the king as possible (Algorithm 5).
    KingCentered,
    /// Defenders: keep every piece safe, capture safely (Algorithm 6).
    Defensive,
    /// Defenders: hold the barricade squares before moving the king (Algorithm 7).
    FootInTheDoor,
    /// Defenders: build a fort around the throne and play for the draw (Algorithm 8).
    Fortification,
    /// Defenders: escort the king with at least two defenders (Algorithm 9).
    KingsGuard,
    /// Defenders: free the king at once and fight with him (Algorithm 10).
    MobileKing,
    /// Either side: a random piece, then a random move of it.
    Random,
}

/// A player name that is not one of [`Strategy::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}': expected one of {names}", names = Strategy::names())]
pub struct UnknownStrategy(pub String);

impl Strategy {
    /// Every player, attackers' strategies first.
    pub const ALL: [Strategy; 10] = [
        Strategy::Aggressive,
        Strategy::BarricadingAggressive,
        Strategy::BarricadingCordon,
        Strategy::KingCentered,
        Strategy::Defensive,
        Strategy::FootInTheDoor,
        Strategy::Fortification,
        Strategy::KingsGuard,
        Strategy::MobileKing,
        Strategy::Random,
    ];

    /// The name `--player` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Aggressive => "aggressive",
            Strategy::BarricadingAggressive => "barricading-aggressive",
            Strategy::BarricadingCordon => "barricading-cordon",
            Strategy::KingCentered => "king-centered",
            Strategy::Defensive => "defensive",
            Strategy::FootInTheDoor => "foot-in-the-door",
            Strategy::Fortification => "fortification",
            Strategy::KingsGuard => "kings-guard",
            Strategy::MobileKing => "mobile-king",
            Strategy::Random => "random",
        }
    }

    /// The known names, comma-separated.
    pub(crate) fn names() -> String {
        Strategy::ALL.map(Strategy::name).join(", ")
    }

    /// The side the strategy plays, `None` for Random (either).
    pub const fn side(self) -> Option<Role> {
        match self {
            Strategy::Aggressive
            | Strategy::BarricadingAggressive
            | Strategy::BarricadingCordon
            | Strategy::KingCentered => Some(Role::Attacker),
            Strategy::Defensive
            | Strategy::FootInTheDoor
            | Strategy::Fortification
            | Strategy::KingsGuard
            | Strategy::MobileKing => Some(Role::Defender),
            Strategy::Random => None,
        }
    }

    /// The strategy's move for the side to move in `game`, with its random choices drawn
    /// from `rng`; `None` only when there is no legal move. A strategy asked to move for
    /// the side it does not play answers with the Random player's move. The move is
    /// always one of `game.legal_moves()`: should a strategy ever propose another (a
    /// bug), the Random player's move replaces it.
    pub fn choose(self, game: &Game, rng: &mut SplitMix64) -> Option<Move> {
        let turn = Turn::new(game);
        if turn.moves.is_empty() {
            return None;
        }
        let plays = self.side().is_none_or(|side| side == turn.me());
        let proposed = if plays {
            match self {
                Strategy::Aggressive => aggressive::choose(&turn, rng),
                Strategy::BarricadingAggressive => barricading_aggressive::choose(&turn, rng),
                Strategy::BarricadingCordon => barricading_cordon::choose(&turn, rng),
                Strategy::KingCentered => king_centered::choose(&turn, rng),
                Strategy::Defensive => defensive::choose(&turn, rng),
                Strategy::FootInTheDoor => foot_in_the_door::choose(&turn, rng),
                Strategy::Fortification => fortification::choose(&turn, rng),
                Strategy::KingsGuard => kings_guard::choose(&turn, rng),
                Strategy::MobileKing => mobile_king::choose(&turn, rng),
                Strategy::Random => random::choose(&turn, rng),
            }
        } else {
            random::choose(&turn, rng)
        };
        match proposed {
            Some(mv) if turn.moves.contains(&mv) => Some(mv),
            _ => random::choose(&turn, rng),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Strategy, UnknownStrategy> {
        Strategy::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownStrategy(crate::core::excerpt::excerpt(s)))
    }
}

/// A strategy with its seed: what `hnefi --player NAME --seed N` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// The strategy.
    pub strategy: Strategy,
    /// The seed of its random choices.
    pub seed: u64,
}

impl Player {
    /// The player's move in `game`: a function of the seed and the game's positions so
    /// far only.
    pub fn choose(&self, game: &Game) -> Option<Move> {
        let mut rng = self.rng_for(game);
        self.strategy.choose(game, &mut rng)
    }

    /// The generator of one decision: the seed mixed with the hash of every position of
    /// the game.
    fn rng_for(&self, game: &Game) -> SplitMix64 {
        let mut mix = SplitMix64::new(self.seed);
        for pos in game.positions() {
            mix = SplitMix64::new(mix.next_u64() ^ pos.hash());
        }
        SplitMix64::new(mix.next_u64())
    }
}
