//! `--rules`, `--board-size` and `--repetition`: the game whose moves `hnefi annotate` and
//! `hnefi picture` replay, one set of flags flattened into both, read in one place.
//!
//! The match runner, `hnefi perft`, `hnefi selfplay` and the engine's own flags have
//! flags of these names with other meanings (sent to engines, a default family, presets
//! only, a session's rules), and keep their own.

use clap::Args;

use crate::core::repetition::RepetitionMode;

use crate::core::geometry::BoardSize;
use crate::core::rules::RuleSet;
use crate::core::rules_source::RulesSource;
use crate::core::variant::Variant;

/// The game flags of `hnefi annotate` and `hnefi picture`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct GameArgs {
    /// The rule family (copenhagen, the default, hnefatafl-org, fetlar, brandubh, tablut,
    /// sea-battle or tawlbwrdd), played on --board-size; or an OpenTafl rules string
    /// quoted as one argument, played on its own board.
    #[arg(long, value_name = "NAME|STRING")]
    pub(crate) rules: Option<RulesSource>,
    /// The board: the --rules family's game of that size [default: the family's usual
    /// board, 11x11 for copenhagen].
    #[arg(long, value_name = "N")]
    pub(crate) board_size: Option<BoardSize>,
    /// The repetition rule the moves are replayed under, instead of the --rules family's
    /// (off replays any record).
    #[arg(long, value_name = "MODE")]
    pub(crate) repetition: Option<RepetitionMode>,
}

impl GameArgs {
    /// The rules `--rules` names, Copenhagen without it.
    pub(crate) fn source(&self) -> RulesSource {
        self.rules.clone().unwrap_or_default()
    }

    /// The board `--board-size` names, else `source`'s usual board.
    pub(crate) fn size_or_usual(&self, source: &RulesSource) -> BoardSize {
        self.board_size.unwrap_or_else(|| source.usual_size())
    }

    /// The rules of `variant` with `--repetition`'s rule, when given, in place of its own.
    pub(crate) fn rules_of(&self, variant: &Variant) -> RuleSet {
        let base = variant.rules();
        RuleSet {
            repetition: self.repetition.unwrap_or(base.repetition),
            ..base
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::preset::RulePreset;

    #[test]
    fn without_flags_the_game_is_copenhagen_on_11x11_with_its_repetition_rule() {
        let args = GameArgs::default();
        let source = args.source();
        assert_eq!(source, RulesSource::default());
        let size = args.size_or_usual(&source);
        assert_eq!(size, BoardSize::S11);
        let variant = source.variant(size).expect("copenhagen is played on 11x11");
        assert_eq!(args.rules_of(&variant), variant.rules());
    }

    #[test]
    fn the_flags_override_the_family_the_board_and_the_repetition_rule() {
        let args = GameArgs {
            rules: Some(RulesSource::Family(RulePreset::Tablut)),
            board_size: Some(BoardSize::S15),
            repetition: Some(RepetitionMode::Off),
        };
        let source = args.source();
        assert_eq!(args.size_or_usual(&source), BoardSize::S15);
        let variant = source
            .variant(BoardSize::S15)
            .expect("tablut has a 15x15 game");
        let rules = args.rules_of(&variant);
        assert_eq!(rules.repetition, RepetitionMode::Off);
        assert_eq!(
            RuleSet {
                repetition: variant.rules().repetition,
                ..rules
            },
            variant.rules()
        );
    }
}
