//! The game a session plays: the rule family or rules string, the board size, a position
//! or a record to start from, and the rules `set_rule` changes on top of the family's.

use crate::core::any_game::{AnyGame, AnyGameError};
use crate::core::berserk_game::BerserkGameOf;
use crate::core::berserk_variant::BerserkVariant;
use crate::core::encirclement_mode::EncirclementMode;
use crate::core::geometry::BoardSize;
use crate::core::preset::RulePreset;
use crate::core::repetition::RepetitionMode;
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::core::rules_source::{RulesSource, RulesSourceError};
use crate::core::variant_game::VariantMoveError;

use super::Session;
use super::error::{SessionError, game_error};

/// The rules that `set_rule repetition`, `encirclement` and `move_limit` changed since
/// the rule family (or rules string) was chosen: they hold on every board size of the
/// family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct RuleOverrides {
    repetition: Option<RepetitionMode>,
    encirclement: Option<EncirclementMode>,
    move_limit: Option<Option<u32>>,
}

impl RuleOverrides {
    /// `rules` with these changes.
    fn apply(self, rules: RuleSet) -> RuleSet {
        RuleSet {
            repetition: self.repetition.unwrap_or(rules.repetition),
            encirclement: self.encirclement.unwrap_or(rules.encirclement),
            move_limit: self.move_limit.unwrap_or(rules.move_limit),
            ..rules
        }
    }
}

impl Session {
    /// A new game of the family (or rules string) on the current board from its start
    /// position, with `first` to move (the variant's first mover when `None`); rules,
    /// options and time settings are kept.
    pub(crate) fn new_game(&mut self, first: Option<Role>) -> Result<(), SessionError> {
        if let Some(v) = self.source.berserk().cloned() {
            let game = berserk_start(&v, first.unwrap_or(v.first()))?;
            self.replace_game(game);
            return Ok(());
        }
        let variant = self.source.variant(self.board_size())?;
        let first = first.unwrap_or(variant.first());
        let game = AnyGame::start(&variant, first, self.rules).map_err(game_error)?;
        self.replace_game(game);
        Ok(())
    }

    /// A new game on a board of `size`: the family's game of that size ([`RulePreset::
    /// variant`]), or the rules string's game on its own board, its rules with what
    /// `set_rule` changed since the family was chosen. An error, and nothing changes, when
    /// there is no game of that size (a rules string's game has only its own board).
    pub(crate) fn set_board_size(&mut self, size: BoardSize) -> Result<(), SessionError> {
        if let Some(v) = self.source.berserk().cloned() {
            if size != v.size() {
                return Err(SessionError::Rules(RulesSourceError::OwnBoard {
                    name: v.name().to_string(),
                    own: v.size(),
                    size,
                }));
            }
            let game = berserk_start(&v, v.first())?;
            self.replace_game(game);
            return Ok(());
        }
        let variant = self.source.variant(size)?;
        let rules = self.overrides.apply(variant.rules());
        let game = AnyGame::start(&variant, variant.first(), rules).map_err(game_error)?;
        self.rules = rules;
        self.replace_game(game);
        Ok(())
    }

    /// Chooses a rule family or an OpenTafl rules string (`set_rule rules`), dropping
    /// what `set_rule` changed before. A family with a game of the current board size
    /// goes on with the game in progress under its rules there (and new games are that
    /// game); a family without one starts a new game on its usual board (so that a family
    /// whose sizes the current one lacks, tablut's 9x9 under copenhagen, can be reached at
    /// all). A rules string always starts its own game on its own board. On an error
    /// nothing changes.
    pub(crate) fn set_source(&mut self, source: RulesSource) -> Result<(), SessionError> {
        let family = match &source {
            RulesSource::Family(f)
                if f.sizes().contains(&self.board_size()) && self.game.berserk().is_none() =>
            {
                *f
            }
            _ => return self.start_source(source),
        };
        let variant = family.variant(self.board_size()).map_err(game_error)?;
        self.source = source;
        self.overrides = RuleOverrides::default();
        self.rules = variant.rules();
        self.game.set_rules(self.rules);
        Ok(())
    }

    /// Chooses a rule family or rules string and starts its game on its usual board (`hnefi
    /// --rules`; OTEP's `rules`, whose string names the whole game: its board, start
    /// position, first mover and rules). On an error nothing changes.
    pub fn start_source(&mut self, source: RulesSource) -> Result<(), SessionError> {
        if let Some(v) = source.berserk().cloned() {
            let game = berserk_start(&v, v.first())?;
            self.source = source;
            self.overrides = RuleOverrides::default();
            self.replace_game(game);
            return Ok(());
        }
        let variant = source.variant(source.usual_size())?;
        let game =
            AnyGame::start(&variant, variant.first(), variant.rules()).map_err(game_error)?;
        self.source = source;
        self.overrides = RuleOverrides::default();
        self.rules = variant.rules();
        self.replace_game(game);
        Ok(())
    }

    /// Chooses a rule family and starts its game on its usual board, as
    /// [`Session::start_source`] does.
    pub fn start_family(&mut self, family: RulePreset) -> Result<(), SessionError> {
        self.start_source(RulesSource::Family(family))
    }

    /// Loads an OpenTafl position of the current board size with `to_move` to move, as a
    /// new game.
    pub(crate) fn set_position(&mut self, otn: &str, to_move: Role) -> Result<(), SessionError> {
        if let Some(v) = self.source.berserk().cloned() {
            // A position of the rules string's game, with its commanders and knights
            // (none of which has moved, as in OpenTafl), no turn continuing.
            let mut start = v.with_start(otn.trim());
            // Which sides have commanders or knights is the game's, from its start.
            start.rules.pieces = v.rules().pieces;
            let v = start;
            let game = berserk_start(&v, to_move)?;
            self.replace_game(game);
            return Ok(());
        }
        let game = AnyGame::from_opentafl(self.board_size(), otn, to_move, self.rules).map_err(
            |e| match (e, &self.source) {
                // A rules string's game has no other board to switch to first.
                (AnyGameError::PositionSize { position, board }, RulesSource::Custom(c)) => {
                    SessionError::Rules(RulesSourceError::OwnBoard {
                        name: c.variant().name().to_string(),
                        own: board,
                        size: position,
                    })
                }
                (e, _) => e.into(),
            },
        )?;
        self.replace_game(game);
        Ok(())
    }

    /// A new game from the variant's start position (its first mover first) with these
    /// record moves played under the current rules. On an error the game is left as it
    /// was.
    pub(crate) fn load_moves(&mut self, tokens: &[&str]) -> Result<(), SessionError> {
        if let Some(v) = self.source.berserk().cloned() {
            let game = BerserkGameOf::from_record(&v, &tokens.join(" "))
                .map_err(VariantMoveError::from)?;
            self.replace_game(game);
            return Ok(());
        }
        let variant = self.source.variant(self.board_size())?;
        let game = AnyGame::from_record(&variant, &tokens.join(" "), self.rules)?;
        self.replace_game(game);
        Ok(())
    }

    /// Sets the repetition rule for new games and the game in progress.
    pub fn set_repetition(&mut self, mode: RepetitionMode) {
        self.overrides.repetition = Some(mode);
        self.rules.repetition = mode;
        self.game.set_rules(self.rules);
    }

    /// Sets the encirclement rule for new games and the game in progress.
    pub(crate) fn set_encirclement(&mut self, mode: EncirclementMode) {
        self.overrides.encirclement = Some(mode);
        self.rules.encirclement = mode;
        self.game.set_rules(self.rules);
    }

    /// Sets the move limit (0 = none) for new games and the game in progress.
    pub fn set_move_limit(&mut self, plies: u32) {
        let limit = (plies > 0).then_some(plies);
        self.overrides.move_limit = Some(limit);
        self.rules.move_limit = limit;
        self.game.set_rules(self.rules);
    }
}

/// A Berserk game of `v` from its start, `first` to move.
fn berserk_start(
    v: &BerserkVariant,
    first: Role,
) -> Result<BerserkGameOf<crate::core::geometry::S11>, SessionError> {
    BerserkGameOf::start(v, first).map_err(|e| VariantMoveError::Berserk(e.into()).into())
}
